#!/usr/bin/env bash
# Install what causa needs on Debian: clang-14 (compiles C to LLVM IR), llvm-14-dev
# (libLLVM for loading IR, opt-14 and llvm-link-14), libz3-dev (the solver), gcc (the
# linker Rust uses). As root, missing packages are installed with apt-get; otherwise
# the script says what to install and fails.
set -euo pipefail

need=()
command -v clang-14 >/dev/null 2>&1 || need+=(clang-14)
[ -x /usr/lib/llvm-14/bin/llvm-config ] || need+=(llvm-14-dev)
{ command -v opt-14 >/dev/null 2>&1 && command -v llvm-link-14 >/dev/null 2>&1; } || need+=(llvm-14)
[ -e /usr/include/z3.h ] || need+=(libz3-dev)
command -v cc >/dev/null 2>&1 || need+=(gcc)

if [ ${#need[@]} -gt 0 ]; then
    if [ "$(id -u)" = 0 ]; then
        echo "causa setup: installing ${need[*]}" >&2
        apt-get update -qq
        DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${need[@]}" >/dev/null
    else
        echo "causa setup: missing ${need[*]}; install them with: sudo apt-get install ${need[*]}" >&2
        exit 1
    fi
fi

if ! command -v cargo >/dev/null 2>&1; then
    echo "causa setup: cargo not found; install a Rust toolchain (rustup, Rust >= 1.85)." >&2
    exit 1
fi
