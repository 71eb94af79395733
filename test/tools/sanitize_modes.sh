#!/usr/bin/env bash
# What ldsan-cc builds when the command line turns its checks off or mixes
# modes (tools/sanitize_mode.h), and that it says so in one note.
# Usage: sanitize_modes.sh <case>
#   emulate-no-asan  --emulate -fno-sanitize=address: the LDS-only mode, and the bug is still reported
#   emulate-both     --emulate -fsanitize=lds -fsanitize=address: the full mode (ASan linked), no clang warning
#   gpu-no-asan      a GPU compile with -fno-sanitize=address: the LDS-only mode (LDS lowered, no ASan)
#   gpu-both         a GPU compile with -fsanitize=lds -fsanitize=address: says what each target gets
#   plain            the usual modes: no note
set -euo pipefail
source "$(dirname "$0")/driver_lib.sh"
fail_label="$1"
cat >"$tmp/bug.hip" <<'HIP'
#include <hip/hip_runtime.h>
#include <cstdio>
__global__ void k(int *out) {
  __shared__ int s[64];
  s[threadIdx.x + 1] = 1;
  __syncthreads();
  out[threadIdx.x] = s[threadIdx.x];
}
int main() {
  int *d = nullptr;
  if (hipMalloc(&d, 256) != hipSuccess) return 2;
  hipLaunchKernelGGL(k, dim3(1), dim3(64), 0, 0, d);
  if (hipDeviceSynchronize() != hipSuccess) return 3;
  printf("no report\n");
  return 0;
}
HIP
notes() { grep -c 'ldsan-cc: note:' "$1" || true; }
# one_note <log> <regex>: the log has exactly one note, matching regex.
one_note() {
  [[ $(notes "$1") -eq 1 ]] || fail "expected one 'ldsan-cc: note:' line, got: $(cat "$1")"
  has -E "ldsan-cc: note: $2" "$1" || fail "expected a note /$2/, got: $(cat "$1")"
}
# reports <exe>: the program reports the LDS overflow.
reports() {
  local rc=0
  "$1" >"$tmp/run.out" 2>&1 || rc=$?
  [[ $rc -ne 0 ]] || fail "$1 exited 0: $(cat "$tmp/run.out")"
  has 'ERROR: AddressSanitizer: lds-buffer-overflow' "$tmp/run.out" || fail "no LDS report from $1: $(cat "$tmp/run.out")"
}
# links_asan <exe>: defines ASan's runtime (a weak reference is not a link).
links_asan() { nm "$1" 2>/dev/null | has -E ' [TDB] __asan_init$'; }
case "$1" in
  emulate-no-asan)
    "$cc" --emulate -fno-sanitize=address "$tmp/bug.hip" -o "$tmp/app" 2>"$tmp/cc.log" || fail "build failed: $(cat "$tmp/cc.log")"
    one_note "$tmp/cc.log" '-fno-sanitize=address turns AddressSanitizer off: building in the LDS-only mode'
    ! links_asan "$tmp/app" || fail "an LDS-only build links ASan"
    reports "$tmp/app" ;;
  emulate-both)
    "$cc" --emulate -fsanitize=lds -fsanitize=address "$tmp/bug.hip" -o "$tmp/app" 2>"$tmp/cc.log" || fail "build failed: $(cat "$tmp/cc.log")"
    one_note "$tmp/cc.log" '-fsanitize=lds with -fsanitize=address: the full checks'
    ! has 'warning:' "$tmp/cc.log" || fail "clang warned: $(cat "$tmp/cc.log")"
    links_asan "$tmp/app" || fail "the full mode does not link ASan"
    reports "$tmp/app" ;;
  gpu-no-asan)
    "$cc" --offload-arch=gfx90a:xnack+ --offload-device-only -O2 -fno-sanitize=address -emit-llvm -c \
      "$tmp/bug.hip" -o "$tmp/k.bc" 2>"$tmp/cc.log" || fail "build failed: $(cat "$tmp/cc.log")"
    one_note "$tmp/cc.log" '-fno-sanitize=address turns AddressSanitizer off'
    llvm-dis-$v "$tmp/k.bc" -o "$tmp/k.ll"
    has '@__ldsan_kdesc._Z1kPi' "$tmp/k.ll" || fail "LDS not lowered: no ldsan descriptor"
    has '@__ldsan_builtin_pool_shadow' "$tmp/k.ll" || fail "not the LDS-only runtime (ldsan-rt-lds.bc): no own shadow" ;;
  gpu-both)
    "$cc" --offload-arch=gfx90a:xnack+ --offload-device-only -O2 -fsanitize=lds -fsanitize=address -emit-llvm -c \
      "$tmp/bug.hip" -o "$tmp/k.bc" 2>"$tmp/cc.log" || fail "build failed: $(cat "$tmp/cc.log")"
    one_note "$tmp/cc.log" '-fsanitize=lds with -fsanitize=address: xnack\+ targets get the full checks' ;;
  plain)
    "$cc" --emulate "$tmp/bug.hip" -o "$tmp/app" 2>"$tmp/cc.log" || fail "build failed: $(cat "$tmp/cc.log")"
    "$cc" --emulate -fsanitize=lds "$tmp/bug.hip" -o "$tmp/app2" 2>>"$tmp/cc.log" || fail "build failed: $(cat "$tmp/cc.log")"
    "$cc" --offload-arch=gfx90a:xnack+ --offload-device-only -emit-llvm -c "$tmp/bug.hip" -o "$tmp/k.bc" 2>>"$tmp/cc.log" ||
      fail "build failed: $(cat "$tmp/cc.log")"
    [[ $(notes "$tmp/cc.log") -eq 0 ]] || fail "a note for a usual mode: $(cat "$tmp/cc.log")" ;;
  *) fail "unknown case" ;;
esac
echo "ok: $1"
