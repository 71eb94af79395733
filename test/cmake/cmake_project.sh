#!/usr/bin/env bash
# CMake projects built with ldsan (issue #9), the two ways HIP projects use CMake:
#   hip-lang  CMake's HIP language (test/cmake/hip-lang), configured with ldsan's
#             toolchain file, targets from CMAKE_HIP_ARCHITECTURES;
#   hip-cxx   a C++-only project whose C++ compiler is ldsan-cc, as hipcc users
#             set CMAKE_CXX_COMPILER=hipcc (test/cmake/hip-cxx);
#   hip-lang-plain  CMake's HIP language with no toolchain file, as CMake
#             documents it: -DCMAKE_HIP_COMPILER=ldsan-cc only, targets from
#             CMAKE_HIP_ARCHITECTURES, the emulator by -DCMAKE_HIP_FLAGS=--emulate
#             (test/cmake/hip-lang-plain; ldsan-cc -v names the ROCm root).
# Both build a static library with a templated LDS histogram kernel and a
# host-only main.cpp (<random>, std::cout) from test/cmake/src.
#   <how> gpu <arch>   the executable depends on libldsan-host.so and carries an
#                      <arch> code object with ldsan's LDS descriptors;
#   <how> emulate      -DLDSAN_EMULATE=ON (the toolchain file's option): it runs on
#                      the CPU emulator and checks its results;
#   <how> emulate-bug  also -DHISTOGRAM_PLANT_LDS_BUG=ON: the overflow is reported
#                      naming the kernel, the variable and the source line.
# Further arguments go to cmake: -DBUILD_SHARED_LIBS=ON (hip-lang) makes the
# library shared (its code object is then checked in libhistogram.so).
# With -DLDSAN_LDS_ONLY=ON among the cmake args (the toolchain's LDS-only mode),
# the executable must link no AddressSanitizer runtime.
# Usage: cmake_project.sh hip-lang|hip-cxx|hip-lang-plain gpu <arch>|emulate|emulate-bug [-|<arch>] [cmake args...]
set -euo pipefail
how="$1" mode="$2" arch="${3:--}"
[[ "$arch" == - ]] && arch=gfx90a:xnack+
source "$(dirname "$0")/../tools/driver_lib.sh"
fail_label="$how $mode"
toolchain="$build/lib/cmake/ldsan/ldsan-toolchain.cmake"
command -v cmake >/dev/null || fail "cmake is not installed (scripts/deps.sh installs it)"

args=(-DCMAKE_TOOLCHAIN_FILE="$toolchain")
emulate=(-DLDSAN_EMULATE=ON)
case "$how" in
  hip-lang) [[ "$mode" == gpu ]] && args+=(-DCMAKE_HIP_ARCHITECTURES="$arch") ;;
  hip-cxx)  args+=(-DCMAKE_CXX_COMPILER="$cc")
            [[ "$mode" == gpu ]] && args+=(-DHIP_TARGET="$arch") ;;
  hip-lang-plain)
            args=(-DCMAKE_HIP_COMPILER="$cc") emulate=(-DCMAKE_HIP_FLAGS=--emulate)
            [[ "$mode" == gpu ]] && args+=(-DCMAKE_HIP_ARCHITECTURES="$arch") ;;
  *) echo "unknown project kind $how"; exit 2 ;;
esac
case "$mode" in
  gpu) ;;
  emulate) args+=("${emulate[@]}") ;;
  emulate-bug) args+=("${emulate[@]}" -DHISTOGRAM_PLANT_LDS_BUG=ON) ;;
  *) echo "unknown mode $mode"; exit 2 ;;
esac
args+=("${@:4}")
cmake -S "$root/test/cmake/$how" -B "$tmp/out" "${args[@]}" </dev/null >"$tmp/configure.log" 2>&1 \
  || { cat "$tmp/configure.log"; fail "cmake configure"; }
cmake --build "$tmp/out" -j2 >"$tmp/build.log" 2>&1 || { cat "$tmp/build.log"; fail "cmake --build"; }
if grep -i 'warning' "$tmp/build.log"; then fail "the build printed warnings"; fi
app="$tmp/out/histogram_app"
[[ -x "$app" ]] || fail "no executable"
if [[ " ${*:4} " == *" -DLDSAN_LDS_ONLY=ON "* ]]; then  # the LDS-only mode: no ASan in the program
  ! nm "$app" | grep -qE ' [TDB] __asan_init$' || fail "the LDS-only build links AddressSanitizer's runtime"
  ! llvm-readelf-$v -d "$app" | grep -q libasan || fail "the LDS-only build needs libasan"
fi

case "$mode" in
  gpu)
    llvm-readelf-$v -d "$app" | has 'NEEDED.*\[libldsan-host.so\]' || fail "histogram_app does not depend on libldsan-host.so"
    lib="$tmp/out/libhistogram.so"; [[ -f "$lib" ]] || lib="$app"
    extract_code_object "$lib" "$arch" "$tmp/co"
    desc="$(dump_lds_descriptors "$tmp/co")"
    for k in _Z16histogram_kernelIfEvPKT_iPj _Z16histogram_kernelIdEvPKT_iPj; do
      has "^kernel $k " <<<"$desc" || { echo "$desc"; fail "no LDS descriptor for $k"; }
    done
    echo "ok [$how gpu $arch${4:+ $4}]: CMake build with libldsan-host.so and an $arch code object with descriptors"
    ;;
  emulate)
    "$app" >"$tmp/out.txt" 2>&1 || { cat "$tmp/out.txt"; fail "the program failed"; }
    has 'histogram: PASSED' "$tmp/out.txt" || { cat "$tmp/out.txt"; fail "wrong results"; }
    echo "ok [$how emulate${4:+ $4}]: CMake build with -DLDSAN_EMULATE=ON runs: $(tail -n 1 "$tmp/out.txt")"
    ;;
  emulate-bug)
    if "$app" >"$tmp/out.txt" 2>&1; then cat "$tmp/out.txt"; fail "the planted overflow went unreported"; fi
    for want in 'ERROR: AddressSanitizer: lds-buffer-overflow' \
                'in kernel void histogram_kernel<float>(float const\*, int, unsigned int\*)' \
                "LDS variable 'bins' of size 256" 'histogram.hip:24:'; do
      has -- "$want" "$tmp/out.txt" || { cat "$tmp/out.txt"; fail "report lacks /$want/"; }
    done
    echo "ok [$how emulate-bug]: $(grep -m1 'ERROR:' "$tmp/out.txt")"
    ;;
esac
