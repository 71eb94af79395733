#!/usr/bin/env bash
# Runs compiler-side tests under LLVM's lit (test/instrument/lit.cfg.py) for
# test/run.sh: exit 0 when the named tests passed, 77 (skipped) when lit found
# them all unsupported (a REQUIRES: feature is missing, e.g. no HIP headers), 1 when
# one failed or lit ran none. BUILD selects the build directory, LIT the lit.
# Usage: test/instrument/lit.sh test/instrument/static.ll [more tests or directories]
set -uo pipefail
lit="${LIT:-lit-${LLVM_VERSION:-22}}"
command -v "$lit" >/dev/null || { echo "$lit not found: run 'make deps' (Debian package llvm-${LLVM_VERSION:-22}-tools)"; exit 1; }
out=$("$lit" -v --param build="${BUILD:-build}" "$@" 2>&1); rc=$?
echo "$out"
[[ $rc -eq 0 ]] || exit 1
ran=$(grep -cE '^[A-Z]+: ' <<<"$out")
unsupported=$(grep -c '^UNSUPPORTED: ' <<<"$out")
[[ $ran -gt 0 ]] || { echo "lit ran no test"; exit 1; }
if [[ $unsupported -eq $ran ]]; then echo "unsupported here (a REQUIRES: feature is missing)"; exit 77; fi
