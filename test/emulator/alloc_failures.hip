// The program test/emulator/alloc_failures.sh runs once for every allocation
// the emulator makes in its start-up, with that allocation failing
// (LDSAN_EMU_FAIL_ALLOC): HIP registration of two kernels and a __device__
// variable, the device image's, and one launch of several workgroups (the
// worker pool and each worker's memory). No RUN line: the script runs it.
#include "common.h"

#define GROUPS 8

__device__ int offset;

// `plus`, read from device memory before the barrier and used after it, is a
// value each work-item keeps across the barrier: its work-item loops need
// frames (in every mode), so the sweep fails that allocation too.
__global__ void reverse_plus(int *out) {
  __shared__ int tile[64];
  unsigned t = threadIdx.x;
  int plus = offset;
  tile[t] = (int)(blockIdx.x * 64 + t);
  __syncthreads();
  out[blockIdx.x * 64 + t] = tile[63 - t] + plus;
}

__global__ void never_launched(int *out) { out[threadIdx.x] = 0; }

int main() {
  static int got[GROUPS * 64], want[GROUPS * 64];
  int *d, k = 1000;
  HIP_CHECK(hipMalloc(&d, sizeof got));
  HIP_CHECK(hipMemcpyToSymbol(HIP_SYMBOL(offset), &k, sizeof k));
  reverse_plus<<<GROUPS, 64>>>(d);
  LAUNCH_CHECK();
  HIP_CHECK(hipMemcpy(got, d, sizeof got, hipMemcpyDeviceToHost));
  for (int g = 0; g < GROUPS; g++)
    for (int t = 0; t < 64; t++) want[g * 64 + t] = g * 64 + 63 - t + k;
  check_equal("reverse_plus", got, want, GROUPS * 64);
  HIP_CHECK(hipFree(d));
  passed("alloc_failures");
  return 0;
}
