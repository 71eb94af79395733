#include "mini_hip.inc"
// LDS atomics: a histogram.
__global__ void histogram(const unsigned char *in, unsigned *out) {
  __shared__ unsigned bins[256];
  bins[threadIdx.x] = 0;
  __syncthreads();
  atomicAdd(&bins[in[blockIdx.x * 256 + threadIdx.x]], 1u);
  __syncthreads();
  atomicAdd(&out[threadIdx.x], bins[threadIdx.x]);
}
