// -fgpu-rdc: a __device__ function with its own __shared__ array, defined in
// this file and called only by a kernel of another file (main.hip), as block
// helpers of HIP libraries are written. Its LDS belongs to that kernel, which
// only the device link sees. -DPLANT_LDS_BUG writes one past the array.
#include <hip/hip_runtime.h>

__device__ float block_sum(float v) {
  __shared__ float scratch[128];
  unsigned t = threadIdx.x;
#ifdef PLANT_LDS_BUG
  scratch[t + 1] = v;
#else
  scratch[t] = v;
#endif
  __syncthreads();
  for (unsigned half = blockDim.x / 2; half > 0; half /= 2) {
    if (t < half) scratch[t] += scratch[t + half];
    __syncthreads();
  }
  float total = scratch[0];
  __syncthreads();
  return total;
}
