// Clean: work-item 0 (the one that takes and gives back the workgroup's LDS
// block) returns at once, and the others use LDS across three barriers. On a
// GPU the returned lane waits at the kernel-exit barrier until its wave
// reconverges, so the block is given back after the others are done. The
// emulator must not count that arrival as one at the body's barriers (the
// plugin marks the exit barrier: the call that would tell it is inlined):
// without that, the block went back while the others still used it, and a
// correct program got lds-use-after-workgroup-exit.
// RUN: %run %{exe} | FileCheck %s --implicit-check-not='ERROR: AddressSanitizer' --implicit-check-not='ldsan-emu: error:'
// RUN: env LDSAN_OPTIONS=emu_fibers=1 %run %{exe} | FileCheck %s --implicit-check-not='ERROR: AddressSanitizer' --implicit-check-not='ldsan-emu: error:'
// RUN: %run %{exe:lds-only+wave32} | FileCheck %s --implicit-check-not='ERROR: AddressSanitizer' --implicit-check-not='ldsan-emu: error:'
// RUN: env LDSAN_OPTIONS=emu_fibers=1 %run %{exe:lds-only+wave32} | FileCheck %s --implicit-check-not='ERROR: AddressSanitizer' --implicit-check-not='ldsan-emu: error:'
// CHECK: ldsan-test: stdout:
// CHECK: clean_early_return_item0: PASSED
// CHECK: ldsan-test: exit 0
#include "common.h"

#define WG 64
__global__ void rotate(int *out, int skip) {
  __shared__ int s[WG];
  int t = threadIdx.x;
  if (t < skip) return;
  s[t] = t * 3 + blockIdx.x;
  __syncthreads();
  int v = s[skip + (t - skip + 1) % (WG - skip)];
  __syncthreads();
  s[t] = v + 1;
  __syncthreads();
  out[blockIdx.x * WG + t] = s[t];
}

int main() {
  const int groups = 64, skip = 1, n = groups * WG;
  int *d;
  HIP_CHECK(hipMalloc(&d, n * sizeof(int)));
  HIP_CHECK(hipMemset(d, 0, n * sizeof(int)));
  rotate<<<groups, WG>>>(d, skip);
  LAUNCH_CHECK();
  int *got = (int *)malloc(n * sizeof(int)), *want = (int *)calloc(n, sizeof(int));
  HIP_CHECK(hipMemcpy(got, d, n * sizeof(int), hipMemcpyDeviceToHost));
  for (int g = 0; g < groups; g++)
    for (int t = skip; t < WG; t++) want[g * WG + t] = (skip + (t - skip + 1) % (WG - skip)) * 3 + g + 1;
  check_equal("clean_early_return_item0", got, want, n);
  passed("clean_early_return_item0");
  free(got);
  free(want);
  return 0;
}
