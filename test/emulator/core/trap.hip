// emulator core test kernel: a plain trap in one work-item (no ldsan report).
#include <hip/hip_runtime.h>

extern "C" __global__ void boom(int *out) {
  __shared__ int s[32];
  s[threadIdx.x] = threadIdx.x;
  __syncthreads();
  if (blockIdx.x == 2 && threadIdx.x == 5) __builtin_trap();
  out[blockIdx.x * 32 + threadIdx.x] = s[31 - threadIdx.x];
}
