// Clean: Hillis-Steele inclusive scan of 512 ints per workgroup, double-buffered in LDS.
// EXPECT: no-report
// EXPECT-STDOUT: clean_scan: PASSED
#include "common.h"

#define N 512
__global__ void scan(const int *in, int *out) {
  __shared__ int buf[2][N];
  int t = threadIdx.x, base = blockIdx.x * N, cur = 0;
  buf[0][t] = in[base + t];
  __syncthreads();
  for (int off = 1; off < N; off <<= 1) {
    int v = buf[cur][t];
    if (t >= off) v += buf[cur][t - off];
    buf[1 - cur][t] = v;
    cur = 1 - cur;
    __syncthreads();
  }
  out[base + t] = buf[cur][t];
}

int main() {
  const int blocks = 6, total = blocks * N;
  static int h[total], got[total], want[total];
  for (int i = 0; i < total; i++) h[i] = (i * 7) % 11 - 5;
  for (int b = 0; b < blocks; b++)
    for (int i = 0, s = 0; i < N; i++) want[b * N + i] = s += h[b * N + i];
  int *din, *dout;
  HIP_CHECK(hipMalloc(&din, sizeof h));
  HIP_CHECK(hipMalloc(&dout, sizeof h));
  HIP_CHECK(hipMemcpy(din, h, sizeof h, hipMemcpyHostToDevice));
  hipLaunchKernelGGL(scan, dim3(blocks), dim3(N), 0, 0, din, dout);
  LAUNCH_CHECK();
  HIP_CHECK(hipMemcpy(got, dout, sizeof got, hipMemcpyDeviceToHost));
  check_equal("scan", got, want, total);
  passed("clean_scan");
  return 0;
}
