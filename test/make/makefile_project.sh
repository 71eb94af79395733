#!/usr/bin/env bash
# The Makefile use of docs/using-ldsan-cc.md: test/make/Makefile builds the histogram program with
# HIPCC=ldsan-cc and the same HIPFLAGS for every file (host-only main.cpp too);
#   gpu <arch>  the build prints nothing but the commands, and the executable
#               depends on libldsan-host.so and carries an <arch> code object;
#   emulate     HIPCC="ldsan-cc --emulate": it runs and checks its results.
# A third argument adds HIPFLAGS: -fsanitize=lds (the LDS-only mode) also checks
# that the executable links no AddressSanitizer runtime.
# Usage: makefile_project.sh gpu <arch> [flags] | emulate [<arch> [flags]]
set -euo pipefail
mode="$1" arch="${2:-gfx90a:xnack+}" extra="${3:-}"
source "$(dirname "$0")/../tools/driver_lib.sh"
fail_label="make $mode"
hipcc="$cc"
[[ "$mode" == emulate ]] && hipcc="$hipcc --emulate"
make -s -f "$root/test/make/Makefile" OUT="$tmp" HIPCC="$hipcc" HIPFLAGS="-O2 --offload-arch=$arch $extra" \
  >"$tmp/build.log" 2>&1 </dev/null || { cat "$tmp/build.log"; fail "make"; }
[[ ! -s "$tmp/build.log" ]] || { cat "$tmp/build.log"; fail "the build printed diagnostics"; }
if [[ "$extra" == *-fsanitize=lds* ]]; then
  ! nm "$tmp/histogram_app" | grep -qE ' [TDB] __asan_init$' || fail "the LDS-only executable has host ASan"
  ! llvm-readelf-$v -d "$tmp/histogram_app" | grep -q 'libasan' || fail "the LDS-only executable needs libasan"
fi
case "$mode" in
  gpu)
    llvm-readelf-$v -d "$tmp/histogram_app" | has 'NEEDED.*\[libldsan-host.so\]' || fail "no libldsan-host.so dependency"
    extract_code_object "$tmp/histogram_app" "$arch" "$tmp/co"
    echo "ok [make gpu $arch $extra]: docs/using-ldsan-cc.md's Makefile builds with ldsan-cc, no diagnostics" ;;
  emulate)
    "$tmp/histogram_app" >"$tmp/out" 2>&1 || { cat "$tmp/out"; fail "the program failed"; }
    has 'histogram: PASSED' "$tmp/out" || { cat "$tmp/out"; fail "wrong results"; }
    echo "ok [make emulate $extra]: docs/using-ldsan-cc.md's Makefile with HIPCC='ldsan-cc --emulate' runs: histogram: PASSED" ;;
  *) echo "unknown mode $mode"; exit 2 ;;
esac
