#include "mini_hip.inc"
// Several kernels using the same module-scope LDS variable directly.
__shared__ double common[32];
__global__ void writer(double *out) { common[threadIdx.x % 32] = 1.0; __syncthreads(); out[threadIdx.x] = common[0]; }
__global__ void reader(double *out) { common[0] = 2.0; __syncthreads(); out[threadIdx.x] = common[threadIdx.x % 32]; }
__global__ void no_lds(double *out) { out[threadIdx.x] = 3.0; }
