#!/usr/bin/env python3
"""The game's .wasm by crate: reads the module's code and its name section, gives each function
to the crate its name says it belongs to, and prints Markdown tables of bytes (raw, and what
brotli makes of each crate's functions compressed on their own) and the largest functions.

A function is the crate of the type or function it is named for: `bevy_ecs::world::World::spawn`
is bevy_ecs's, `<naga::Module as core::fmt::Debug>::fmt` naga's. A generic of the standard
library (`alloc::vec::Vec<T>::push`, `core::ptr::drop_in_place<T>`) is counted for the first
crate named among its type arguments, or as `std` if there is none.

Usage: .ci/size-profile.py MODULE.wasm TWIGGY_CSV [TOP_ITEMS [CRATES]]   (`.ci/size-profile` runs it)
"""

import collections
import csv
import re
import subprocess
import sys

STD = {"core", "alloc", "std", "compiler_builtins", "dlmalloc", "panic_abort", "__rustc"}
# A crate is the first segment of a path: a name after neither `::` nor another name's letter.
CRATE = re.compile(r"(?<![A-Za-z0-9_:])([a-z_][a-z0-9_]*)::")


def leb(data, i):
    """An unsigned LEB128 number at `i`: (value, the index after it)."""
    value = shift = 0
    while True:
        byte = data[i]
        i += 1
        value |= (byte & 0x7F) << shift
        shift += 7
        if byte < 0x80:
            return value, i


def sections(data):
    """(id, custom section's name or "", body) of every section."""
    i = 8
    while i < len(data):
        sid = data[i]
        size, i = leb(data, i + 1)
        body = data[i:i + size]
        name = ""
        if sid == 0:
            length, j = leb(body, 0)
            name = body[j:j + length].decode()
        yield sid, name, body
        i += size


def imported_functions(body):
    """How many functions the module imports (they come first in the function index space)."""
    count, i = leb(body, 0)
    functions = 0
    for _ in range(count):
        for _ in range(2):
            length, i = leb(body, i)
            i += length
        kind = body[i]
        i += 1
        if kind == 0:
            _, i = leb(body, i)
            functions += 1
        elif kind == 1:
            i += 1
            flags, i = leb(body, i)
            _, i = leb(body, i)
            if flags & 1:
                _, i = leb(body, i)
        elif kind == 2:
            flags, i = leb(body, i)
            _, i = leb(body, i)
            if flags & 1:
                _, i = leb(body, i)
        elif kind == 3:
            i += 2
        else:
            _, i = leb(body, i + 1)
    return functions


def bodies(body):
    """Every function body of the code section, in order."""
    count, i = leb(body, 0)
    out = []
    for _ in range(count):
        size, i = leb(body, i)
        out.append(body[i:i + size])
        i += size
    return out


def function_names(body):
    """Function index → name, from the name section's function names."""
    length, i = leb(body, 0)
    i += length
    names = {}
    while i < len(body):
        kind = body[i]
        size, i = leb(body, i + 1)
        if kind == 1:
            count, j = leb(body, i)
            for _ in range(count):
                index, j = leb(body, j)
                n, j = leb(body, j)
                names[index] = body[j:j + n].decode(errors="replace")
                j += n
        i += size
    return names


ESCAPES = {"$LT$": "<", "$GT$": ">", "$RF$": "&", "$BP$": "*", "$C$": ",", "$SP$": "@",
           "$u20$": " ", "$u27$": "'", "$u5b$": "[", "$u5d$": "]", "$u7b$": "{", "$u7d$": "}",
           "$u7e$": "~", "$u3b$": ";", "$u2b$": "+", "$u22$": '"'}


def demangle(name):
    """A Rust symbol in the legacy mangling (`_ZN3foo3barE`) as `foo::bar`; others as they are."""
    if not name.startswith("_ZN"):
        return name
    parts, i = [], 3
    while i < len(name) and name[i] != "E":
        j = i
        while j < len(name) and name[j].isdigit():
            j += 1
        if j == i:
            return name
        length = int(name[i:j])
        parts.append(name[j:j + length])
        i = j + length
    if parts and re.fullmatch(r"h[0-9a-f]{16}", parts[-1]):
        parts.pop()
    text = "::".join(parts)
    for escape, char in ESCAPES.items():
        text = text.replace(escape, char)
    return text.replace("..", "::").lstrip("_")


def crate_of(name):
    """The crate a function is counted for (see the module's doc)."""
    found = [c for c in CRATE.findall(name) if c not in ("impl", "dyn")]
    if not found:
        return "unnamed" if name.startswith(("code[", "func")) else "std"
    if found[0] not in STD:
        return found[0]
    rest = [c for c in found if c not in STD]
    return rest[0] if rest else "std"


def brotli_size(data):
    return len(subprocess.run(["brotli", "-q", "11", "-w", "24", "-c"], input=data,
                              capture_output=True, check=True).stdout)


def main():
    path, twiggy_csv = sys.argv[1], sys.argv[2]
    top = int(sys.argv[3]) if len(sys.argv) > 3 else 25
    data = open(path, "rb").read()
    imports, code, names, other = 0, [], {}, collections.Counter()
    kept = collections.defaultdict(bytes)
    for sid, name, body in sections(data):
        if sid == 2:
            imports = imported_functions(body)
        elif sid == 10:
            code = bodies(body)
        elif sid == 0:
            # Names, debug information, wasm-bindgen's notes: none of it is shipped.
            if name == "name":
                names = function_names(body)
        else:
            what = {11: "data (strings, shaders, Unicode's and the game's tables)",
                    9: "elements (the table of indirect calls)"}.get(
                sid, "types, imports, exports and globals")
            other[what] += len(body)
            kept[what] += body
    if not names:
        sys.exit(f"{path} has no function names: build it with `strip = false`")
    by_crate = collections.defaultdict(list)
    for k, body in enumerate(code):
        by_crate[crate_of(demangle(names.get(imports + k, f"code[{k}]")))].append(body)
    total = sum(map(len, code)) + sum(other.values())
    rows = sorted(((sum(map(len, b)), c, b) for c, b in by_crate.items()), reverse=True)
    print(f"The module without its custom sections: {total:,} bytes; code "
          f"{sum(map(len, code)):,} in {len(code):,} functions.\n")
    print("| crate | functions | bytes | share | brotli'd alone |")
    print("|---|---|---|---|---|")
    crates = int(sys.argv[4]) if len(sys.argv) > 4 else 40
    shown, rest = rows[:crates], rows[crates:]
    for size, crate, b in shown:
        print(f"| {crate} | {len(b):,} | {size:,} | {100 * size / total:.1f} % | {brotli_size(b''.join(b)):,} |")
    if rest:
        size = sum(r[0] for r in rest)
        print(f"| {len(rest)} other crates | {sum(len(r[2]) for r in rest):,} | {size:,} | "
              f"{100 * size / total:.1f} % | |")
    for what, size in other.most_common():
        print(f"| {what} | | {size:,} | {100 * size / total:.1f} % | {brotli_size(kept[what]):,} |")
    print(f"\nThe {top} largest items (twiggy):\n")
    print("| bytes | item |")
    print("|---|---|")
    with open(twiggy_csv, newline="") as f:
        shipped = [row for row in csv.DictReader(f)
                   if not row["Name"].startswith(("custom section", '"function names"'))]
        for row in shipped[:top]:
            print(f"| {int(row['ShallowSize']):,} | `{row['Name'][:110]}` |")


if __name__ == "__main__":
    main()
