#!/usr/bin/env bash
# -fgpu-rdc with a __device__ function that declares its own __shared__ array
# in one file (rdc_shared/block_sum.hip) and a kernel calling it in another
# (rdc_shared/main.hip): the array is part of the kernel's LDS, which only the
# device link sees, so ldsan instruments there (lld's LTO on the GPU, opt on the
# emulator's linked device module).
#   gpu <arch>    the code object links (nothing undefined) and the kernel's LDS
#                 descriptor lists both its own array and block_sum's
#   emulate       it runs on the emulator with correct results
#   emulate-bug   -DPLANT_LDS_BUG: the overflow in block_sum is reported naming
#                 'scratch', the kernel, and block_sum.hip's line inlined in main.hip's
# A third argument adds flags to every command (-fsanitize=lds: the LDS-only mode,
# whose device link instruments without ASan; give "-" as the arch of the emulate modes).
# Usage: rdc_shared.sh gpu <arch> [flags] | emulate [- flags] | emulate-bug [- flags]
set -euo pipefail
mode="$1" arch="${2:-gfx90a:xnack+}"
read -r -a extra <<<"${3:-}"
source "$(dirname "$0")/driver_lib.sh"
src="$root/test/tools/rdc_shared"
cd "$tmp"
fail_label="rdc_shared $mode"
flags=(-fgpu-rdc -O2)
case "$mode" in
  gpu) flags+=(--offload-arch="$arch") ;;
  emulate) flags+=(--emulate) ;;
  emulate-bug) flags+=(--emulate -DPLANT_LDS_BUG) ;;
  *) echo "unknown mode $mode"; exit 2 ;;
esac
flags+=(${extra[@]+"${extra[@]}"})
"$cc" "${flags[@]}" -c "$src/block_sum.hip" -o block_sum.o 2>err || { cat err; fail "compiling block_sum.hip"; }
"$cc" "${flags[@]}" -c "$src/main.hip" -o main.o 2>>err || { cat err; fail "compiling main.hip"; }
"$cc" "${flags[@]}" main.o block_sum.o -o app 2>>err || { cat err; fail "the -fgpu-rdc link"; }
[[ ! -s err ]] || { cat err; fail "the build printed diagnostics"; }
case "$mode" in
  gpu)
    extract_code_object app "$arch" co
    check_all_symbols_defined co
    desc="$(dump_lds_descriptors co)"
    for var in _ZZ9normalizePKfPfE6staged _ZZ9block_sumfE7scratch; do
      grep -A4 '^kernel _Z9normalizePKfPf ' <<<"$desc" | has "name=$var " || { echo "$desc"; fail "normalize's LDS lacks $var"; }
    done
    echo "ok [gpu $arch]: block_sum's __shared__ array is in normalize's LDS descriptor; nothing undefined" ;;
  emulate)
    ./app >out 2>&1 || { cat out; fail "the program failed"; }
    has 'rdc_shared: PASSED' out || { cat out; fail "wrong results"; }
    echo "ok [emulate]: rdc_shared: PASSED" ;;
  emulate-bug)
    if ./app >out 2>&1; then cat out; fail "the planted overflow went unreported"; fi
    for want in 'ERROR: AddressSanitizer: lds-buffer-overflow' 'in kernel normalize(float const\*, float\*)' \
                "LDS variable 'scratch' of size 512 (block_sum(float)::scratch)" \
                'in block_sum(float) .*block_sum.hip:11:' 'in normalize(float const\*, float\*) .*main.hip:13:'; do
      has -- "$want" out || { cat out; fail "report lacks /$want/"; }
    done
    echo "ok [emulate-bug]: $(grep -m1 'ERROR:' out)" ;;
esac
