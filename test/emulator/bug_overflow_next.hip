// Bug: a 65-work-item workgroup fills a 64-element LDS array; work-item 64
// writes one past its end, into the redzone before the next LDS variable.
// EXPECT: lds-buffer-overflow
// EXPECT-ACCESS: WRITE of size 4
// EXPECT-WORKITEM: (64,0,0)
// EXPECT-WORKGROUP: (0,0,0)
// EXPECT-KERNEL: fill_both
// EXPECT-VAR: a
// EXPECT-LOCATION: 0 bytes after
// EXPECT-FRAME: in fill_both(int*) test/emulator/bug_overflow_next.hip:19:8
// EXPECT-LAUNCH: in main test/emulator/bug_overflow_next.hip:28
// EXPECT-EXIT: 1
#include "common.h"

__global__ void fill_both(int *out) {
  __shared__ int a[64];
  __shared__ int b[64];
  int t = threadIdx.x;
  a[t] = t;  // BUG: blockDim.x is 65
  if (t < 64) b[t] = -t;
  __syncthreads();
  if (t < 64) out[t] = a[t] + b[63 - t];
}

int main() {
  int *d;
  HIP_CHECK(hipMalloc(&d, 64 * sizeof(int)));
  fill_both<<<1, 65>>>(d);
  LAUNCH_CHECK();
  printf("bug_overflow_next: no error detected\n");
  return 0;
}
