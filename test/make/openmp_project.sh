#!/usr/bin/env bash
# A HIP benchmark's Makefile that passes -fopenmp for its host reference code
# (test/make/openmp: CC=hipcc, -fopenmp in CFLAGS and LDFLAGS, a stencil kernel
# with its halo tile in LDS checked against a `#pragma omp parallel for` CPU
# reference), built with `make CC=ldsan-cc`:
#   gpu <arch>   links (libomp.so.5, libldsan-host.so) and carries an <arch> code object;
#   emulate      CC="ldsan-cc --emulate": runs, the reference on 2 OpenMP threads, PASSED;
#   emulate-bug  also EXTRA_CFLAGS=-DPLANT_LDS_BUG: the kernel's LDS overflow is reported;
#   missing      an ldsan-cc built as if LLVM's OpenMP runtime were not installed
#                says what is missing, where, and to install libomp-<N>-dev.
# gpu and emulate* skip (77) when libomp-<N>-dev is not installed (scripts/deps.sh installs it).
# Usage: openmp_project.sh gpu <arch> | emulate | emulate-bug | missing
set -euo pipefail
mode="$1" arch="${2:-gfx90a:xnack+}"
source "$(dirname "$0")/../tools/driver_lib.sh"
fail_label="make openmp $mode"
src="$root/test/make/openmp"
header="$(clang-$v -print-resource-dir)/include/omp.h" library="$(llvm-config-$v --libdir)/libomp.so"

if [[ "$mode" == missing ]]; then
  # ldsan-cc with the OpenMP paths of an installation that lacks them, run from
  # this build (LDSAN_ROOT): first no header, then a header but no library.
  build_cc() {
    clang-$v -std=c11 -O1 -DLDSAN_DEFAULT_CLANG="\"clang++-$v\"" -DLDSAN_OPENMP_HEADER="\"$1\"" \
      -DLDSAN_OPENMP_LIBRARY="\"$2\"" -DLDSAN_OPENMP_PACKAGE="\"libomp-$v-dev\"" -o "$tmp/ldsan-cc" \
      "$root"/tools/{ldsan-cc,input_kind,sanitize_mode,openmp_check}.c || fail "building the test's ldsan-cc"
  }
  expect_error() {  # <what> <path> [make args]: make fails, saying so
    mkdir -p "$tmp/out"
    if LDSAN_ROOT="$build" make -s -f "$src/Makefile" OUT="$tmp/out" CC="$tmp/ldsan-cc" "${@:3}" \
         >"$tmp/build.log" 2>&1 </dev/null; then cat "$tmp/build.log"; fail "the build succeeded without $1"; fi
    for want in "ldsan-cc: error: -fopenmp needs LLVM's OpenMP runtime" "$1 '$2' is missing" \
                "apt-get install libomp-$v-dev"; do
      has -F -- "$want" "$tmp/build.log" || { cat "$tmp/build.log"; fail "the error lacks /$want/"; }
    done
  }
  build_cc "$tmp/none/omp.h" "$tmp/none/libomp.so"
  expect_error "its header" "$tmp/none/omp.h"
  build_cc "$root/test/make/openmp/stencil.h" "$tmp/none/libomp.so"  # any file stands for the header
  expect_error "its library" "$tmp/none/libomp.so"
  echo "ok [make openmp missing]: $(grep -m1 'error:' "$tmp/build.log")"
  exit 0
fi

if [[ ! -f "$header" || ! -e "$library" ]]; then
  echo "skip: LLVM's OpenMP runtime for clang-$v is not installed ($header, $library): apt-get install libomp-$v-dev (scripts/deps.sh does)"
  exit 77
fi
cc_words=("$cc") extra=()
case "$mode" in
  gpu) ;;
  emulate) cc_words+=(--emulate) ;;
  emulate-bug) cc_words+=(--emulate) extra=(EXTRA_CFLAGS=-DPLANT_LDS_BUG) ;;
  *) echo "unknown mode $mode"; exit 2 ;;
esac
make -s -f "$src/Makefile" OUT="$tmp" CC="${cc_words[*]}" ARCH="$arch" "${extra[@]}" >"$tmp/build.log" 2>&1 </dev/null \
  || { cat "$tmp/build.log"; fail "make"; }
[[ ! -s "$tmp/build.log" ]] || { cat "$tmp/build.log"; fail "the build printed diagnostics"; }
app="$tmp/stencil"
case "$mode" in
  gpu)
    for lib in libomp.so.5 libldsan-host.so; do
      llvm-readelf-$v -d "$app" | has "NEEDED.*\[$lib\]" || fail "the executable does not depend on $lib"
    done
    extract_code_object "$app" "$arch" "$tmp/co"
    echo "ok [make openmp gpu $arch]: -fopenmp builds and links libomp with ldsan-cc, no diagnostics" ;;
  emulate)
    OMP_NUM_THREADS=2 "$app" >"$tmp/out" 2>&1 || { cat "$tmp/out"; fail "the program failed"; }
    has 'stencil: PASSED' "$tmp/out" || { cat "$tmp/out"; fail "wrong results"; }
    has 'reference on 2 OpenMP threads' "$tmp/out" || { cat "$tmp/out"; fail "the reference did not run on 2 threads"; }
    echo "ok [make openmp emulate]: $(head -n 1 "$tmp/out")" ;;
  emulate-bug)
    if OMP_NUM_THREADS=2 "$app" >"$tmp/out" 2>&1; then cat "$tmp/out"; fail "the planted overflow went unreported"; fi
    line="$(grep -n 'tile\[l + kBlock + 1\]' "$src/stencil.hip" | cut -d: -f1)"
    for want in 'ERROR: AddressSanitizer: lds-buffer-overflow' 'WRITE of size 4' \
                'in kernel void stencil_kernel<3>(float const\*, float\*, int)' "stencil.hip:$line:"; do
      has -- "$want" "$tmp/out" || { cat "$tmp/out"; fail "report lacks /$want/"; }
    done
    echo "ok [make openmp emulate-bug]: $(grep -m1 'ERROR:' "$tmp/out")" ;;
esac
