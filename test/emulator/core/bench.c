/* emulator core bench: emulated sanitized reduction (4096 x 256) against the same
 * tree reduction compiled natively for the CPU (one thread); prints the ratio. */
#include <string.h>
#include <time.h>

#include "harness.h"

enum { G = 4096, B = 256 };
static int in[G * B], out_emu[G], out_nat[G];

static double now(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return ts.tv_sec + ts.tv_nsec * 1e-9;
}

static void __attribute__((noinline)) native_reduce(const int *src, int *dst) {
  for (int g = 0; g < G; g++) {
    int sum[B];
    memcpy(sum, src + g * B, sizeof sum);
    for (int s = B / 2; s > 0; s >>= 1)
      for (int t = 0; t < s; t++) sum[t] += sum[t + s];
    dst[g] = sum[0];
  }
}

int main(void) {
  for (int i = 0; i < G * B; i++) in[i] = i % 1000 - 500;
  const ldsan_emu_kernel *k = emu_test_kernel("bench_reduce");
  const int *pin = in;
  int *pout = out_emu;
  void *args[] = {&pin, &pout};
  double best_emu = 1e9, best_nat = 1e9;
  for (int rep = 0; rep < 3; rep++) {
    double t0 = now();
    CHECK(emu_test_launch(k, G, 1, 1, B, 1, 1, args, 0) == 0, "launch");
    double t1 = now();
    native_reduce(in, out_nat);
    double t2 = now();
    if (t1 - t0 < best_emu) best_emu = t1 - t0;
    if (t2 - t1 < best_nat) best_nat = t2 - t1;
  }
  for (int g = 0; g < G; g++) CHECK(out_emu[g] == out_nat[g], "g=%d: %d != %d", g, out_emu[g], out_nat[g]);
  printf("bench-core: 4096x256 sanitized LDS reduction: emulated %.2f ms, native %.3f ms, ratio %.1fx (target < 50x)\n",
         best_emu * 1e3, best_nat * 1e3, best_emu / best_nat);
  return 0;
}
