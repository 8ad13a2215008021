#!/usr/bin/env bash
# `causa explain` in every mode: per program, the failing schedule of a
# seeded `causa test` run, then per mode the solving and total time, the
# DSP's four figures (operations, data-flow variations, broken segments,
# context-switch variations), how much smaller the DSP is than the failing
# schedule, and whether the alternate schedule, replayed, runs to the end
# (and, in the Max SMT modes, "not proven optimal" when a conflict budget
# ran out first).
# bench/programs/bank_long.c is run at growing WORK (the failing schedule
# grows, the bug does not).
# The Max SMT modes run with both engines (`--max-smt linear`, the default,
# and `--max-smt z3`).
# The relaxed rows: each failing program/model pair of tests/programs/relaxed/
# (its header says tso=bug or pso=bug), the schedule `causa check` finds.
# Usage: bench/explain.sh [timeout s per explanation, default 300]
# ROWS=relaxed (or ROWS=sc) bench/explain.sh …: only those rows.
# MODES="progressive maxsmt/z3" bench/explain.sh …: only those runs (default:
# all seven).
# CAUSA=/tmp/causa-old bench/explain.sh …: run that binary instead of building.
# Results: docs/performance.md.
set -euo pipefail
cd "$(dirname "$0")/.."
T=${1:-300}
# CAUSA=path/to/causa: that binary (an older build, to compare), not built.
if [ -n "${CAUSA:-}" ]; then
  C=$CAUSA
else
  cargo build --release -q -p causa-cli
  C=./target/release/causa
fi
W=$(mktemp -d)
trap 'rm -rf "$W"' EXIT
echo "machine: $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | xargs), $(nproc) cores; timeout ${T}s"
printf "%-20s %6s %-16s %8s %8s %4s %3s %3s %3s %6s  %s\n" program events mode "solve s" "total s" OP DF BS CTX "DSP %" alternate
row() {
  local label=$1 f=$2
  shift 2
  local out sched
  if [ "${FIND:-test}" = check ]; then
    out=$($C check "$f" "$@" --no-explain --json --out-dir "$W/out" 2>/dev/null || true)
  else
    out=$($C test "$f" "$@" --seed 1 --iterations 5000 --no-explain --json --out-dir "$W/out" 2>/dev/null || true)
  fi
  sched=$(python3 -c 'import json,sys; print(json.loads(sys.argv[1]).get("schedule_file") or "")' "$out" 2>/dev/null || true)
  if [ -z "$sched" ]; then
    printf "%-20s %s\n" "$label" "no failing run found"
    return
  fi
  for run in ${MODES:-symbiosis maxsmt lexico progressive maxsmt/z3 lexico/z3 progressive/z3}; do
    local mode=${run%/*} engine=linear
    [ "$run" != "$mode" ] && engine=${run#*/}
    timeout "$T" $C explain "$f" "$@" --schedule "$sched" --mode "$mode" --max-smt "$engine" --json >"$W/explained" 2>&1 || true
    # (The JSON of a long run's explanation is too long for an argument.)
    python3 - "$label" "$run" "$W/explained" <<'PY'
import json, sys
label, mode, path = sys.argv[1:4]
out = open(path).read()
try:
    d = json.loads(out)
except Exception:
    print("%-20s %6s %-16s %s" % (label, "", mode, "timeout" if not out.strip() else out.strip().splitlines()[0][:80])); sys.exit()
n, s, g = d["failing_events"], d["stats"], d["figures"]
if not d["alternate_found"]:
    alt = "none (%d pairs, %d flips tried)" % (s["pairs_tried"], d["flips_tried"])
    print("%-20s %6d %-16s %8.3f %8.3f %4s %3s %3s %3s %6s  %s" % (label, n, mode, s["solver_seconds"], s["seconds"], "-", "-", "-", "-", "-", alt)); sys.exit()
alt = "fails again" if d["alternate_fails"] else "runs to the end"
if not d.get("optimal", True) and not mode.startswith("symbiosis"):
    alt += " (not proven optimal)"
if s.get("timed_out"):
    alt += " (time limit ran out)"
if d["flipped"]:
    alt += ", branch flipped at " + (d["flipped"]["location"] or "?")
smaller = 100.0 * (1 - g["operations"] / n)
print("%-20s %6d %-16s %8.3f %8.3f %4d %3d %3d %3d %5.1f%%  %s" % (label, n, mode, s["solver_seconds"], s["seconds"],
      g["operations"], g["data_flow_variations"], g["broken_segments"], g["context_switch_variations"], smaller, alt))
PY
  done
}
relaxed_rows() {
  local f m
  for f in tests/programs/relaxed/*.c; do
    for m in tso pso; do
      grep -q "causa: $m=bug" "$f" || continue
      FIND=check row "$(basename "$f" .c) $m" "$f" --memory-model "$m"
    done
  done
}
if [ "${ROWS:-all}" = relaxed ]; then
  relaxed_rows
  exit 0
fi
row bank examples/bank.c
for f in tests/programs/fail/clap/{bbuf,pfscan,pbzip2,stringbuffer}.c; do
  row "$(basename "$f" .c)" "$f"
done
for w in 10 40 80; do
  row "bank_long WORK=$w" bench/programs/bank_long.c --cflags "-DWORK=$w"
done
# Long schedules whose arrays are indexed by shared values (symbolic
# addresses): a late lost update after locked histogram updates, and racey.
for l in 25 80; do
  row "late_race LOOPS=$l" bench/programs/late_race.c --cflags "-DLOOPS=$l"
done
# The same with the histogram checked too: its locked updates are no
# longer incidental to the failure, but their order is (they only add 1
# to bins main reads after the joins): progressive mode holds them.
for l in 25 80; do
  row "late_race+hist L=$l" bench/programs/late_race.c --cflags "-DLOOPS=$l -DCHECK_HIST"
done
# A list pushed under a lock and walked by main: every walk step reads
# through a pointer read from shared memory (a symbolic address whose
# candidates are all the nodes). The 90-node row misses the 1 s target.
for n in 5 10 30; do
  row "list_walk PUSHES=$n" bench/programs/list_walk.c --cflags "-DPUSHES=$n"
done
row "racey LOOPS=8" tests/programs/fail/clap/racey.c --cflags "-DLOOPS=8"
# A work queue whose takes read the slot at a shared index (symbolic
# addresses), with a lost update of the count of tasks done.
row "work_queue TASKS=40" bench/programs/work_queue.c --cflags "-DTASKS=40"
# Bulk accesses of shared memory (memcpy, memset, strcpy, strcmp).
for f in tests/programs/fail/memory/{struct_copy_race,double_free}.c \
  tests/programs/fail/realistic/{refcount_nonatomic_release,dcl_singleton_publish_early}.c; do
  row "$(basename "$f" .c | cut -c1-20)" "$f"
done
# A failure only another path avoids (every job is done twice on the
# failing run's paths), in a 167-event schedule.
row job_claim_race tests/programs/fail/realistic/job_claim_race.c
# A 1,477-event run, a third of it in statistics sections the failure does
# not depend on; only another path avoids it (the check-then-act on stock).
row inventory tests/programs/fail/realistic/inventory_check_then_act.c
[ "${ROWS:-all}" = sc ] || relaxed_rows
