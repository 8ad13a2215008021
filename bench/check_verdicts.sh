#!/usr/bin/env bash
# `causa check --no-explain --json` on every corpus program with a `check=`
# header (with its `cflags=`, `check-cflags=` and `memory-model=`): one line
# per program with the verdict, executions, solver queries and seconds.
# Comparing two builds' lines shows what a change to MCR costs and whether
# any verdict moved.
# Usage: CAUSA=path/to/causa bench/check_verdicts.sh > out.txt
# Results: docs/performance.md.
set -euo pipefail
cd "$(dirname "$0")/.."
C=${CAUSA:-./target/release/causa}
[ -n "${CAUSA:-}" ] || cargo build --release -q -p causa-cli
W=$(mktemp -d)
trap 'rm -rf "$W"' EXIT
for f in $(grep -l "causa: check=" -r tests/programs --include=*.c --include=*.i | sort); do
  fl=$(grep -m1 "causa: cflags=" "$f" | sed "s/.*cflags=//" || true)
  cfl=$(grep -m1 "causa: check-cflags=" "$f" | sed "s/.*check-cflags=//" || true)
  mm=$(grep -m1 "causa: memory-model=" "$f" | sed "s/.*memory-model=//" || true)
  args=()
  [ -n "$fl$cfl" ] && args+=(--cflags "$fl $cfl")
  [ -n "$mm" ] && args+=(--memory-model "$mm")
  out=$(timeout 300 "$C" check "$f" "${args[@]}" --no-explain --json --out-dir "$W" 2>/dev/null || true)
  python3 -c 'import json, sys
try:
    d = json.loads(sys.argv[2]); s = d.get("stats", {})
    print(sys.argv[1], d.get("verdict"), s.get("executions"), s.get("queries"), "%.2f" % s.get("seconds", 0))
except Exception:
    print(sys.argv[1], "error")' "$f" "$out"
done
