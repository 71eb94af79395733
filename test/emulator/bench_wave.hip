// make bench: what running a kernel's waves in lockstep costs on the
// emulator. The same 1M-element reduction (4096 workgroups x 256 work-items)
// two ways: an LDS tree with a barrier per step (work-item loops), and
// shuffles within each wave then one LDS slot per wave (lanes in lockstep:
// every shuffle and shared access is a meeting point of the wave's lanes,
// in work-item loops; as fibers with LDSAN_OPTIONS=emu_fibers=1).
// Prints "tree_ms" and "shuffle_ms" (best of runs) after checking both sums.
#include "common.h"
#include <time.h>

#define WG 256
__global__ void tree(const float *in, float *partial) {
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

__global__ void shuffle(const float *in, float *partial) {
  __shared__ float wave_sum[WG / 64];
  int t = threadIdx.x;
  float v = in[blockIdx.x * WG + t];
  for (int m = 32; m > 0; m >>= 1) v += __shfl_xor(v, m);
  if (t % 64 == 0) wave_sum[t / 64] = v;
  __syncthreads();
  if (t == 0) partial[blockIdx.x] = wave_sum[0] + wave_sum[1] + wave_sum[2] + wave_sum[3];
}

static double now_ms(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

template <typename K>
static double run(K kernel, const char *name, const float *din, float *dp, int groups, int runs, double want) {
  double best = 1e30;
  for (int r = 0; r < runs; r++) {
    double t0 = now_ms();
    kernel<<<groups, WG>>>(din, dp);
    LAUNCH_CHECK();
    double t = now_ms() - t0;
    if (t < best) best = t;
  }
  static float hp[4096];
  HIP_CHECK(hipMemcpy(hp, dp, groups * sizeof(float), hipMemcpyDeviceToHost));
  double sum = 0;
  for (int g = 0; g < groups; g++) sum += hp[g];
  if (sum != want) {
    fprintf(stderr, "bench_wave: %s sum %g, expected %g\n", name, sum, want);
    exit(1);
  }
  return best;
}

int main(int argc, char **argv) {
  const int groups = 4096, n = groups * WG, runs = argc > 1 ? atoi(argv[1]) : 5;
  float *h = (float *)malloc(n * sizeof(float));
  double want = 0;
  for (int i = 0; i < n; i++) want += h[i] = (float)(i % 7);
  float *din, *dp;
  HIP_CHECK(hipMalloc(&din, n * sizeof(float)));
  HIP_CHECK(hipMalloc(&dp, groups * sizeof(float)));
  HIP_CHECK(hipMemcpy(din, h, n * sizeof(float), hipMemcpyHostToDevice));
  printf("tree_ms %.3f\n", run(tree, "tree", din, dp, groups, runs, want));
  printf("shuffle_ms %.3f\n", run(shuffle, "shuffle", din, dp, groups, runs, want));
  free(h);
  return 0;
}
