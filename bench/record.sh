#!/usr/bin/env bash
# Native recording overhead (`causa build`): per program, the median of RUNS
# runs of a plain `clang -O2` build and of the recording build (`causa build
# -O2`), the overhead, and the path-log bytes written per second of run time.
# Programs: bench/programs/record/*.c (parallel merge sort, producer/consumer,
# a race-heavy counter loop, a parallel file scan over generated files).
# Usage: bench/record.sh [runs, default 5]. Results: docs/performance.md.
set -euo pipefail
cd "$(dirname "$0")/.."
RUNS=${1:-5}
cargo build --release -q -p causa-cli
C=$PWD/target/release/causa
CLANG=$(command -v clang-14 || echo /usr/lib/llvm-14/bin/clang)
W=$(mktemp -d)
trap 'rm -rf "$W"' EXIT
# Generated input of the file scan: 64 files of 20,000 lines (77 MB).
python3 - "$W/files" <<'PY'
import os, random, sys
d = sys.argv[1]; os.makedirs(d)
r = random.Random(7)
words = ["alpha", "beta", "causa", "delta", "thread", "lock", "race", "path"]
for i in range(64):
    with open(os.path.join(d, "f%02d.txt" % i), "w") as f:
        for _ in range(20000):
            f.write(" ".join(r.choice(words) for _ in range(12)) + "\n")
PY
FILES=$(ls "$W"/files/*.txt)
echo "machine: $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | xargs), $(nproc) cores; median of $RUNS runs"
printf "%-10s %10s %12s %9s %14s\n" program "plain s" "recording s" overhead "log bytes/s"
median() { sort -n | awk '{a[NR]=$1} END {print (NR % 2) ? a[(NR+1)/2] : (a[NR/2] + a[NR/2+1]) / 2}'; }
timed() { # command...: prints seconds
  local s e
  s=$(date +%s%N); "$@" >/dev/null; e=$(date +%s%N)
  echo "scale=4; ($e - $s) / 1000000000" | bc
}
for p in psort prodcons counter filescan; do
  src=bench/programs/record/$p.c
  args=""
  [ "$p" = filescan ] && args=$FILES
  "$CLANG" -O2 -w "$src" -o "$W/$p.plain" -lpthread
  "$C" build "$src" -o "$W/$p.rec" -O2 >/dev/null
  plain=$(for i in $(seq "$RUNS"); do timed "$W/$p.plain" $args; done | median)
  rec=$(for i in $(seq "$RUNS"); do rm -rf "$W/log"; CAUSA_PATHS="$W/log" timed "$W/$p.rec" $args; done | median)
  rm -rf "$W/log"; CAUSA_PATHS="$W/log" "$W/$p.rec" $args >/dev/null
  bytes=$(du -sb "$W/log" | cut -f1)
  python3 -c "p,r,b=$plain,$rec,$bytes; print('%-10s %10.3f %12.3f %8.0f%% %14.0f' % ('$p', p, r, (r/p-1)*100, b/r))"
done
