#include "mini_hip.inc"
// Dynamic LDS (size given at launch) next to a static variable.
extern __shared__ float dyn[];
__global__ void dynamic_lds(float *out) {
  __shared__ int count;
  unsigned t = threadIdx.x;
  if (t == 0) count = 0;
  dyn[t] = (float)t;
  __syncthreads();
  out[t] = dyn[(t + 1) % 64] + (float)count;
}
