// emulator core bench kernel: the 1M-element sanitized LDS reduction of issue 3
// (4096 workgroups x 256 work-items, one barrier per tree level).
#include <hip/hip_runtime.h>

extern "C" __global__ void bench_reduce(const int *in, int *out) {
  __shared__ int sum[256];
  int t = threadIdx.x;
  sum[t] = in[blockIdx.x * 256 + t];
  __syncthreads();
  for (int s = 128; s > 0; s >>= 1) {
    if (t < s) sum[t] += sum[t + s];
    __syncthreads();
  }
  if (t == 0) out[blockIdx.x] = sum[0];
}
