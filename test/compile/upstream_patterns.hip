#include "mini_hip.inc"
// Patterns upstream LLVM got wrong in sw-lower-lds at some point; each must
// still compile, lower and link with ldsan.
//   llvm-project #202552: memcpy/memset on LDS (fixed upstream)
//   llvm-project #121214: LDS pointer cast to flat (fixed upstream)
//   llvm-project #209842: LDS pointer passed as a flat argument and cast back
//                         (open upstream: silently wrong results; compiles)
__device__ __noinline__ int sum_flat(const int *p, int n) {
  int s = 0;
  for (int i = 0; i < n; i++) s += p[i];
  return s;
}
__global__ void lds_memops(int *out, const int *in) {
  __shared__ int a[32];
  __shared__ int b[32];
  if (threadIdx.x == 0) {
    __builtin_memset(a, 0, sizeof a);
    __builtin_memcpy(b, in, sizeof b);
  }
  __syncthreads();
  int *flat = &a[threadIdx.x % 32];     // LDS -> flat
  *flat += b[threadIdx.x % 32];
  __syncthreads();
  out[threadIdx.x] = sum_flat(a, 32);   // LDS passed as a flat argument
}
