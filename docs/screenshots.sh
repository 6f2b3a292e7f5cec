#!/usr/bin/env bash
# Makes the README's pictures (docs/images/*.png) with the game's own `--screenshot`, under Xvfb
# with Mesa's software renderer, then shrinks them to a palette with pngquant.
# Needs: xvfb (`.ci/deps` installs it) and pngquant (`sudo apt-get install pngquant`).
# The two tournament pictures come from the browser test's screenshots instead (a tournament
# takes four players): `tests/web/tournament.mjs`'s four-in-a.png and podium-b-vi.png, shrunk to
# 960 × 540 (`convert -resize 960x540`) and to a palette (`pngquant 64`).
# Usage: docs/screenshots.sh [--no-build]   (builds the game and the server in debug first)
set -euo pipefail
cd "$(dirname "$0")/.."

target="${CARGO_TARGET_DIR:-target}"
[ "${1:-}" = --no-build ] || cargo build --bin o-an-quan --bin oaq-server --quiet
game="$target/debug/o-an-quan"
server="$target/debug/oaq-server"
command -v pngquant >/dev/null || { echo "pngquant is missing: sudo apt-get install pngquant" >&2; exit 1; }

out=docs/images
mkdir -p "$out"
work="$(mktemp -d)"
server_pid=""
cleanup() {
    [ -n "$server_pid" ] && kill "$server_pid" 2>/dev/null || true
    rm -rf "$work"
}
trap cleanup EXIT

# NAME SIZE LANG ARGS...: one picture, from a fresh home that has seen the how-to-play card.
shoot() {
    local name="$1" size="$2" lang="$3"
    shift 3
    local home="$work/$name"
    mkdir -p "$home"
    printf '(language: %s, seen_intro: true, child: Some(false), name: "Lan", level: 4)\n' \
        "$lang" > "$home/settings.ron"
    OAQ_HOME="$home" xvfb-run -a -s "-screen 0 1400x900x24" \
        "$game" --lang "$lang" --size "$size" --screenshot "$work/$name.png" "$@" > "$home/log" 2>&1 ||
        { cat "$home/log" >&2; echo "screenshot $name failed" >&2; exit 1; }
    pngquant --force --quality 60-85 --strip --output "$out/$name.png" "$work/$name.png"
    echo "$out/$name.png: $(stat -c %s "$out/$name.png") bytes"
}

shoot title 960x540 en --shot-after 3
shoot board 960x540 en --skip-title --autoplay --level 3 --speed normal --after 4 --moment mid-move
shoot review 960x540 en --skip-title --autoplay --level 5 --after 24 --panel review
shoot phone 390x844 vi --skip-title --after 0 --shot-after 3

# Online: a room waiting for a friend, on a server of its own on a free loopback port.
port="$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')"
"$server" --listen "127.0.0.1:$port" --database "$work/server.sqlite3" > "$work/server.log" 2>&1 &
server_pid=$!
for _ in $(seq 100); do
    curl -fs "http://127.0.0.1:$port/health" > /dev/null && break
    sleep 0.1
done
curl -fs "http://127.0.0.1:$port/health" > /dev/null ||
    { cat "$work/server.log" >&2; echo "the server did not start" >&2; exit 1; }
shoot online 960x540 vi --online --create --server "ws://127.0.0.1:$port/ws" --shot-after 6
# The online home, the sheet of a room's own choices and a page of people, on a desktop and on
# a phone, in both languages.
shoot online-home 1280x720 en --online --server "ws://127.0.0.1:$port/ws" --shot-after 6
shoot online-home-phone 390x844 vi --online --server "ws://127.0.0.1:$port/ws" --shot-after 6
shoot online-sheet 1280x720 vi --choose-rules --server "ws://127.0.0.1:$port/ws" --shot-after 6
shoot online-sheet-phone 390x844 en --choose-rules --server "ws://127.0.0.1:$port/ws" \
    --shot-after 6
shoot friends-phone 390x844 en --people friends --server "ws://127.0.0.1:$port/ws" --shot-after 6

du -cb "$out"/*.png | tail -1
