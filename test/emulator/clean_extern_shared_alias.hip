// Clean: two extern __shared__ arrays of different types are one dynamic LDS
// buffer (as on hardware): each work-item writes two floats through `f`, and
// reads them back as one double-sized pair through `u` (64-bit words), then a
// neighbour's pair. ldsan merges the aliases before lowering, so nothing is
// out of bounds and the values are the ones written.
// RUN: %run %{exe} | FileCheck %s --implicit-check-not='ERROR: AddressSanitizer' --implicit-check-not='ldsan-emu: error:'
// RUN: env LDSAN_OPTIONS=emu_fibers=1 %run %{exe} | FileCheck %s --implicit-check-not='ERROR: AddressSanitizer' --implicit-check-not='ldsan-emu: error:'
// RUN: %run %{exe:lds-only+wave32} | FileCheck %s --implicit-check-not='ERROR: AddressSanitizer' --implicit-check-not='ldsan-emu: error:'
// RUN: env LDSAN_OPTIONS=emu_fibers=1 %run %{exe:lds-only+wave32} | FileCheck %s --implicit-check-not='ERROR: AddressSanitizer' --implicit-check-not='ldsan-emu: error:'
// CHECK: ldsan-test: stdout:
// CHECK: clean_extern_shared_alias: PASSED
// CHECK: ldsan-test: exit 0
#include "common.h"
#include <string.h>

__global__ void pair_swap(const float *in, float *out) {
  extern __shared__ float f[];
  extern __shared__ unsigned long long u[];
  int t = threadIdx.x, n = blockDim.x, base = blockIdx.x * 2 * n;
  f[2 * t] = in[base + 2 * t];
  f[2 * t + 1] = in[base + 2 * t + 1];
  __syncthreads();
  unsigned long long w = u[(t + 1) % n];  // the next work-item's two floats
  float lo, hi;
  memcpy(&lo, &w, sizeof lo);
  memcpy(&hi, (char *)&w + sizeof lo, sizeof hi);
  out[base + 2 * t] = hi;
  out[base + 2 * t + 1] = lo;
}

int main() {
  const int blocks = 3, threads = 64, n = blocks * 2 * threads;
  static float in[n], out[n], want[n];
  for (int i = 0; i < n; i++) in[i] = (float)(i * 3 + 1);
  for (int b = 0; b < blocks; b++)
    for (int t = 0; t < threads; t++) {
      int base = b * 2 * threads, s = (t + 1) % threads;
      want[base + 2 * t] = in[base + 2 * s + 1];
      want[base + 2 * t + 1] = in[base + 2 * s];
    }
  float *din, *dout;
  HIP_CHECK(hipMalloc(&din, sizeof in));
  HIP_CHECK(hipMalloc(&dout, sizeof out));
  HIP_CHECK(hipMemcpy(din, in, sizeof in, hipMemcpyHostToDevice));
  pair_swap<<<blocks, threads, 2 * threads * sizeof(float)>>>(din, dout);  // exactly 2 floats each
  LAUNCH_CHECK();
  HIP_CHECK(hipMemcpy(out, dout, sizeof out, hipMemcpyDeviceToHost));
  check_equal("swapped pairs", out, want, n);
  passed("clean_extern_shared_alias");
  return 0;
}
