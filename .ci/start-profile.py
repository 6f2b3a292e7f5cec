#!/usr/bin/env python3
"""A first visit's start-up by function: reads what `tests/web/start-profile.mjs` wrote (a
sampling profile of the page and its `oaq:` marks) and prints, for each step between two marks,
how long it took and where its samples were: the functions that were running (self time) and
the plugins, systems and other work they were part of (inclusive time), in Markdown.

The profile's clock is not the page's: the two are lined up by the first sample inside the
game's `main`, which the page marks as `oaq:main`. Function names are demangled with `rustfilt`
(`cargo install rustfilt`) when it is there.

Usage: .ci/start-profile.py PROFILE_JSON [TOP]   (`.ci/start-profile` runs it)
"""

import collections
import json
import re
import shutil
import subprocess
import sys

# Inclusive times worth a line: Bevy's plugins, schedules and systems, shaders and pipelines,
# the game's art, text, layout.
WORTH = re.compile(
    r"Plugin>::build|Plugin>::finish|Schedule::run$|run_unsafe|::initialize$|Shader::preprocess"
    r"|PipelineCache|naga::front|naga::valid|naga::back|o_an_quan::|oaq_|taffy::|parley::"
    r"|extract|Composer",
)


def demangler(names):
    """A function from a profile's names to readable ones (without their hashes)."""
    table = {}
    if shutil.which("rustfilt"):
        out = subprocess.run(
            ["rustfilt"], input="\n".join(names), capture_output=True, text=True, check=True
        ).stdout.split("\n")
        table = dict(zip(names, out))
    return lambda name: re.sub(r"::h[0-9a-f]{16}$", "", table.get(name, name) or "(anonymous)")


def main():
    data = json.load(open(sys.argv[1], encoding="utf-8"))
    top = int(sys.argv[2]) if len(sys.argv) > 2 else 15
    profile, marks = data["profile"], data["marks"]
    nodes = {node["id"]: node for node in profile["nodes"]}
    parent = {child: node["id"] for node in profile["nodes"] for child in node.get("children", [])}
    readable = demangler(sorted({node["callFrame"]["functionName"] for node in profile["nodes"]}))
    name = {i: readable(node["callFrame"]["functionName"]) for i, node in nodes.items()}

    def stack(node):
        frames = []
        while node in nodes:
            frames.append(node)
            node = parent.get(node)
        return frames

    at, times = 0.0, []
    for delta in profile["timeDeltas"]:
        at += delta / 1000
        times.append(at)
    lengths = [b - a for a, b in zip(times, times[1:])] + [0.0]
    main_at = next(
        (times[i] for i, node in enumerate(profile["samples"])
         if any(name[f] == "o_an_quan::main" for f in stack(node))),
        None,
    )
    if main_at is None or "oaq:main" not in marks:
        sys.exit("no sample inside the game's main, or no oaq:main mark: a build without names?")
    offset = main_at - marks["oaq:main"]
    steps = sorted((ms, mark) for mark, ms in marks.items() if mark.startswith("oaq:"))

    def step_of(ms):
        current = None
        for start, mark in steps:
            if ms >= start:
                current = mark
        return current

    own = collections.defaultdict(collections.Counter)
    within = collections.defaultdict(collections.Counter)
    for i, node in enumerate(profile["samples"]):
        step = step_of(times[i] - offset)
        if step is None:
            continue
        frames = stack(node)
        own[step][name[frames[0]]] += lengths[i]
        for function in {name[f] for f in frames}:
            within[step][function] += lengths[i]

    print("| from | to | ms |")
    print("|---|---|---|")
    for (start, mark), (end, after) in zip(steps, steps[1:]):
        print(f"| {mark} | {after} | {end - start:.0f} |")
    for (start, mark), (end, _) in zip(steps, steps[1:]):
        if end - start < 50:
            continue
        print(f"\n### After {mark}: {end - start:.0f} ms\n")
        print("| self, ms | function |")
        print("|---|---|")
        for function, ms in own[mark].most_common(top):
            print(f"| {ms:.1f} | `{function[:160]}` |")
        print("\n| within, ms | plugin, system or work |")
        print("|---|---|")
        worth = [(f, ms) for f, ms in within[mark].most_common() if WORTH.search(f)]
        for function, ms in worth[:top]:
            print(f"| {ms:.1f} | `{function[:160]}` |")


if __name__ == "__main__":
    main()
