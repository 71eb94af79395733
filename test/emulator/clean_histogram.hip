// Clean: 64-bin histogram with LDS atomics per workgroup, merged with global atomics.
// EXPECT: no-report
// EXPECT-STDOUT: clean_histogram: PASSED
#include "common.h"

#define BINS 64
__global__ void histogram(const unsigned char *in, int n, unsigned *bins) {
  __shared__ unsigned local[BINS];
  for (int b = threadIdx.x; b < BINS; b += blockDim.x) local[b] = 0;
  __syncthreads();
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x)
    atomicAdd(&local[in[i] % BINS], 1u);
  __syncthreads();
  for (int b = threadIdx.x; b < BINS; b += blockDim.x) atomicAdd(&bins[b], local[b]);
}

int main() {
  const int n = 100000;
  static unsigned char in[n];
  unsigned got[BINS], want[BINS] = {0};
  for (int i = 0; i < n; i++) in[i] = (unsigned char)((i * 2654435761u) >> 24);
  for (int i = 0; i < n; i++) want[in[i] % BINS]++;
  unsigned char *din;
  unsigned *dbins;
  HIP_CHECK(hipMalloc(&din, n));
  HIP_CHECK(hipMalloc(&dbins, sizeof got));
  HIP_CHECK(hipMemcpy(din, in, n, hipMemcpyHostToDevice));
  HIP_CHECK(hipMemset(dbins, 0, sizeof got));
  histogram<<<16, 128>>>(din, n, dbins);
  LAUNCH_CHECK();
  HIP_CHECK(hipMemcpy(got, dbins, sizeof got, hipMemcpyDeviceToHost));
  check_equal("bins", got, want, BINS);
  passed("clean_histogram");
  return 0;
}
