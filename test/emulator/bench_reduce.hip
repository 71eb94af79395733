// make bench, emulated side: 1M-element float reduction, 4096 workgroups x 256
// work-items, LDS tree reduction, run through ldsan-cc --emulate (sanitized).
// Prints "emulated_ms <best of runs>" after checking the result.
// The LDS checks find no error in it: run-time (detect_races, detect_uninit) and
// compiled in (-fsanitize-lds=races,uninit), in full ASan, LDS-only and LDS-only for gfx1100.
// RUN: env LDSAN_OPTIONS=detect_races=1:detect_uninit=1 %run %{exe} | FileCheck %s --check-prefix=CHECKED --implicit-check-not='ERROR: AddressSanitizer'
// RUN: env LDSAN_OPTIONS=detect_races=1:detect_uninit=1 %run %{exe:lds-only} | FileCheck %s --check-prefix=CHECKED --implicit-check-not='ERROR: AddressSanitizer'
// RUN: env LDSAN_OPTIONS=detect_races=1:detect_uninit=1 %run %{exe:lds-only+wave32} | FileCheck %s --check-prefix=CHECKED --implicit-check-not='ERROR: AddressSanitizer'
// RUN: %run %{exe:checks} | FileCheck %s --check-prefix=CHECKED --implicit-check-not='ERROR: AddressSanitizer'
// RUN: %run %{exe:lds-only+checks} | FileCheck %s --check-prefix=CHECKED --implicit-check-not='ERROR: AddressSanitizer'
// RUN: %run %{exe:lds-only+wave32+checks} | FileCheck %s --check-prefix=CHECKED --implicit-check-not='ERROR: AddressSanitizer'
// CHECKED: ldsan-test: exit 0
#include "common.h"
#include <time.h>

#define WG 256
__global__ void reduce(const float *in, float *partial) {
  __shared__ float buf[WG];
  int t = threadIdx.x;
  buf[t] = in[blockIdx.x * WG + t];
  __syncthreads();
  for (int s = WG / 2; s > 0; s >>= 1) {
    if (t < s) buf[t] += buf[t + s];
    __syncthreads();
  }
  if (t == 0) partial[blockIdx.x] = buf[0];
}

static double now_ms(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

int main(int argc, char **argv) {
  const int groups = 4096, n = groups * WG, runs = argc > 1 ? atoi(argv[1]) : 5;
  float *h = (float *)malloc(n * sizeof(float)), *hp = (float *)malloc(groups * sizeof(float));
  for (int i = 0; i < n; i++) h[i] = (float)(i % 7);
  float *din, *dp;
  HIP_CHECK(hipMalloc(&din, n * sizeof(float)));
  HIP_CHECK(hipMalloc(&dp, groups * sizeof(float)));
  HIP_CHECK(hipMemcpy(din, h, n * sizeof(float), hipMemcpyHostToDevice));
  double best = 1e30;
  for (int r = 0; r < runs; r++) {
    double t0 = now_ms();
    reduce<<<groups, WG>>>(din, dp);
    LAUNCH_CHECK();
    double t = now_ms() - t0;
    if (t < best) best = t;
  }
  HIP_CHECK(hipMemcpy(hp, dp, groups * sizeof(float), hipMemcpyDeviceToHost));
  double sum = 0, want = 0;
  for (int g = 0; g < groups; g++) sum += hp[g];
  for (int i = 0; i < n; i++) want += h[i];
  if (sum != want) {
    fprintf(stderr, "bench_reduce: sum %g, expected %g\n", sum, want);
    return 1;
  }
  free(h);
  free(hp);
  printf("emulated_ms %.3f\n", best);
  return 0;
}
