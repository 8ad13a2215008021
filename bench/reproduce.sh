#!/usr/bin/env bash
# `causa reproduce` on the CLAP-style programs (tests/programs/fail/clap):
# record the paths of a failing `causa test` run, then reproduce from the log
# alone; per program the sizes and times of CLAP's Table 1 (shared accesses,
# access points, constraints, variables, symbolic execution and solving time,
# context switches) and the total from log to confirmed schedule, once with
# the default method (the path-guided search, the solver after it) and once
# with the solver alone. racey and bench/programs/late_race.c are also run at
# growing LOOPS to show how the time grows with the trace.
# Usage: bench/reproduce.sh [timeout s per reproduction, default 120]
# Results: docs/performance.md.
set -euo pipefail
cd "$(dirname "$0")/.."
T=${1:-120}
cargo build --release -q -p causa-cli
C=./target/release/causa
W=$(mktemp -d)
trap 'rm -rf "$W"' EXIT
echo "machine: $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | xargs), $(nproc) cores; timeout ${T}s"
printf "%-22s %-6s %7s %6s %11s %9s %8s %8s %4s %8s  %s\n" program method accesses points constraints variables "sym s" "solve s" cs "total s" result
row() {
  local label=$1 f=$2
  shift 2
  rm -rf "$W/log"
  if ! timeout "$T" $C test "$f" "$@" --iterations 3000 --record-paths "$W/log" --out-dir "$W/out" >/dev/null 2>&1 \
     && [ ! -f "$W/log/manifest.json" ]; then
    printf "%-22s %s\n" "$label" "no failing run recorded"
    return
  fi
  one "$label" auto "$f" "$@"
  if [ "${SOLVER:-1}" = 1 ]; then one "$label" solver "$f" "$@"; fi
}
one() {
  local label=$1 method=$2 f=$3
  shift 3
  local out
  out=$(timeout "$T" $C reproduce "$f" "$@" --method "$method" --no-explain --paths "$W/log" --json --out-dir "$W/out" 2>&1 || true)
  python3 - "$label" "$out" "$method" <<'PY'
import json, sys
label, out, method = sys.argv[1], sys.argv[2], sys.argv[3]
label = "%-22s %-6s" % (label, method)
try:
    d = json.loads(out)
except Exception:
    print("%-22s %s" % (label, "timeout" if not out.strip() else out.strip().splitlines()[0][:90])); sys.exit()
if d.get("verdict") != "bug":
    print("%-22s %s" % (label, d.get("error", "error")[:100])); sys.exit()
s = d["stats"]
n = lambda k: "-" if s.get(k) is None else s[k]
how = "search: %d schedules" % s["search_executions"] if s["method"] == "search" else "solver"
print("%s %7s %6s %11s %9s %8.3f %8.3f %4d %8.3f  %s" % (label, s["shared_accesses"], n("access_points"),
      n("constraints"), n("variables"), s["symbolic_seconds"], s["solver_seconds"], s["context_switches"],
      s["seconds"], "confirmed by " + how + ("" if s["fewest_context_switches"] else " (cs not minimised)")))
PY
}
for f in tests/programs/fail/clap/*.c; do
  row "$(basename "$f" .c)" "$f"
done
for l in 2 4 8 16 32; do
  row "racey LOOPS=$l" tests/programs/fail/clap/racey.c --cflags "-DLOOPS=$l"
done
# Longer traces: the solver is not run beyond a few hundred accesses.
for l in 128 512 1700; do
  SOLVER=0 row "racey LOOPS=$l" tests/programs/fail/clap/racey.c --cflags "-DLOOPS=$l"
done
for l in 10 50; do
  row "late_race LOOPS=$l" bench/programs/late_race.c --cflags "-DLOOPS=$l"
done
for l in 170 340 850 1700 3400; do
  SOLVER=0 row "late_race LOOPS=$l" bench/programs/late_race.c --cflags "-DLOOPS=$l"
done
