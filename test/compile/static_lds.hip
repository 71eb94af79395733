#include "mini_hip.inc"
// Static LDS of several sizes and types in one kernel.
__global__ void static_lds(int *out, int n) {
  __shared__ int tile[64];
  __shared__ float other[10];
  __shared__ char odd[13];
  unsigned t = threadIdx.x;
  tile[t] = (int)t;
  other[t % 10] = 1.0f;
  odd[t % 13] = (char)t;
  __syncthreads();
  out[t] = tile[(t + n) % 64] + (int)other[3] + odd[t % 13];
}
