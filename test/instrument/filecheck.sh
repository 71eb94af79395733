#!/usr/bin/env bash
# Runs the "; RUN:" (or "// RUN:") lines of one test/instrument file,
# lit-style: every line must exit 0; a line exiting 77 skips the test. Substitutions: %s (the test file), %S (its directory),
# %t (a per-test temporary path). Commands available to RUN lines:
#   opt            $OPT with the ldsan plugin loaded
#   opt-noplugin   $OPT without it
#   FileCheck, llc, llvm-as, llvm-dis, llvm-objcopy, not (inverts the exit status)
#   desc-dump      test/instrument/desc-dump.c: prints descriptor blobs
#   hip-device     clang -x hip for gfx90a:xnack+ with ASan and the plugin,
#                  device side only
# Usage (from the repository root): test/instrument/filecheck.sh test/instrument/x.ll
set -euo pipefail
test_file="$1"
cd "$(dirname "$0")/../.."
v="${LLVM_VERSION:-22}"
export OPT="${OPT:-opt-$v}" FILECHECK="${FILECHECK:-FileCheck-$v}" LLC="${LLC:-llc-$v}"
export LLVM_AS="${LLVM_AS:-llvm-as-$v}" LLVM_DIS="${LLVM_DIS:-llvm-dis-$v}"
export LLVM_OBJCOPY="${LLVM_OBJCOPY:-llvm-objcopy-$v}" CLANG="${CLANG:-clang-$v}"
build="${BUILD:-build}"
[[ "$build" = /* ]] || build="$PWD/$build"
export PLUGIN="$build/lib/ldsan-instrument.so"
[[ -f "$PLUGIN" ]] || { echo "missing $PLUGIN: run 'make instrument'" >&2; exit 1; }
tmp="$build/test-tmp/instrument"
mkdir -p "$tmp"
export DESC_DUMP="$tmp/desc-dump"
if [[ ! -x "$DESC_DUMP" || test/instrument/desc-dump.c -nt "$DESC_DUMP" ]]; then
  "$CLANG" -std=c11 -Wall -Wextra -Werror -Iinclude -o "$DESC_DUMP" test/instrument/desc-dump.c
fi

opt() { "$OPT" -load-pass-plugin="$PLUGIN" "$@"; }
opt-noplugin() { "$OPT" "$@"; }
FileCheck() { "$FILECHECK" "$@"; }
llc() { "$LLC" "$@"; }
llvm-as() { "$LLVM_AS" "$@"; }
llvm-dis() { "$LLVM_DIS" "$@"; }
llvm-objcopy() { "$LLVM_OBJCOPY" "$@"; }
desc-dump() { "$DESC_DUMP" "$@"; }
not() { if "$@"; then return 1; else return 0; fi; }
hip-device() {
  "$CLANG" -x hip --offload-arch=gfx90a:xnack+ -mcode-object-version=5 \
    -D__AMDGCN_WAVEFRONT_SIZE=64 --rocm-path=/usr -nogpulib -fsanitize=address \
    --offload-device-only -fpass-plugin="$PLUGIN" "$@"
}
export -f opt opt-noplugin FileCheck llc llvm-as llvm-dis llvm-objcopy desc-dump not hip-device

base="$(basename "$test_file")"; base="${base%.*}"
t="$tmp/$base.tmp"
dir="$(dirname "$test_file")"
n=0
while IFS= read -r cmd; do
  cmd="${cmd//%s/$test_file}"; cmd="${cmd//%S/$dir}"; cmd="${cmd//%t/$t}"
  n=$((n + 1))
  echo "RUN $n: $cmd"
  rc=0; bash -o pipefail -c "$cmd" || rc=$?
  if [[ $rc -eq 77 ]]; then echo "skipped by RUN line $n"; exit 77; fi
  if [[ $rc -ne 0 ]]; then
    echo "FAILED: RUN line $n of $test_file" >&2
    exit 1
  fi
done < <(sed -n 's#^\(;\|//\) RUN: \{0,1\}##p' "$test_file" | sed -e ':a' -e '/\\$/N; s/\\\n//; ta')
[[ $n -gt 0 ]] || { echo "no RUN lines in $test_file" >&2; exit 1; }
echo "PASS $test_file ($n RUN lines)"
