#!/usr/bin/env bash
# Render causa explain's HTML report of a bundled example and screenshot it
# with headless Chromium, to look at the page as a user would.
# Usage: scripts/explain-screenshot.sh [PROG.c] [out.png]
#   (default: examples/bank.c, explain-report.png). Needs chromium
#   (`apt-get install chromium`).
set -euo pipefail
OUT=${2:-explain-report.png}
case "$OUT" in /*) ;; *) OUT="$PWD/$OUT" ;; esac
cd "$(dirname "$0")/.."
PROG=${1:-examples/bank.c}
command -v chromium >/dev/null || { echo "chromium is needed: apt-get install chromium" >&2; exit 2; }
cargo build --release -q -p causa-cli
W=$(mktemp -d)
trap 'rm -rf "$W"' EXIT
./target/release/causa test "$PROG" --seed 1 --no-explain --out-dir "$W" >/dev/null || true
SCHED=$(ls "$W"/*.schedule 2>/dev/null | head -1)
[ -n "$SCHED" ] || { echo "no failing schedule found for $PROG" >&2; exit 1; }
./target/release/causa explain "$PROG" --schedule "$SCHED" --html "$W/report.html" >/dev/null || true
chromium --headless --no-sandbox --disable-gpu --window-size=1400,1100 --screenshot="$OUT" "file://$W/report.html" 2>/dev/null
echo "screenshot: $OUT (report of $PROG, schedule $(basename "$SCHED"))"
