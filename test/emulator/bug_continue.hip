// Bug, reported without stopping: with LDSAN_OPTIONS=halt_on_error=0 the
// device keeps running after a report, the launch succeeds, and the program
// goes on to its next kernel and exits normally — one report per dispatch
// (the same bug at the same pc in one dispatch is deduplicated).
// ENV: LDSAN_OPTIONS=color=never:halt_on_error=0
// EXPECT: lds-buffer-overflow
// EXPECT-ACCESS: WRITE of size 4
// EXPECT-WORKITEM: (32,0,0)
// EXPECT-WORKGROUP: (0,0,0)
// EXPECT-KERNEL: pad_copy
// EXPECT-VAR: row
// EXPECT-REPORTS: 2
// EXPECT-EXIT: 0
// EXPECT-STDOUT: bug_continue: both launches returned hipSuccess
// EXPECT-FRAME: in pad_copy(int const*, int*) test/emulator/bug_continue.hip:21:10
#include "common.h"

__global__ void pad_copy(const int *in, int *out) {
  __shared__ int row[32];
  int t = threadIdx.x;
  row[t] = in[t];  // BUG: blockDim.x is 33
  __syncthreads();
  if (t == 0) {
    int sum = 0;
    for (int i = 0; i < 32; i++) sum += row[i];
    out[0] = sum;
  }
}

int main() {
  int *din, *dout;
  HIP_CHECK(hipMalloc(&din, 33 * sizeof(int)));
  HIP_CHECK(hipMalloc(&dout, sizeof(int)));
  HIP_CHECK(hipMemset(din, 0, 33 * sizeof(int)));
  pad_copy<<<1, 33>>>(din, dout);
  hipError_t first = hipDeviceSynchronize();
  pad_copy<<<1, 33>>>(din, dout);
  hipError_t second = hipDeviceSynchronize();
  if (first == hipSuccess && second == hipSuccess)
    printf("bug_continue: both launches returned hipSuccess\n");
  else
    printf("bug_continue: launches returned %s, %s\n", hipGetErrorName(first), hipGetErrorName(second));
  return 0;
}
