#!/usr/bin/env bash
# Tests the emulated HIP runtime alone: compiles hip_layer.hip's host part with
# clang's HIP host-only mode, links it with libldsan-emu-hip.a and a fake
# emulator core (fake_core.c), runs it, then checks an unsupported API aborts
# naming itself. Needs only clang-22, the HIP headers and libldsan-emu-hip.a.
set -eu
cd "$(dirname "$0")/../.."
BUILD="${BUILD:-build}"
CLANG="${CLANG:-clang-22}"
NM="${NM:-llvm-nm-22}"
lib="$BUILD/lib/libldsan-emu-hip.a"
[[ -f "$lib" ]] || { echo "missing $lib: run make"; exit 1; }
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
"$CLANG" -x hip --offload-host-only --offload-arch=gfx90a:xnack+ -D__AMDGCN_WAVEFRONT_SIZE=64 \
  --rocm-path=/usr -nogpulib -fsanitize=address -O1 -g -c test/emulator/hip_layer.hip -o "$tmp/host.o"
"$CLANG" -O1 -g -Wall -Wextra -Iinclude -c test/emulator/fake_core.c -o "$tmp/core.o"
fatbin=$("$NM" "$tmp/host.o" | awk '$1 == "U" && $2 ~ /^__hip_fatbin_/ {print $2}')
[[ -n "$fatbin" ]] || { echo "host object does not reference __hip_fatbin_*"; exit 1; }
"$CLANG" -fsanitize=address "$tmp/host.o" "$tmp/core.o" "$lib" -lstdc++ -lpthread \
  -Wl,--defsym="$fatbin=ldsan_emu_fatbin_placeholder" -o "$tmp/hip_layer"
"$tmp/hip_layer" 2>"$tmp/err.txt" || { cat "$tmp/err.txt"; exit 1; }
cat "$tmp/err.txt"
# The error lines the layer must print for the failing calls above.
for want in "ldsan-emu: error: hipSetDevice: device 1 does not exist" \
            "ldsan-emu: error: hipLaunchKernel: kernel 'scale' launched with 2048 work-items per block" \
            "ldsan-emu: error: hipLaunchKernel: no emulated device code for kernel 'not_in_image'" \
            "ldsan-emu: error: kernel 'trap_kernel' <<<(1,1,1), (1,1,1), 0>>> failed: s_trap 2"; do
  grep -qF "$want" "$tmp/err.txt" || { echo "missing stderr line: $want"; exit 1; }
done
set +e
{ "$tmp/hip_layer" unsupported 2>"$tmp/unsup.txt"; rc=$?; } 2>/dev/null
set -e
[[ $rc -ne 0 ]] || { echo "hipModuleLoad stub returned"; exit 1; }
grep -qF "ldsan-emu: error: hipModuleLoad is not supported by the CPU emulator" "$tmp/unsup.txt" \
  || { echo "unsupported API message missing:"; cat "$tmp/unsup.txt"; exit 1; }
echo "hip_layer: ok"
