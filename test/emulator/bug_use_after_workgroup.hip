// Bug: a workgroup publishes a pointer into its __shared__ array through global
// memory, and a later kernel writes through it after that workgroup exited. The
// block went to ldsan's quarantine (poisoned, header intact), so the write is
// reported as lds-use-after-workgroup-exit naming the variable, its kernel and
// the workgroup that owned it.
// EXPECT: lds-use-after-workgroup-exit
// EXPECT-ACCESS: WRITE of size 4
// EXPECT-KERNEL: poke
// EXPECT-LOCATION: is located 20 bytes inside of LDS variable 'tile' of size 256
// EXPECT-STDERR: of workgroup (0,0,0) of kernel stash(int**), which has exited
// EXPECT-EXIT: 1
#include <hip/hip_runtime.h>
#include <cstdio>

__global__ void stash(int **out) {
  __shared__ int tile[64];
  tile[threadIdx.x] = (int)threadIdx.x;
  __syncthreads();
  if (blockIdx.x == 0 && threadIdx.x == 0) *out = &tile[5];  // escapes the workgroup
}

__global__ void poke(int **p) {
  __shared__ int mine[64];
  mine[threadIdx.x] = 1;
  __syncthreads();
  if (threadIdx.x == 0) **p = mine[1];  // BUG: the workgroup that owned *p has exited
}

int main() {
  int **d = nullptr;
  if (hipMalloc(&d, sizeof *d) != hipSuccess) return 3;
  hipLaunchKernelGGL(stash, dim3(1), dim3(64), 0, 0, d);
  hipDeviceSynchronize();
  hipLaunchKernelGGL(poke, dim3(1), dim3(64), 0, 0, d);
  hipDeviceSynchronize();
  std::printf("done\n");
  return 0;
}
