// Bug: a stencil reads its right halo from LDS without loading it: the last
// work-item reads past the LDS tile (a READ, in the last workgroup of three).
// EXPECT: lds-buffer-overflow
// EXPECT-ACCESS: READ of size 4
// EXPECT-WORKITEM: (127,0,0)
// EXPECT-WORKGROUP: (2,0,0)
// EXPECT-KERNEL: smooth
// EXPECT-VAR: s
// EXPECT-LOCATION: 0 bytes after
// EXPECT-EXIT: 1
// EXPECT-FRAME: in smooth(float const*, float*, int) test/emulator/bug_read_halo.hip:22
#include "common.h"

#define B 128
__global__ void smooth(const float *in, float *out, int n) {
  __shared__ float s[B];
  int t = threadIdx.x, g = blockIdx.x * B + t;
  s[t] = in[g];
  __syncthreads();
  bool last_block = blockIdx.x == gridDim.x - 1;
  // BUG: interior blocks stop at t == B-2, but the last block reads s[B].
  float right = t < B - 1 ? s[t + 1] : (last_block ? s[t + 1] : in[g + 1]);
  out[g] = 0.5f * (s[t] + right);
}

int main() {
  const int n = 3 * B;
  float *din, *dout;
  HIP_CHECK(hipMalloc(&din, (n + 1) * sizeof(float)));
  HIP_CHECK(hipMalloc(&dout, n * sizeof(float)));
  HIP_CHECK(hipMemset(din, 0, (n + 1) * sizeof(float)));
  smooth<<<n / B, B>>>(din, dout, n);
  LAUNCH_CHECK();
  printf("bug_read_halo: no error detected\n");
  return 0;
}
