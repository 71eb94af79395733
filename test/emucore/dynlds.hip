// emucore test kernel: dynamic LDS; its size is visible through the implicit
// argument hidden_dynamic_lds_size (byte 120) and the array is exactly filled.
#include <hip/hip_runtime.h>

extern "C" __global__ void dyn(int *out, unsigned *size_seen) {
  extern __shared__ int d[];
  unsigned n = *(const unsigned *)((const char *)__builtin_amdgcn_implicitarg_ptr() + 120) / sizeof(int);
  for (unsigned i = threadIdx.x; i < n; i += blockDim.x) d[i] = (int)(i * 3 + blockIdx.x);
  __syncthreads();
  if (threadIdx.x == 0) {
    int s = 0;
    for (unsigned i = 0; i < n; i++) s += d[i];
    out[blockIdx.x] = s;
    size_seen[blockIdx.x] = n * sizeof(int);
  }
}
