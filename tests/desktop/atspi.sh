#!/usr/bin/env bash
# The desktop game as a Linux screen reader meets it, in English and in Vietnamese: inside a
# private D-Bus session, the accessibility bus and registry, the screen reader switched on (the
# bus's IsEnabled, which AccessKit waits for), the game on the board in a virtual window, and
# `atspi_tree.py` reading its tree over AT-SPI. Run under `dbus-run-session`:
#
#   dbus-run-session -- tests/desktop/atspi.sh PATH_TO_o-an-quan
set -euo pipefail
game="$1"
here="$(cd "$(dirname "$0")" && pwd)"
root="$(cd "$here/../.." && pwd)"
work="$(mktemp -d)"
pids=()
cleanup() {
    for pid in "${pids[@]}"; do kill "$pid" 2>/dev/null || true; done
    rm -rf "$work"
}
trap cleanup EXIT
/usr/libexec/at-spi-bus-launcher --launch-immediately & pids+=($!)
sleep 1
/usr/libexec/at-spi2-registryd & pids+=($!)
sleep 1
for property in IsEnabled ScreenReaderEnabled; do
    dbus-send --session --print-reply --dest=org.a11y.Bus /org/a11y/bus \
        org.freedesktop.DBus.Properties.Set string:org.a11y.Status "string:$property" \
        variant:boolean:true >/dev/null
done
# One language's game in its window, its tree read; the game's log printed when the tree is
# not as expected.
read_tree() {
    local lang="$1" game_pid ok=0
    mkdir -p "$work/$lang"
    printf '(seen_intro: true, speed: off)\n' > "$work/$lang/settings.ron"
    OAQ_HOME="$work/$lang" BEVY_ASSET_ROOT="$root" timeout 120 \
        xvfb-run -a -s "-screen 0 1400x900x24" "$game" --lang "$lang" --skip-title \
        > "$work/$lang/game.log" 2>&1 &
    game_pid=$!
    /usr/bin/python3 "$here/atspi_tree.py" "$lang" || ok=1
    kill "$game_pid" 2>/dev/null || true
    pkill -f -- "--lang $lang --skip-title" 2>/dev/null || true
    wait "$game_pid" 2>/dev/null || true
    if [ "$ok" -ne 0 ]; then
        echo "-- the game's log ($lang), its end:"
        tail -n 30 "$work/$lang/game.log" || true
    fi
    return "$ok"
}
status=0
for lang in en vi; do
    echo "== $lang"
    if ! read_tree "$lang"; then
        # Seen once beside the browser tests: the game never reached the bus within a minute,
        # where it does in two seconds alone. Started again once, said plainly; a tree that is
        # wrong twice fails.
        echo "NOTE: $lang: trying once more with a new game"
        read_tree "$lang" || status=1
    fi
done
exit $status
