// Clean: dynamic LDS (extern __shared__) sized exactly at launch and filled to
// its last element, next to a static LDS variable.
// RUN: %run %{exe} | FileCheck %s --implicit-check-not='ERROR: AddressSanitizer' --implicit-check-not='ldsan-emu: error:'
// RUN: env LDSAN_OPTIONS=emu_fibers=1 %run %{exe} | FileCheck %s --implicit-check-not='ERROR: AddressSanitizer' --implicit-check-not='ldsan-emu: error:'
// RUN: %run %{exe:lds-only} | FileCheck %s --implicit-check-not='ERROR: AddressSanitizer' --implicit-check-not='ldsan-emu: error:'
// RUN: env LDSAN_OPTIONS=emu_fibers=1 %run %{exe:lds-only} | FileCheck %s --implicit-check-not='ERROR: AddressSanitizer' --implicit-check-not='ldsan-emu: error:'
// RUN: %run %{exe:lds-only+wave32} | FileCheck %s --implicit-check-not='ERROR: AddressSanitizer' --implicit-check-not='ldsan-emu: error:'
// RUN: env LDSAN_OPTIONS=emu_fibers=1 %run %{exe:lds-only+wave32} | FileCheck %s --implicit-check-not='ERROR: AddressSanitizer' --implicit-check-not='ldsan-emu: error:'
// CHECK: ldsan-test: stdout:
// CHECK: clean_dynamic_exact: PASSED
// CHECK: ldsan-test: exit 0
#include "common.h"

__global__ void rotate(const float *in, float *out, int per_item) {
  extern __shared__ float dyn[];
  __shared__ int count;
  int t = threadIdx.x, n = blockDim.x * per_item;
  if (t == 0) count = n;
  for (int j = 0; j < per_item; j++) dyn[t * per_item + j] = in[blockIdx.x * n + t * per_item + j];
  __syncthreads();
  for (int j = 0; j < per_item; j++) {
    int i = t * per_item + j;
    out[blockIdx.x * n + i] = dyn[(i + 1) % count];
  }
}

int main() {
  const int blocks = 5, threads = 96, per = 3, n = threads * per;
  static float in[blocks * n], out[blocks * n], want[blocks * n];
  for (int i = 0; i < blocks * n; i++) in[i] = (float)i;
  for (int b = 0; b < blocks; b++)
    for (int i = 0; i < n; i++) want[b * n + i] = in[b * n + (i + 1) % n];
  float *din, *dout;
  HIP_CHECK(hipMalloc(&din, sizeof in));
  HIP_CHECK(hipMalloc(&dout, sizeof out));
  HIP_CHECK(hipMemcpy(din, in, sizeof in, hipMemcpyHostToDevice));
  rotate<<<blocks, threads, n * sizeof(float)>>>(din, dout, per);  // exactly n floats
  LAUNCH_CHECK();
  HIP_CHECK(hipMemcpy(out, dout, sizeof out, hipMemcpyDeviceToHost));
  check_equal("rotated", out, want, blocks * n);
  passed("clean_dynamic_exact");
  return 0;
}
