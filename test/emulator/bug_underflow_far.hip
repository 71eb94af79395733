// Bug: work-item 3 of the first workgroup writes 9 KiB below its __shared__
// array: far below its LDS block, into ldsan's backing store where no block is
// (there: the pool's bookkeeping). Poisoned before any block was handed out,
// it is reported as the access it is (naming how far before this workgroup's
// block it lies), and the allocator is intact: the program's later launches run
// and the block is given back without a misleading bad-free report.
// EXPECT: lds-buffer-overflow
// EXPECT-ACCESS: WRITE of size 4
// EXPECT-WORKITEM: (3,0,0)
// EXPECT-WORKGROUP: (0,0,0)
// EXPECT-KERNEL: far_below
// EXPECT-LOCATION: is in ldsan's LDS backing store,
// EXPECT-REPORTS: 1
// EXPECT-ABSENT: lds-bad-free
// EXPECT-STDOUT: second launch: 256 of 256
// EXPECT-EXIT: 0
// ENV: LDSAN_OPTIONS=halt_on_error=0
#include <hip/hip_runtime.h>
#include <cstdio>

__global__ void far_below(int *out, int reach) {
  __shared__ int tile[64];
  tile[threadIdx.x] = (int)threadIdx.x;
  __syncthreads();
  if (blockIdx.x == 0 && threadIdx.x == 3) tile[-reach] = 42;  // BUG: 9 KiB below the array
  out[blockIdx.x * blockDim.x + threadIdx.x] = tile[threadIdx.x];
}

int main() {
  int *d = nullptr, host[256];
  if (hipMalloc(&d, sizeof host) != hipSuccess) return 3;
  hipLaunchKernelGGL(far_below, dim3(4), dim3(64), 0, 0, d, 2304);
  hipDeviceSynchronize();
  hipLaunchKernelGGL(far_below, dim3(4), dim3(64), 0, 0, d, 0);  // clean: reach 0 is tile[0]
  hipDeviceSynchronize();
  if (hipMemcpy(host, d, sizeof host, hipMemcpyDeviceToHost) != hipSuccess) return 3;
  int ok = 0;
  for (int i = 0; i < 256; i++) ok += host[i] == (i % 64 == 0 && i < 64 ? 42 : i % 64) || host[i] == i % 64;
  std::printf("second launch: %d of 256\n", ok);
  return 0;
}
