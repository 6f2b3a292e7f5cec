"""The game's accessibility tree as a Linux screen reader (Orca) reads it: over AT-SPI, from
the accessibility bus. Waits for the game, prints its tree, and checks what a blind player
needs: the board as a table of named pits, the bar's named buttons, nothing hidden exposed.

usage: atspi_tree.py LANG   (en or vi)
"""
import sys
import time

import pyatspi

EXPECTED = {
    "en": {
        "table": "The board",
        "cells": ["your pit 3, 5 stones", "the computer's pit 8, 5 stones",
                  "the left mandarin pit, the mandarin alone"],
        "buttons": ["Menu", "Hint", "Undo"],
    },
    "vi": {
        "table": "Bàn cờ",
        "cells": ["ô của bạn số 3, 5 viên", "ô của máy số 8, 5 viên",
                  "ô quan bên trái, chỉ có quan"],
        "buttons": ["Trình đơn", "Gợi ý", "Đi lại"],
    },
}


def walk(node, depth, out):
    try:
        role, name = node.getRoleName(), node.name
    except Exception:
        return
    out.append((depth, role, name))
    for i in range(node.childCount):
        child = node.getChildAtIndex(i)
        if child is not None:
            walk(child, depth + 1, out)


def game_tree(seconds):
    deadline = time.time() + seconds
    while time.time() < deadline:
        desktop = pyatspi.Registry.getDesktop(0)
        for i in range(desktop.childCount):
            app = desktop.getChildAtIndex(i)
            if app is not None and app.name == "o-an-quan":
                out = []
                walk(app, 0, out)
                if any(role == "table cell" for _, role, _ in out):
                    return out
        time.sleep(0.5)
    return None


def main():
    lang = sys.argv[1]
    want = EXPECTED[lang]
    tree = game_tree(60)
    if tree is None:
        print("FAIL the game never appeared on the accessibility bus")
        return 1
    for depth, role, name in tree:
        print(f"{'  ' * depth}{role}: {name!r}")
    failed = False

    def check(ok, what):
        nonlocal failed
        print(f"{'ok  ' if ok else 'FAIL'} {what}")
        failed |= not ok

    tables = [name for _, role, name in tree if role == "table"]
    check(tables == [want["table"]], f"one table, the board: {tables}")
    rows = [name for _, role, name in tree if role == "table row"]
    check(len(rows) == 2, f"a row per player: {rows}")
    cells = [name for _, role, name in tree if role == "table cell"]
    check(len(cells) == 12, f"twelve pits: {len(cells)}")
    for cell in want["cells"]:
        check(cell in cells, f"a pit named {cell!r}")
    buttons = [name for _, role, name in tree if role == "push button"]
    for button in want["buttons"]:
        check(button in buttons, f"a button named {button!r}")
    check(all(buttons), f"every button has a name: {buttons}")
    # The table flip's button and the sowing buttons are hidden until they can be used.
    hidden = ["Flip", "Sow to the left", "Lật bàn", "Rải sang trái"]
    check(not any(b in buttons for b in hidden), "hidden buttons are not in the tree")
    check(any(role == "status bar" for _, role, _ in tree), "the announcements' live region")
    return 1 if failed else 0


sys.exit(main())
