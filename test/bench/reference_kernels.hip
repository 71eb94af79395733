// The reference kernels of ldsan's static cost table (test/bench/static_cost.sh,
// issue #10): one __shared__ array of 1 KiB and one of 40 KiB, each staged from
// global memory and read back reversed, as the ROCm comparison was measured.
#include <hip/hip_runtime.h>

__global__ void ref_1k(float *out) {
  __shared__ float tile[256];
  tile[threadIdx.x] = out[threadIdx.x];
  __syncthreads();
  out[threadIdx.x] = tile[255 - threadIdx.x];
}

__global__ void ref_40k(float *out) {
  __shared__ float tile[10240];
  for (int i = threadIdx.x; i < 10240; i += blockDim.x) tile[i] = out[i];
  __syncthreads();
  out[threadIdx.x] = tile[10239 - threadIdx.x];
}
