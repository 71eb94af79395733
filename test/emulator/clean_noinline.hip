// Clean: LDS reached only through non-inlined device functions (the lowering's
// indirect path), both a variable used inside the function and one passed by pointer.
// RUN: %run %{exe} | FileCheck %s --implicit-check-not='ERROR: AddressSanitizer' --implicit-check-not='ldsan-emu: error:'
// RUN: env LDSAN_OPTIONS=emu_fibers=1 %run %{exe} | FileCheck %s --implicit-check-not='ERROR: AddressSanitizer' --implicit-check-not='ldsan-emu: error:'
// RUN: %run %{exe:lds-only+wave32} | FileCheck %s --implicit-check-not='ERROR: AddressSanitizer' --implicit-check-not='ldsan-emu: error:'
// RUN: env LDSAN_OPTIONS=emu_fibers=1 %run %{exe:lds-only+wave32} | FileCheck %s --implicit-check-not='ERROR: AddressSanitizer' --implicit-check-not='ldsan-emu: error:'
// CHECK: ldsan-test: stdout:
// CHECK: clean_noinline: PASSED
// CHECK: ldsan-test: exit 0
#include "common.h"

__shared__ int shared_sum[64];

__device__ __noinline__ void store_square(int t) { shared_sum[t] = t * t; }
__device__ __noinline__ int sum_pair(const int *lds, int t) { return lds[t] + lds[63 - t]; }

__global__ void pairs(int *out) {
  __shared__ int copy[64];
  int t = threadIdx.x;
  store_square(t);
  __syncthreads();
  copy[t] = shared_sum[t] + 1;
  __syncthreads();
  out[blockIdx.x * 64 + t] = sum_pair(copy, t);
}

int main() {
  int got[2 * 64], want[2 * 64];
  for (int b = 0; b < 2; b++)
    for (int t = 0; t < 64; t++) want[b * 64 + t] = t * t + (63 - t) * (63 - t) + 2;
  int *d;
  HIP_CHECK(hipMalloc(&d, sizeof got));
  pairs<<<2, 64>>>(d);
  LAUNCH_CHECK();
  HIP_CHECK(hipMemcpy(got, d, sizeof got, hipMemcpyDeviceToHost));
  check_equal("pairs", got, want, 2 * 64);
  passed("clean_noinline");
  return 0;
}
