// emulator core test kernel: a planted tile[64] overflow, only in workgroup (1,2,0)
// of a 2-D grid: work-item 63 writes tile[64].
#include <hip/hip_runtime.h>

extern "C" __global__ void planted(int *out) {
  __shared__ int tile[64];
  int t = threadIdx.x;
  int i = (blockIdx.x == 1 && blockIdx.y == 2) ? t + 1 : t;
  tile[i] = t;
  __syncthreads();
  out[(blockIdx.y * gridDim.x + blockIdx.x) * 64 + t] = tile[63 - t];
}
