#!/usr/bin/env bash
# A HIP program as its users write it (issue #9), test/tools/stats/: two .hip
# translation units, moments.hip (a templated reduction kernel with __shared__
# arrays, for float and double; host template explicitly instantiated) and
# precision.hip (__half conversions and arithmetic from hip/hip_fp16.h staged in
# a __shared__ tile; sqrt and exp of doubles), a shared header, and a host-only
# main.cpp (<random>, std::cout) checking the results with a tolerance per precision.
#   gpu <arch>  each file compiled with -c, then linked: every .hip's object and the
#               executable carry an <arch> code object with ldsan's descriptors
#               for the kernels with LDS
#   emulate     the same commands with --emulate, and the program in one command:
#               it runs and prints `stats: PASSED`
# Usage: stats.sh gpu <arch> | emulate
set -euo pipefail
source "$(dirname "$0")/driver_lib.sh"
src="$root/test/tools/stats"
cd "$tmp"
mode="${1:-}"; arch="${2:-}"
fail_label="stats $mode${arch:+ $arch}"

# build <ldsan-cc flags...>: makes ./app, a Makefile's way: -c per file, then the link.
build() {
  local f
  for f in moments.hip precision.hip main.cpp; do
    "$cc" "$@" -O2 -c "$src/$f" -o "${f%.*}.o" 2>err || { cat err; fail "compiling $f"; }
  done
  "$cc" "$@" moments.o precision.o main.o -o app 2>err || { cat err; fail "the link"; }
  [[ -x app ]] || fail "no executable"
}

# descriptors <file>: prints the ldsan descriptors of the <arch> code object of
# every offload bundle in the file's .hip_fatbin (a link concatenates the
# .hip_fatbin sections of the objects, one bundle per TU, each 4096-aligned).
descriptors() {
  local off n=0
  fatbin_section "$1" fatbin
  for off in $(grep -obUa '__CLANG_OFFLOAD_BUNDLE__' fatbin | cut -d: -f1); do
    (( off % 4096 == 0 )) || continue
    n=$((n + 1))
    dd if=fatbin of=bundle bs=4096 skip=$((off / 4096)) status=none
    unbundle_code_object bundle "$arch" co "$1: bundle $n"
    dump_lds_descriptors co "$1: bundle $n"
  done
  (( n > 0 )) || fail "$1: no offload bundle in its .hip_fatbin"
}

case "$mode" in
  gpu)
    [[ -n "$arch" ]] || { echo "usage: stats.sh gpu <arch>"; exit 2; }
    build --offload-arch="$arch"
    llvm-readelf-$v -d app | has 'NEEDED.*\[libldsan-host.so\]' || fail "app does not depend on libldsan-host.so"
    llvm-readelf-$v -d app | has 'NEEDED.*\[libamdhip64.so' || fail "app does not depend on libamdhip64"
    kernels=(_Z13block_momentsIfEvPKT_iS0_PS0_ _Z13block_momentsIdEvPKT_iS0_PS0_ _Z15pair_means_halfPKfPfi)
    for o in moments.o precision.o app; do descriptors "$o" >"desc-$o"; done
    for k in "${kernels[@]:0:2}"; do has "^kernel $k " desc-moments.o || { cat desc-moments.o; fail "moments.o: no descriptor for $k"; }; done
    has "^kernel ${kernels[2]} " desc-precision.o || { cat desc-precision.o; fail "precision.o: no descriptor for ${kernels[2]}"; }
    for k in "${kernels[@]}"; do has "^kernel $k " desc-app || { cat desc-app; fail "app: no descriptor for $k"; }; done
    has 'name=_ZZ15pair_means_halfPKfPfiE4tile ' desc-app || { cat desc-app; fail "app: no descriptor for the __half tile"; }
    echo "ok [stats gpu $arch]: moments.o, precision.o and the executable carry $arch code objects with the descriptors of ${#kernels[@]} kernels"
    ;;
  emulate)
    build --emulate
    ./app >out 2>&1 || { cat out; fail "the program failed"; }
    has 'stats: PASSED' out || { cat out; fail "wrong results"; }
    "$cc" --emulate -O2 "$src/moments.hip" "$src/precision.hip" "$src/main.cpp" -o app1 2>err || { cat err; fail "the one-command build"; }
    ./app1 >out1 2>&1 || { cat out1; fail "the one-command program failed"; }
    has 'stats: PASSED' out1 || { cat out1; fail "the one-command program: wrong results"; }
    echo "ok [stats emulate]: $(grep '^checked' out); $(tail -n 1 out)"
    ;;
  *) echo "usage: stats.sh gpu <arch> | emulate"; exit 2 ;;
esac
