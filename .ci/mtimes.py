#!/usr/bin/env python3
"""A fresh clone's files keep the times they had in the last run, where their content is the same.

Cargo decides whether a workspace crate must be compiled again by its files' modification times:
a fresh clone gives every file the time of the clone, so every crate of the workspace was
compiled again in every run, even those no commit touched (and the web build's .wasm with them).

`record` (at the end of a run) writes each tracked file's content hash and modification time into
the target folder. `restore` (at the start of the next run, in a fresh clone) gives each file
whose content hashes the same its recorded time, which is older than what the last run built
from it; a changed or new file keeps the clone's time, newer than anything built, and what
depends on it is compiled again. So the build is what it would be in the last run's checkout.

The one way this could go wrong is a build in the same target folder from other sources between
two runs (a developer's checkout sharing it): its outputs are newer than the recorded times but
were not built from the recorded content. `restore` therefore gives up (and the run compiles
the workspace as before) when any of Cargo's fingerprints is newer than the record.

Usage: mtimes.py record|restore TARGET_DIR   (in the clone's root)
"""

import glob
import hashlib
import os
import subprocess
import sys

RECORD = "ci-source-times.tsv"


def tracked():
    out = subprocess.run(["git", "ls-files", "-z"], check=True, capture_output=True).stdout
    return [p for p in out.decode().split("\0") if p and os.path.isfile(p)]


def digest(path):
    with open(path, "rb") as f:
        return hashlib.sha256(f.read()).hexdigest()


def newest_fingerprint(target):
    """The newest modification time among Cargo's fingerprints in the target folder (a
    profile's `.fingerprint` holds a folder of files per unit, the host's and each target's)."""
    newest = 0
    for pattern in ("*/.fingerprint/*/*", "*/*/.fingerprint/*/*"):
        for path in glob.glob(os.path.join(glob.escape(target), pattern)):
            try:
                newest = max(newest, os.stat(path).st_mtime_ns)
            except OSError:
                pass
    return newest


def record(target):
    lines = [f"built-until\t{newest_fingerprint(target)}"]
    for path in tracked():
        lines.append(f"{path}\t{digest(path)}\t{os.stat(path).st_mtime_ns}")
    tmp = os.path.join(target, RECORD + ".tmp")
    with open(tmp, "w") as f:
        f.write("\n".join(lines) + "\n")
    os.replace(tmp, os.path.join(target, RECORD))
    print(f"mtimes: recorded {len(lines) - 1} files' times")


def restore(target):
    path = os.path.join(target, RECORD)
    if not os.path.exists(path):
        print("mtimes: no record of an earlier run: every file keeps the clone's time")
        return
    with open(path) as f:
        rows = [line.rstrip("\n").split("\t") for line in f if line.strip()]
    if not rows or rows[0][0] != "built-until":
        print("mtimes: the record is unreadable: every file keeps the clone's time")
        return
    built_until = int(rows[0][1])
    if newest_fingerprint(target) > built_until:
        print("mtimes: the target folder was built from other sources since the last run: "
              "every file keeps the clone's time")
        return
    known = {row[0]: (row[1], int(row[2])) for row in rows[1:] if len(row) == 3}
    kept = changed = 0
    for file in tracked():
        old = known.get(file)
        if old and old[0] == digest(file):
            os.utime(file, ns=(old[1], old[1]))
            kept += 1
        else:
            changed += 1
    print(f"mtimes: {kept} files as the last run had them, {changed} new or changed")


def main():
    if len(sys.argv) != 3 or sys.argv[1] not in ("record", "restore"):
        sys.exit("usage: mtimes.py record|restore TARGET_DIR")
    target = sys.argv[2]
    os.makedirs(target, exist_ok=True)
    {"record": record, "restore": restore}[sys.argv[1]](target)


if __name__ == "__main__":
    main()
