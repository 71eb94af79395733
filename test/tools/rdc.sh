#!/usr/bin/env bash
# -fgpu-rdc (relocatable device code) on the GPU path: two translation units
# (test/tools/rdc/), each compiled with `ldsan-cc -fgpu-rdc -c`, then linked
# with `ldsan-cc -fgpu-rdc a.o b.o`. The device link (lld's LTO, with ldsan's
# plugin loaded) instruments the linked module and links ldsan's runtime: its
# state globals exist once, nothing is left undefined, and the kernels of both
# TUs have descriptors.
# `rdc.sh emulate`: the same commands with --emulate (the link links both TUs'
# device bitcode into one image) and the program runs and checks its results;
# also in one command, and with b.o in a static library; a run-time warning
# names the device code by the executable; linking a.o alone
# fails naming the __device__ function b.o defines.
# Usage: rdc.sh <arch>|emulate   (an arch Debian's HIP headers and ldsan's device
# libraries build for: gfx908, gfx90a, gfx942)
set -euo pipefail
arch="${1:-gfx90a:xnack+}"
source "$(dirname "$0")/driver_lib.sh"
src="$root/test/tools/rdc"
fail_label="$arch"
if [[ "$arch" == emulate ]]; then
  cd "$tmp"
  "$cc" --emulate -fgpu-rdc -O2 -c "$src/kernels_a.hip" -o a.o
  "$cc" --emulate -fgpu-rdc -O2 -c "$src/kernels_b.hip" -o b.o
  "$cc" --emulate -fgpu-rdc a.o b.o -o app
  ./app >out 2>&1 || { cat out; fail "--emulate: the -fgpu-rdc program failed"; }
  grep -q 'rdc: PASSED' out || { cat out; fail "--emulate: wrong results"; }
  # A run-time warning (the LDS backing store ASan will not allocate) names the
  # linked device code by the executable, not by the link's temporary file.
  LDSAN_OPTIONS=lds_pool_size=2G ASAN_OPTIONS=max_allocation_size_mb=1024:allocator_may_return_null=1 ./app >out 2>&1 \
    || { cat out; fail "--emulate: the -fgpu-rdc program failed on the built-in LDS pool"; }
  grep -q "on cpu-emulator; the -fgpu-rdc device code of app and every other code object" out \
    || { cat out; fail "--emulate: the warning does not name the -fgpu-rdc device code by the executable"; }
  "$cc" --emulate -fgpu-rdc -O2 "$src/kernels_a.hip" "$src/kernels_b.hip" -o app1
  ./app1 | grep 'rdc: PASSED' >/dev/null || fail "--emulate: the one-command -fgpu-rdc build"
  ar rcs libb.a b.o
  "$cc" --emulate -fgpu-rdc a.o -L. -lb -o app2
  ./app2 | grep 'rdc: PASSED' >/dev/null || fail "--emulate: b.o from a static library"
  if "$cc" --emulate -fgpu-rdc a.o -o app3 2>err; then fail "--emulate: linking without b.o succeeded"; fi
  grep -q "fill_reversed.* is used but not defined in the device code" err && grep -q "hint: with -fgpu-rdc, each __device__ function" err \
    || { cat err; fail "--emulate: unclear message for a missing __device__ function"; }
  echo "ok [emulate]: -fgpu-rdc objects, one command and a static library run on the emulator"; exit 0
fi
flags=(--offload-arch="$arch")

"$cc" -fgpu-rdc "${flags[@]}" -O2 -c "$src/kernels_a.hip" -o "$tmp/a.o" 2>"$tmp/err" || { cat "$tmp/err"; fail "compiling kernels_a.hip"; }
"$cc" -fgpu-rdc "${flags[@]}" -O2 -c "$src/kernels_b.hip" -o "$tmp/b.o" 2>"$tmp/err" || { cat "$tmp/err"; fail "compiling kernels_b.hip"; }
# The link is the device link too: for the default target, as hipcc users
# write it (ldsan-cc adds its default --offload-arch); else naming the target.
link_flags=()
[[ "$arch" == gfx90a:xnack+ ]] || link_flags=(--offload-arch="$arch")
"$cc" -fgpu-rdc ${link_flags[@]+"${link_flags[@]}"} "$tmp/a.o" "$tmp/b.o" -o "$tmp/app" 2>"$tmp/err" || { cat "$tmp/err"; fail "the -fgpu-rdc link"; }
[[ -x "$tmp/app" ]] || fail "no executable"

extract_code_object "$tmp/app" "$arch" "$tmp/co"
check_all_symbols_defined "$tmp/co"
check_runtime_defined_once "$tmp/co"
desc="$(dump_lds_descriptors "$tmp/co")"
for k in _Z6mirrorPKfPf _Z13reverse_blockPf; do
  grep -q "^kernel $k " <<<"$desc" || { echo "$desc"; fail "no descriptor for kernel $k"; }
done
# Both aliased extern __shared__ arrays of kernels_b.hip at one offset.
grep -A3 "^kernel _Z13reverse_blockPf " <<<"$desc" | grep -c "flags=D name=" | grep -qx 2 \
  || { echo "$desc"; fail "reverse_block's two dynamic records are missing"; }
echo "ok [$arch]: -fgpu-rdc link of two TUs: one ldsan state, nothing undefined, descriptors of both TUs"
