// Bug: the launch gives dynamic LDS for blockDim.x floats but the kernel stores
// blockDim.x + 1 (an off-by-one in the host's size computation).
// EXPECT: dynamic-lds-buffer-overflow
// EXPECT-ACCESS: WRITE of size 4
// EXPECT-WORKITEM: (0,0,0)
// EXPECT-WORKGROUP: (0,0,0)
// EXPECT-KERNEL: shift_right
// EXPECT-LOCATION: 0 bytes after the end of dynamic LDS of size 256
// EXPECT-EXIT: 1
// Built at -O0: the frame names the source line as at -O2.
// CFLAGS: -O0
// EXPECT-FRAME: in shift_right(float const*, float*) test/emulator/bug_dynamic_overrun.hip:18:22
#include "common.h"

__global__ void shift_right(const float *in, float *out) {
  extern __shared__ float buf[];
  int t = threadIdx.x, n = blockDim.x;
  if (t == 0) buf[n] = 0;  // BUG: one past the dynamic LDS the launch provided
  buf[t] = in[t];
  __syncthreads();
  out[t] = t > 0 ? buf[t - 1] : 0;
}

int main() {
  const int n = 64;
  float *din, *dout;
  HIP_CHECK(hipMalloc(&din, n * sizeof(float)));
  HIP_CHECK(hipMalloc(&dout, n * sizeof(float)));
  HIP_CHECK(hipMemset(din, 0, n * sizeof(float)));
  shift_right<<<1, n, n * sizeof(float)>>>(din, dout);
  LAUNCH_CHECK();
  printf("bug_dynamic_overrun: no error detected\n");
  return 0;
}
