// Bug: LDS reached through a non-inlined device function, which clears one
// element too many of a workgroup-wide table. The device compile inlines it
// anyway (its bitcode has no clear_counts left): two frames, the function's
// line and the kernel's call.
// EXPECT: lds-buffer-overflow
// EXPECT-ACCESS: WRITE of size 4
// EXPECT-WORKITEM: (31,0,0)
// EXPECT-WORKGROUP: (0,0,0)
// EXPECT-KERNEL: count_keys
// EXPECT-VAR: counts
// EXPECT-LOCATION: 0 bytes after
// EXPECT-FRAME: in clear_counts(int) test/emulator/bug_noinline.hip:21:29
// EXPECT-FRAME: in count_keys(int const*, unsigned int*) test/emulator/bug_noinline.hip:26:3
// EXPECT-EXIT: 1
#include "common.h"

#define NKEYS 31
__shared__ unsigned counts[NKEYS];

__device__ __noinline__ void clear_counts(int t) {
  if (t <= NKEYS) counts[t] = 0;  // BUG: should be t < NKEYS
}

__global__ void count_keys(const int *keys, unsigned *out) {
  int t = threadIdx.x;
  clear_counts(t);
  __syncthreads();
  atomicAdd(&counts[keys[t] % NKEYS], 1u);
  __syncthreads();
  if (t < NKEYS) out[t] = counts[t];
}

int main() {
  int *keys;
  unsigned *out;
  HIP_CHECK(hipMalloc(&keys, 64 * sizeof(int)));
  HIP_CHECK(hipMalloc(&out, NKEYS * sizeof(unsigned)));
  HIP_CHECK(hipMemset(keys, 0, 64 * sizeof(int)));
  count_keys<<<1, 64>>>(keys, out);
  LAUNCH_CHECK();
  printf("bug_noinline: no error detected\n");
  return 0;
}
