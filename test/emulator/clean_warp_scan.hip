// Clean: the classic warp-synchronous scan. Each 64-lane wave scans its
// slice of a volatile __shared__ array with no barrier between the steps
// (it relies on the wave's lanes executing each step together), then the
// scan drives a scatter (stream compaction of the positive keys). On a
// lane-by-lane emulator the scan comes out wrong and the scatter writes out
// of bounds; here the result equals a host reference.
// RUN: %run %{exe} | FileCheck %s --implicit-check-not='ERROR: AddressSanitizer' --implicit-check-not='ldsan-emu: error:'
// RUN: env LDSAN_OPTIONS=emu_fibers=1 %run %{exe} | FileCheck %s --implicit-check-not='ERROR: AddressSanitizer' --implicit-check-not='ldsan-emu: error:'
// CHECK: ldsan-test: stdout:
// CHECK: clean_warp_scan: PASSED
// CHECK: ldsan-test: exit 0
#include "common.h"

#define WG 256
#define GROUPS 8

__device__ int wave_inclusive_scan(volatile int *s, int lane, int v) {
  int t = threadIdx.x;
  s[t] = v;
  if (lane >= 1) s[t] = s[t] + s[t - 1];
  if (lane >= 2) s[t] = s[t] + s[t - 2];
  if (lane >= 4) s[t] = s[t] + s[t - 4];
  if (lane >= 8) s[t] = s[t] + s[t - 8];
  if (lane >= 16) s[t] = s[t] + s[t - 16];
  if (lane >= 32) s[t] = s[t] + s[t - 32];
  return s[t];
}

__global__ void compact(const int *keys, int *out, int *counts) {
  __shared__ int scan[WG];
  __shared__ int wave_total[WG / 64];
  int t = threadIdx.x, lane = t % 64, wave = t / 64;
  int key = keys[blockIdx.x * WG + t];
  int keep = key > 0;
  int incl = wave_inclusive_scan(scan, lane, keep);
  if (lane == 63) wave_total[wave] = incl;
  __syncthreads();
  int before = 0;
  for (int w = 0; w < wave; w++) before += wave_total[w];
  // The scatter: a wrong scan sends keys far outside out's slice.
  if (keep) out[blockIdx.x * WG + before + incl - 1] = key;
  if (t == WG - 1) counts[blockIdx.x] = before + incl;
}

int main() {
  static int keys[GROUPS * WG], out[GROUPS * WG], want[GROUPS * WG];
  int counts[GROUPS], want_counts[GROUPS];
  for (int i = 0; i < GROUPS * WG; i++) keys[i] = (i * 7919 % 23) - 9;
  for (int g = 0; g < GROUPS; g++) {
    int n = 0;
    for (int i = 0; i < WG; i++)
      if (keys[g * WG + i] > 0) want[g * WG + n++] = keys[g * WG + i];
    want_counts[g] = n;
    for (int i = n; i < WG; i++) want[g * WG + i] = -1;
  }
  int *dk, *dout, *dc;
  HIP_CHECK(hipMalloc(&dk, sizeof keys));
  HIP_CHECK(hipMalloc(&dout, sizeof out));
  HIP_CHECK(hipMalloc(&dc, sizeof counts));
  HIP_CHECK(hipMemcpy(dk, keys, sizeof keys, hipMemcpyHostToDevice));
  HIP_CHECK(hipMemset(dout, 0xff, sizeof out));
  compact<<<GROUPS, WG>>>(dk, dout, dc);
  LAUNCH_CHECK();
  HIP_CHECK(hipMemcpy(out, dout, sizeof out, hipMemcpyDeviceToHost));
  HIP_CHECK(hipMemcpy(counts, dc, sizeof counts, hipMemcpyDeviceToHost));
  check_equal("counts", counts, want_counts, GROUPS);
  check_equal("compacted keys", out, want, GROUPS * WG);
  passed("clean_warp_scan");
  return 0;
}
