// emulator core test kernel: dynamic LDS; its size is visible as a GPU shows it, the
// dispatch packet's group_segment_size minus the kernel descriptor's
// group_segment_fixed_size, and the array is exactly filled.
#include <hip/hip_runtime.h>

extern "C" __global__ void dyn(int *out, unsigned *size_seen) {
  extern __shared__ int d[];
  const char *packet = (const char *)__builtin_amdgcn_dispatch_ptr();
  const char *kd = *(const char *const *)(packet + 32);
  unsigned n = (*(const unsigned *)(packet + 28) - *(const unsigned *)kd) / sizeof(int);
  for (unsigned i = threadIdx.x; i < n; i += blockDim.x) d[i] = (int)(i * 3 + blockIdx.x);
  __syncthreads();
  if (threadIdx.x == 0) {
    int s = 0;
    for (unsigned i = 0; i < n; i++) s += d[i];
    out[blockIdx.x] = s;
    size_seen[blockIdx.x] = n * sizeof(int);
  }
}
