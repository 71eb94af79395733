// -fgpu-rdc, second translation unit: the __device__ function kernels_a.hip's
// kernel calls, and a kernel with LDS of its own (dynamic, two aliased
// extern __shared__ arrays).
#include <hip/hip_runtime.h>

__device__ float fill_reversed(float *tile, int i, int n) {
  __syncthreads();
  return tile[n - 1 - i];
}

__global__ void reverse_block(float *x) {
  extern __shared__ float buf[];
  extern __shared__ unsigned bits[];
  int i = threadIdx.x, n = blockDim.x, base = blockIdx.x * n;
  buf[i] = x[base + i];
  __syncthreads();
  unsigned b = bits[n - 1 - i];
  x[base + i] = __uint_as_float(b);
}
