// Bug: records packed into LDS without padding (a 1-byte tag then a 4-byte
// value, 5 bytes each); the reader of the last record takes the value of the
// record after it. The unaligned 4-byte load is checked byte by byte upstream;
// ldsan reports it as the 4-byte READ it is, 1 byte past the array (the value
// field of recs[32] starts after its tag).
// EXPECT: lds-buffer-overflow
// EXPECT-ACCESS: READ of size 4
// EXPECT-WORKITEM: (31,0,0)
// EXPECT-WORKGROUP: (0,0,0)
// EXPECT-KERNEL: sum_packed
// EXPECT-VAR: recs
// EXPECT-LOCATION: 1 bytes after LDS variable 'recs' of size 160
// EXPECT-EXIT: 1
#include "common.h"

struct __attribute__((packed)) rec {
  char tag;
  int value;
};

__global__ void sum_packed(const int *in, int *out) {
  __shared__ rec recs[32];
  unsigned t = threadIdx.x;
  recs[t].tag = (char)t;
  recs[t].value = in[t];
  __syncthreads();
  // BUG: work-item 31 reads recs[32].value.
  out[t] = recs[t].value + recs[t + 1 == 32 ? 32 : t + 1].value;
}

int main() {
  int *in, *out;
  HIP_CHECK(hipMalloc(&in, 32 * sizeof(int)));
  HIP_CHECK(hipMalloc(&out, 32 * sizeof(int)));
  HIP_CHECK(hipMemset(in, 0, 32 * sizeof(int)));
  sum_packed<<<1, 32>>>(in, out);
  LAUNCH_CHECK();
  printf("bug_unaligned_wide: no error detected\n");
  return 0;
}
