#!/usr/bin/env bash
# -fgpu-rdc across static libraries, as a HIP project builds them (issue #9):
# test/tools/rdc_libs/ has
#   libdevmath.a  devmath.hip: __device__ functions only (an overloaded mix, a
#                 template square instantiated there, smoothstep01), declared in devmath.h
#   libkernels.a  kernels.hip: kernels staging data in __shared__ arrays and calling
#                 libdevmath's functions, with std::vector host wrappers (kernels.h)
#   main.cpp      host-only: <random> input, the wrappers, a check on the host
# each TU compiled with `ldsan-cc -fgpu-rdc -c`, the libraries made with `ar rcs`,
# and the program linked with `ldsan-cc -fgpu-rdc main.o -L. -lkernels -ldevmath`:
# the device link takes the device code out of both archives.
#   gpu <arch>   the executable's .hip_fatbin holds an <arch> code object with
#                nothing undefined and the descriptors of the kernels of libkernels
#   emulate      built with --emulate, the program runs and checks its results
#   emulate-bug  with -DPLANT_LDS_BUG stencil_smooth's tile is one element short:
#                the report names the kernel, the variable and the line
# Usage: rdc_libs.sh gpu <arch> | emulate | emulate-bug
set -euo pipefail
source "$(dirname "$0")/driver_lib.sh"
src="$root/test/tools/rdc_libs"
cd "$tmp"
mode="${1:-}"; arch="${2:-}"
fail_label="rdc_libs $mode${arch:+ $arch}"

# build <ldsan-cc flags...>: makes ./app from the two libraries and main.o.
build() {
  local f
  for f in devmath kernels main; do
    local ext=hip; [[ "$f" == main ]] && ext=cpp
    "$cc" -fgpu-rdc "$@" -O2 -c "$src/$f.$ext" -o "$f.o" 2>err || { cat err; fail "compiling $f.$ext"; }
  done
  ar rcs libdevmath.a devmath.o
  ar rcs libkernels.a kernels.o
  "$cc" -fgpu-rdc "$@" main.o -L. -lkernels -ldevmath -o app 2>err || { cat err; fail "the -fgpu-rdc link"; }
  [[ -x app ]] || fail "no executable"
}

case "$mode" in
  gpu)
    [[ -n "$arch" ]] || { echo "usage: rdc_libs.sh gpu <arch>"; exit 2; }
    build --offload-arch="$arch"
    llvm-readelf-$v -d app | has 'NEEDED.*\[libldsan-host.so\]' || fail "app does not depend on libldsan-host.so"
    extract_code_object app "$arch" co
    check_all_symbols_defined co
    # Both libraries' device code carries ldsan's runtime: the device link keeps one state.
    check_runtime_defined_once co
    desc="$(dump_lds_descriptors co)"
    for k in _Z14stencil_smoothPKfPfi _Z15blended_squaresIfEvPKT_S2_S0_PS0_i _Z15blended_squaresIdEvPKT_S2_S0_PS0_i; do
      has "^kernel $k " <<<"$desc" || { echo "$desc"; fail "no descriptor for kernel $k"; }
    done
    for var in _ZZ14stencil_smoothPKfPfiE9halo_tile _ZZ15blended_squaresIdEvPKT_S2_S0_PS0_iE4sums; do
      has "name=$var " <<<"$desc" || { echo "$desc"; fail "no descriptor for the LDS variable $var"; }
    done
    echo "ok [rdc_libs gpu $arch]: -fgpu-rdc link of main.o with -lkernels -ldevmath: nothing undefined, descriptors of the 3 kernels"
    ;;
  emulate)
    build --emulate
    ./app >out 2>&1 || { cat out; fail "the program failed"; }
    has 'rdc_libs: PASSED' out || { cat out; fail "wrong results"; }
    echo "ok [rdc_libs emulate]: $(tail -n 1 out)"
    ;;
  emulate-bug)
    build --emulate -DPLANT_LDS_BUG
    if ./app >out 2>&1; then cat out; fail "the planted overflow went unreported"; fi
    line="$(grep -n 'the right neighbour' "$src/kernels.hip" | cut -d: -f1)"
    for want in 'ERROR: AddressSanitizer: lds-buffer-overflow' \
                'in kernel stencil_smooth(float const\*, float\*, int)' \
                "LDS variable 'halo_tile' of size 1028" \
                "kernels.hip:$line:"; do
      has -- "$want" out || { cat out; fail "the report lacks /$want/"; }
    done
    echo "ok [rdc_libs emulate-bug]: $(grep -m1 'ERROR:' out)"
    ;;
  *) echo "usage: rdc_libs.sh gpu <arch> | emulate | emulate-bug"; exit 2 ;;
esac
