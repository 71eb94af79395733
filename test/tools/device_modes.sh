#!/usr/bin/env bash
# Device-only compiles for a target Debian's device libraries do not know
# (gfx942) work in every output mode: -c, -S, -emit-llvm.
set -euo pipefail
source "$(dirname "$0")/driver_lib.sh"
src="$root/test/compile/static_lds.hip"
common=(--offload-arch=gfx942:xnack+ --offload-device-only -nogpulib -nogpuinc -O2)
"$cc" "${common[@]}" -c "$src" -o "$tmp/k.o"
"$cc" "${common[@]}" -S "$src" -o "$tmp/k.s"
grep -q '\.amdhsa_kernel _Z10static_ldsPii' "$tmp/k.s" || { echo "-S: no kernel in assembly"; exit 1; }
"$cc" "${common[@]}" -emit-llvm -c "$src" -o "$tmp/k.bc"
llvm-dis-$v "$tmp/k.bc" -o "$tmp/k.ll"
grep -q '@__ldsan_kdesc._Z10static_ldsPii' "$tmp/k.ll" || { echo "-emit-llvm: no ldsan descriptor in the IR"; exit 1; }
grep -q 'define .*@__ldsan_report(' "$tmp/k.ll" || { echo "-emit-llvm: ldsan runtime not linked"; exit 1; }
# The block calls are inlined into the kernel (instrument/InlineBlockCalls.h).
if grep -q 'call .*@__ldsan_kernel_e' "$tmp/k.ll"; then echo "-emit-llvm: kernel still calls the runtime's enter/exit"; exit 1; fi
if grep -q 'call .*@__asan_malloc_impl' "$tmp/k.ll"; then echo "-emit-llvm: kernel still calls __asan_malloc_impl"; exit 1; fi
"$cc" "${common[@]}" -emit-llvm -S "$src" -o "$tmp/k2.ll"
grep -q '__ldsan_kdesc' "$tmp/k2.ll" || { echo "-emit-llvm -S: no descriptor"; exit 1; }
echo "ok: -c, -S, -emit-llvm for gfx942:xnack+"
