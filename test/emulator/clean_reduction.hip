// Clean: tree reduction of 64K floats in LDS (256 work-items per workgroup).
// RUN: %run %{exe} | FileCheck %s --implicit-check-not='ERROR: AddressSanitizer' --implicit-check-not='ldsan-emu: error:'
// RUN: env LDSAN_OPTIONS=emu_fibers=1 %run %{exe} | FileCheck %s --implicit-check-not='ERROR: AddressSanitizer' --implicit-check-not='ldsan-emu: error:'
// RUN: %run %{exe:lds-only} | FileCheck %s --implicit-check-not='ERROR: AddressSanitizer' --implicit-check-not='ldsan-emu: error:'
// RUN: env LDSAN_OPTIONS=emu_fibers=1 %run %{exe:lds-only} | FileCheck %s --implicit-check-not='ERROR: AddressSanitizer' --implicit-check-not='ldsan-emu: error:'
// RUN: %run %{exe:lds-only+wave32} | FileCheck %s --implicit-check-not='ERROR: AddressSanitizer' --implicit-check-not='ldsan-emu: error:'
// RUN: env LDSAN_OPTIONS=emu_fibers=1 %run %{exe:lds-only+wave32} | FileCheck %s --implicit-check-not='ERROR: AddressSanitizer' --implicit-check-not='ldsan-emu: error:'
// CHECK: ldsan-test: stdout:
// CHECK: clean_reduction: PASSED
// CHECK: ldsan-test: exit 0
// The LDS checks find no error in it: run-time (detect_races, detect_uninit) and
// compiled in (-fsanitize-lds=races,uninit), in full ASan, LDS-only and LDS-only for gfx1100.
// RUN: env LDSAN_OPTIONS=detect_races=1:detect_uninit=1 %run %{exe} | FileCheck %s --check-prefix=CHECKED --implicit-check-not='ERROR: AddressSanitizer'
// RUN: env LDSAN_OPTIONS=detect_races=1:detect_uninit=1 %run %{exe:lds-only} | FileCheck %s --check-prefix=CHECKED --implicit-check-not='ERROR: AddressSanitizer'
// RUN: env LDSAN_OPTIONS=detect_races=1:detect_uninit=1 %run %{exe:lds-only+wave32} | FileCheck %s --check-prefix=CHECKED --implicit-check-not='ERROR: AddressSanitizer'
// RUN: %run %{exe:checks} | FileCheck %s --check-prefix=CHECKED --implicit-check-not='ERROR: AddressSanitizer'
// RUN: %run %{exe:lds-only+checks} | FileCheck %s --check-prefix=CHECKED --implicit-check-not='ERROR: AddressSanitizer'
// RUN: %run %{exe:lds-only+wave32+checks} | FileCheck %s --check-prefix=CHECKED --implicit-check-not='ERROR: AddressSanitizer'
// CHECKED: ldsan-test: exit 0
#include "common.h"

__global__ void reduce(const float *in, float *partial, int n) {
  __shared__ float buf[256];
  int t = threadIdx.x, i = blockIdx.x * blockDim.x + t;
  buf[t] = i < n ? in[i] : 0.0f;
  __syncthreads();
  for (int s = blockDim.x / 2; s > 0; s >>= 1) {
    if (t < s) buf[t] += buf[t + s];
    __syncthreads();
  }
  if (t == 0) partial[blockIdx.x] = buf[0];
}

int main() {
  const int n = 65536 - 100, blocks = (n + 255) / 256;
  float *h = (float *)malloc(n * sizeof(float)), hp[256], want[256] = {0};
  for (int i = 0; i < n; i++) h[i] = (float)(i % 17) - 8.0f;
  for (int i = 0; i < n; i++) want[i / 256] += h[i];
  float *din, *dp;
  HIP_CHECK(hipMalloc(&din, n * sizeof(float)));
  HIP_CHECK(hipMalloc(&dp, blocks * sizeof(float)));
  HIP_CHECK(hipMemcpy(din, h, n * sizeof(float), hipMemcpyHostToDevice));
  reduce<<<blocks, 256>>>(din, dp, n);
  LAUNCH_CHECK();
  HIP_CHECK(hipMemcpy(hp, dp, blocks * sizeof(float), hipMemcpyDeviceToHost));
  check_equal("partial sums", hp, want, blocks);
  HIP_CHECK(hipFree(din));
  HIP_CHECK(hipFree(dp));
  free(h);
  passed("clean_reduction");
  return 0;
}
