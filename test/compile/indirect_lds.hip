#include "mini_hip.inc"
// LDS reached only from non-inlined device functions, from two kernels.
__shared__ int shared_table[128];
__device__ __noinline__ void fill(unsigned i) { shared_table[i] = (int)i * 2; }
__device__ __noinline__ int lookup(unsigned i) { return shared_table[i]; }
__global__ void indirect_a(int *out) {
  fill(threadIdx.x);
  __syncthreads();
  out[threadIdx.x] = lookup(127 - threadIdx.x);
}
__global__ void indirect_b(int *out) {
  __shared__ int local_only[16];
  local_only[threadIdx.x % 16] = 1;
  fill(threadIdx.x);
  __syncthreads();
  out[threadIdx.x] = lookup(threadIdx.x) + local_only[0];
}
