#!/usr/bin/env bash
# emulator core test: the real pipeline (ldsan-instrument plugin lowering LDS and
# linking ldsan-rt.bc) -> ldsan-emu-retarget -> core; the planted overflow of
# overflow.hip must be reported for workgroup (1,2,0) work-item (63,0,0).
# Skips (77) while the plugin or device runtime are not built.
set -u
B="${BUILD:-build}"
[[ -f $B/lib/ldsan-instrument.so && -d $B/lib/amdgcn-bitcode && -f $B/lib/libldsan-emu-core.a ]] || { echo "plugin not built"; exit 77; }
out="$B/emucore/real"; mkdir -p "$out"
clang-22 -x hip --offload-arch=gfx90a:xnack+ -mcode-object-version=5 -D__AMDGCN_WAVEFRONT_SIZE=64 --rocm-path=/usr \
  --rocm-device-lib-path="$B/lib/amdgcn-bitcode" -fsanitize=address --offload-device-only -emit-llvm -c -O2 \
  -Wno-linker-warnings -fpass-plugin="$B/lib/ldsan-instrument.so" test/emulator/core/overflow.hip -o "$out/overflow.bc" || exit 1
"$B/bin/ldsan-emu-retarget" "$out/overflow.bc" -o "$out/overflow.o" || exit 1
host=""; [[ -f $B/lib/libldsan-host.a ]] && host="$B/lib/libldsan-host.a"
clang-22 -O2 -Iinclude test/emulator/core/overflow.c "$out/overflow.o" "$B/lib/libldsan-emu-core.a" $host -lpthread -lm -o "$out/overflow" || exit 1
"$out/overflow" >"$out/overflow.log" 2>&1; rc=$?
cat "$out/overflow.log"
[[ $rc -ne 0 ]] && grep -q 'REPORT wg=1,2,0 wi=63,0,0 size=4 write=1 shadow=0xe1' "$out/overflow.log"
