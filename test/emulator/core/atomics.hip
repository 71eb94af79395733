// emulator core test kernel: histogram with LDS atomics, merged with global atomics.
#include <hip/hip_runtime.h>

extern "C" __global__ void hist(const unsigned char *in, unsigned n, unsigned *bins) {
  __shared__ unsigned h[16];
  if (threadIdx.x < 16) h[threadIdx.x] = 0;
  __syncthreads();
  for (unsigned i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x)
    atomicAdd(&h[in[i] & 15], 1u);
  __syncthreads();
  if (threadIdx.x < 16) atomicAdd(&bins[threadIdx.x], h[threadIdx.x]);
}
