// Kernels for the cost of one checked LDS access (test/bench/lds_only_cost.sh):
// lds_reads_1 and lds_reads_9 differ only in eight more LDS loads (each with
// its own index, computed from the work-item id so that no global load is
// involved, and none is merged or hoisted), so the instruction difference over
// 8 is what one LDS access costs a build: its address, its inline shadow
// check, the load.
#include <hip/hip_runtime.h>

#define READ(k) acc += tile[(threadIdx.x * (2 * k + 3) + 7 * k) & 255];

__global__ void lds_reads_1(float *out) {
  __shared__ float tile[256];
  tile[threadIdx.x] = out[threadIdx.x];
  __syncthreads();
  float acc = 0;
  READ(0)
  out[threadIdx.x] = acc;
}

__global__ void lds_reads_9(float *out) {
  __shared__ float tile[256];
  tile[threadIdx.x] = out[threadIdx.x];
  __syncthreads();
  float acc = 0;
  READ(0) READ(1) READ(2) READ(3) READ(4) READ(5) READ(6) READ(7) READ(8)
  out[threadIdx.x] = acc;
}
