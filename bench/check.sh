#!/usr/bin/env bash
# `causa check` over the corpus (every program with a `check=` header, the
# slow realistic ones, and the lost-update family): per program the verdict,
# executions, solver queries, median and max query time, total time, and the
# executions of the naive exhaustive DFS oracle where it finishes.
# Usage: bench/check.sh [check timeout s, default 60] [DFS limit, default 2000000]
# Results: docs/performance.md.
set -euo pipefail
cd "$(dirname "$0")/.."
T=${1:-60}
LIMIT=${2:-2000000}
cargo build --release -q -p causa-cli
C=./target/release/causa
echo "machine: $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | xargs), $(nproc) cores; check timeout ${T}s, DFS limit $LIMIT"
printf "%-52s %-9s %6s %7s %8s %8s %8s %9s\n" program verdict execs queries "med ms" "max ms" "total s" "DFS execs"
# bench_one LABEL FILE [causa options...]: one row of the table.
bench_one() {
  local label=$1 f=$2
  shift 2
  local out dfs
  out=$(timeout $((T + 30)) $C check "$f" "$@" --timeout "$T" --json --out-dir /tmp/causa-bench 2>/dev/null || true)
  dfs=$(timeout $((T + 30)) $C test "$f" "$@" --strategy dfs --iterations "$LIMIT" --json --out-dir /tmp/causa-bench 2>/dev/null || true)
  python3 - "$label" "$out" "$dfs" <<'PY'
import json, sys
name, out, dfs = sys.argv[1], sys.argv[2], sys.argv[3]
try:
    d = json.loads(out); s = d.get("stats", {})
    row = (d["verdict"], s.get("executions"), s.get("queries"), "%.2f" % s.get("query_median_ms", 0),
           "%.1f" % s.get("query_max_ms", 0), "%.1f" % s.get("seconds", 0))
except Exception:
    row = ("error", "-", "-", "-", "-", "-")
try:
    e = json.loads(dfs); st = e.get("stats", {})
    if e.get("verdict") == "bug":
        dfs_col = "bug@%d" % st.get("executions", 0)
    elif st.get("exhaustive"):
        dfs_col = str(st.get("executions"))
    else:
        dfs_col = ">%d" % st.get("executions", 0)
except Exception:
    dfs_col = "-"
print("%-52s %-9s %6s %7s %8s %8s %8s %9s" % ((name,) + row + (dfs_col,)))
PY
}

for n in 2 3 4; do
  bench_one "bench/programs/lost_update.c -DTHREADS=$n" bench/programs/lost_update.c --cflags="-DTHREADS=$n"
done
programs=$( (grep -rl 'causa: check=' tests/programs; ls tests/programs/pass/realistic/*.c tests/programs/pass/cond/bounded_buffer.c) | sort -u)
for f in $programs; do
  extra=()
  cf=$(sed -n 's|^// causa: cflags=||p' "$f" | head -1)
  [ -n "$cf" ] && extra+=(--cflags="$cf")
  in=$(sed -n 's|^// causa: input=||p' "$f" | head -1)
  [ -n "$in" ] && extra+=(--input "$in")
  bench_one "${f#tests/programs/}" "$f" "${extra[@]}"
  # The smaller instance the test suite checks, if the header names one.
  ccf=$(sed -n 's|^// causa: check-cflags=||p' "$f" | head -1)
  if [ -n "$ccf" ]; then
    small=(--cflags="$cf $ccf")
    [ -n "$in" ] && small+=(--input "$in")
    bench_one "${f#tests/programs/} $ccf" "$f" "${small[@]}"
  fi
done
