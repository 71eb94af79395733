#include "mini_hip.inc"
// 2-D and 3-D blocks indexing LDS.
__global__ void block2d(int *out) {
  __shared__ int tile[16][17];
  tile[threadIdx.y][threadIdx.x] = (int)(threadIdx.x + threadIdx.y);
  __syncthreads();
  out[blockIdx.y * 256 + threadIdx.y * 16 + threadIdx.x] = tile[threadIdx.x][threadIdx.y];
}
__global__ void block3d(int *out) {
  __shared__ short cube[4][4][4];
  cube[threadIdx.z][threadIdx.y][threadIdx.x] = (short)threadIdx.z;
  __syncthreads();
  out[threadIdx.z * 16 + threadIdx.y * 4 + threadIdx.x] = cube[threadIdx.x][threadIdx.y][threadIdx.z] + (int)blockIdx.z;
}
