// Bug: a device function inlined into the kernel stores one past a workgroup's
// LDS table. The report's pc is in the kernel's code, and its frames are the
// helper's line and the kernel's call of it (llvm-symbolizer's inlined frames).
// EXPECT: lds-buffer-overflow
// EXPECT-ACCESS: WRITE of size 4
// EXPECT-WORKITEM: (16,0,0)
// EXPECT-WORKGROUP: (1,0,0)
// EXPECT-KERNEL: tally
// EXPECT-VAR: bins
// EXPECT-LOCATION: 0 bytes after
// EXPECT-FRAME: in bump(unsigned int*, int, unsigned int) test/emulator/bug_inlined_helper.hip:21:11
// EXPECT-FRAME: in tally(int const*, unsigned int*) test/emulator/bug_inlined_helper.hip:30:5
// EXPECT-EXIT: 1
#include "common.h"

#define NBINS 16

__device__ inline void bump(unsigned *bins, int k, unsigned v) {
  if (v == 0)
    return;
  bins[k] = v;  // BUG: k == NBINS is one past the end
}

__global__ void tally(const int *keys, unsigned *out) {
  __shared__ unsigned bins[NBINS];
  int t = threadIdx.x;
  if (t < NBINS) bins[t] = 0;
  __syncthreads();
  if (blockIdx.x == 1)               // the second workgroup only
    bump(bins, t, keys[t] + 1u);     // 17 work-items, 16 bins
  __syncthreads();
  if (t < NBINS) out[blockIdx.x * NBINS + t] = bins[t];
}

int main() {
  int *keys;
  unsigned *out;
  HIP_CHECK(hipMalloc(&keys, 17 * sizeof(int)));
  HIP_CHECK(hipMalloc(&out, 2 * NBINS * sizeof(unsigned)));
  HIP_CHECK(hipMemset(keys, 0, 17 * sizeof(int)));
  tally<<<2, NBINS + 1>>>(keys, out);
  LAUNCH_CHECK();
  printf("bug_inlined_helper: no error detected\n");
  return 0;
}
