/* make bench, native side: the same 1M-element reduction as bench_reduce.hip,
 * compiled natively for the CPU without sanitizers — the kernel body as C (a
 * 256-element tree reduction per workgroup, one workgroup after another) and,
 * for reference, a plain sequential loop. Prints "native_kernel_ms" and
 * "native_loop_ms", each the best of several runs. */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#define WG 256
#define GROUPS 4096

static double now_ms(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

/* The kernel body, one workgroup at a time: buf plays the role of LDS. */
__attribute__((noinline)) static void reduce_groups(const float *in, float *partial) {
  float buf[WG];
  for (int g = 0; g < GROUPS; g++) {
    for (int t = 0; t < WG; t++) buf[t] = in[g * WG + t];
    for (int s = WG / 2; s > 0; s >>= 1)
      for (int t = 0; t < s; t++) buf[t] += buf[t + s];
    partial[g] = buf[0];
  }
}

__attribute__((noinline)) static float reduce_loop(const float *in, int n) {
  float s = 0;
  for (int i = 0; i < n; i++) s += in[i];
  return s;
}

int main(int argc, char **argv) {
  const int n = GROUPS * WG, runs = argc > 1 ? atoi(argv[1]) : 20;
  float *in = malloc(n * sizeof(float)), *partial = malloc(GROUPS * sizeof(float));
  if (!in || !partial) return 1;
  for (int i = 0; i < n; i++) in[i] = (float)(i % 7);
  double best_kernel = 1e30, best_loop = 1e30, sum = 0;
  volatile float sink = 0;
  for (int r = 0; r < runs; r++) {
    double t0 = now_ms();
    reduce_groups(in, partial);
    double t1 = now_ms();
    sink = reduce_loop(in, n);
    double t2 = now_ms();
    if (t1 - t0 < best_kernel) best_kernel = t1 - t0;
    if (t2 - t1 < best_loop) best_loop = t2 - t1;
  }
  for (int g = 0; g < GROUPS; g++) sum += partial[g];
  (void)sink;
  printf("native_kernel_ms %.3f\nnative_loop_ms %.3f\nchecksum %.0f\n", best_kernel, best_loop, sum);
  return 0;
}
