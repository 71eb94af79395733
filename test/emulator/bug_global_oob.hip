// Bug: global (not LDS) out-of-bounds: the kernel writes one float past the end
// of a hipMalloc buffer. The emulated hipMalloc gives buffers host-ASan redzones,
// so the device's check sees the heap redzone.
// EXPECT: heap-buffer-overflow
// EXPECT-ACCESS: READ of size 4
// EXPECT-WORKITEM: (36,0,0)
// EXPECT-WORKGROUP: (1,0,0)
// EXPECT-KERNEL: scale
// EXPECT-EXIT: 1
// EXPECT-FRAME: in scale(float*, int) test/emulator/bug_global_oob.hip:18:20
#include "common.h"

__global__ void scale(float *p, int n) {
  __shared__ float f;
  if (threadIdx.x == 0) f = 2.0f;
  __syncthreads();
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i <= n) p[i] *= f;  // BUG: i == n is past the end (the load is checked first)
}

int main() {
  const int n = 100;
  float *d;
  HIP_CHECK(hipMalloc(&d, n * sizeof(float)));
  HIP_CHECK(hipMemset(d, 0, n * sizeof(float)));
  scale<<<2, 64>>>(d, n);
  LAUNCH_CHECK();
  printf("bug_global_oob: no error detected\n");
  return 0;
}
