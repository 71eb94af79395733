// make bench, emulated side: what a workgroup's LDS costs on the emulator.
// 16384 workgroups x 16 work-items run the same tiny kernel twice: once
// through one small __shared__ array (ldsan's block enter/exit, the block's
// shadow, checked LDS accesses), once through registers, both with the same
// barrier. Prints "lds_us_per_wg" and "plain_us_per_wg" (best of runs) after
// checking both results.
#include "common.h"
#include <time.h>

#define WG 16
__global__ void with_lds(const int *in, int *out) {
  __shared__ int s[WG];
  int t = threadIdx.x;
  s[t] = in[blockIdx.x * WG + t];
  __syncthreads();
  out[blockIdx.x * WG + t] = s[WG - 1 - t];
}

__global__ void without_lds(const int *in, int *out) {
  int t = threadIdx.x;
  int v = in[blockIdx.x * WG + (WG - 1 - t)];
  __syncthreads();
  out[blockIdx.x * WG + t] = v;
}

static double now_ms(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

int main(int argc, char **argv) {
  const int groups = 16384, n = groups * WG, runs = argc > 1 ? atoi(argv[1]) : 5;
  int *h = (int *)malloc(n * sizeof(int)), *got = (int *)malloc(n * sizeof(int));
  for (int i = 0; i < n; i++) h[i] = i * 3;
  int *din, *dout;
  HIP_CHECK(hipMalloc(&din, n * sizeof(int)));
  HIP_CHECK(hipMalloc(&dout, n * sizeof(int)));
  HIP_CHECK(hipMemcpy(din, h, n * sizeof(int), hipMemcpyHostToDevice));
  double best[2] = {1e30, 1e30};
  for (int r = 0; r < runs; r++)
    for (int k = 0; k < 2; k++) {
      HIP_CHECK(hipMemset(dout, 0, n * sizeof(int)));
      double t0 = now_ms();
      if (k == 0) with_lds<<<groups, WG>>>(din, dout);
      else without_lds<<<groups, WG>>>(din, dout);
      LAUNCH_CHECK();
      double t = now_ms() - t0;
      if (t < best[k]) best[k] = t;
      HIP_CHECK(hipMemcpy(got, dout, n * sizeof(int), hipMemcpyDeviceToHost));
      for (int i = 0; i < n; i++)
        if (got[i] != h[(i / WG) * WG + (WG - 1 - i % WG)]) {
          fprintf(stderr, "bench_blocks: kernel %d, element %d is %d\n", k, i, got[i]);
          return 1;
        }
    }
  printf("lds_us_per_wg %.3f\n", best[0] * 1e3 / groups);
  printf("plain_us_per_wg %.3f\n", best[1] * 1e3 / groups);
  free(h);
  free(got);
  return 0;
}
