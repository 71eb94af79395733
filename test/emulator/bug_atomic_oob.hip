// Bug: a 255-bin LDS histogram indexed by an unsigned char: the one input byte
// equal to 255 makes an LDS atomic add one past the last bin. The 4-byte atomic
// is reported with its real size (upstream checks atomics byte by byte).
// EXPECT: lds-buffer-overflow
// EXPECT-ACCESS: WRITE of size 4
// EXPECT-WORKITEM: (77,0,0)
// EXPECT-WORKGROUP: (2,0,0)
// EXPECT-KERNEL: byte_histogram
// EXPECT-VAR: bins
// EXPECT-LOCATION: 0 bytes after
// EXPECT-EXIT: 1
// Built with -g0 (no line tables): the frame is the bare pc in the executable.
// CFLAGS: -g0
// EXPECT-FRAME: bare
#include "common.h"

#define NBINS 255  // BUG: a byte has 256 values
__global__ void byte_histogram(const unsigned char *in, unsigned *out) {
  __shared__ unsigned bins[NBINS];
  for (int b = threadIdx.x; b < NBINS; b += blockDim.x) bins[b] = 0;
  __syncthreads();
  atomicAdd(&bins[in[blockIdx.x * blockDim.x + threadIdx.x]], 1u);
  __syncthreads();
  for (int b = threadIdx.x; b < NBINS; b += blockDim.x) atomicAdd(&out[b], bins[b]);
}

int main() {
  const int blocks = 4, threads = 128, n = blocks * threads;
  unsigned char in[n];
  for (int i = 0; i < n; i++) in[i] = (unsigned char)(i % 200);
  in[2 * threads + 77] = 255;
  unsigned char *din;
  unsigned *dout;
  HIP_CHECK(hipMalloc(&din, n));
  HIP_CHECK(hipMalloc(&dout, NBINS * sizeof(unsigned)));
  HIP_CHECK(hipMemcpy(din, in, n, hipMemcpyHostToDevice));
  HIP_CHECK(hipMemset(dout, 0, NBINS * sizeof(unsigned)));
  byte_histogram<<<blocks, threads>>>(din, dout);
  LAUNCH_CHECK();
  printf("bug_atomic_oob: no error detected\n");
  return 0;
}
