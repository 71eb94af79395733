// Bug: each work-item reads its left neighbour without a bounds check, so
// work-item 0 reads tile[-1], before the first LDS variable (into the padding
// after the compiler's LDS pointer slot).
// EXPECT: lds-buffer-underflow
// EXPECT-ACCESS: READ of size 4
// EXPECT-WORKITEM: (0,0,0)
// EXPECT-WORKGROUP: (0,0,0)
// EXPECT-KERNEL: left_neighbour
// EXPECT-EXIT: 1
// Built with full debug info (-g) instead of the default line tables.
// CFLAGS: -g
// EXPECT-FRAME: in left_neighbour(float const*, float*) test/emulator/bug_underflow.hip:20:12
#include "common.h"

__global__ void left_neighbour(const float *in, float *out) {
  __shared__ float tile[128];
  int t = threadIdx.x;
  tile[t] = in[t];
  __syncthreads();
  out[t] = tile[t - 1];  // BUG: t == 0 reads tile[-1]
}

int main() {
  float *din, *dout;
  HIP_CHECK(hipMalloc(&din, 128 * sizeof(float)));
  HIP_CHECK(hipMalloc(&dout, 128 * sizeof(float)));
  HIP_CHECK(hipMemset(din, 0, 128 * sizeof(float)));
  left_neighbour<<<1, 128>>>(din, dout);
  LAUNCH_CHECK();
  printf("bug_underflow: no error detected\n");
  return 0;
}
