#!/usr/bin/env bash
# Interpreter benchmarks: instructions/s (bench/programs/cpu.c) and executions/s
# of `causa test` (bench/programs/two_threads.c). Results: docs/performance.md.
set -euo pipefail
cd "$(dirname "$0")/.."
echo "machine: $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | xargs), $(nproc) cores"
cargo bench -p causa-cli --bench interp 2>/dev/null | grep -E '^(cpu|two_threads)'
