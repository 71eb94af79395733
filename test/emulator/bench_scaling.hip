// make bench, emulated side: how the emulator's time scales with the number
// of workgroups, the work-items per group and the LDS per group, and how much
// of it is the emulator's own per-workgroup work. One kernel stages an LDS
// array from global memory, meets at a barrier, and has every work-item read
// it 64 times; its twin declares the same array and meets at the same barrier
// but does almost nothing else, so it costs what any workgroup of that shape
// costs (scheduling, barrier, ldsan's LDS block) and no kernel work.
// Prints one line per configuration:
//   scale <axis> <groups> <items per group> <LDS bytes> <ms> <ns per work-item> <overhead %>
// (best of runs) after checking every result against a host reference. Also a
// test (its RUN lines): a GPU-sized workload, 2^20 work-items reading LDS
// 64 times each, and eight more shapes, give the host reference's answers.
// RUN: %run %{exe} | FileCheck %s --implicit-check-not='ERROR: AddressSanitizer' --implicit-check-not='ldsan-emu: error:'
// RUN: env LDSAN_OPTIONS=emu_fibers=1 %run %{exe} | FileCheck %s --implicit-check-not='ERROR: AddressSanitizer' --implicit-check-not='ldsan-emu: error:'
// CHECK: ldsan-test: stdout:
// CHECK: bench_scaling: PASSED
// CHECK: ldsan-test: exit 0
#include "common.h"
#include <time.h>

#define ITERS 64

template <int N>
__global__ void work(const int *in, int *out) {
  __shared__ int tile[N];
  int t = threadIdx.x, b = blockDim.x;
  for (int i = t; i < N; i += b) tile[i] = in[i] + blockIdx.x;
  __syncthreads();
  int acc = 0;
  for (int k = 0; k < ITERS; ++k) acc += tile[(t * 7 + k * 13) % N];
  out[blockIdx.x * b + t] = acc;
}

template <int N>
__global__ void shape_only(int *out) {
  __shared__ int tile[N];
  if (threadIdx.x == 0) tile[0] = blockIdx.x;
  __syncthreads();
  if (threadIdx.x == 0 && blockIdx.x == 0) out[0] = tile[0];
}

static double now_ms(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

template <int N>
static void run(const char *axis, int groups, int items, int runs) {
  const int n = groups * items;
  int *h = (int *)malloc(N * sizeof(int)), *got = (int *)malloc(n * sizeof(int)), *want = (int *)malloc(n * sizeof(int));
  for (int i = 0; i < N; i++) h[i] = (i * 2654435761u) >> 20;
  for (int g = 0; g < groups; g++)
    for (int t = 0; t < items; t++) {
      int acc = 0;
      for (int k = 0; k < ITERS; ++k) acc += h[(t * 7 + k * 13) % N] + g;
      want[g * items + t] = acc;
    }
  int *din, *dout;
  HIP_CHECK(hipMalloc(&din, N * sizeof(int)));
  HIP_CHECK(hipMalloc(&dout, n * sizeof(int)));
  HIP_CHECK(hipMemcpy(din, h, N * sizeof(int), hipMemcpyHostToDevice));
  double best_work = 1e30, best_shape = 1e30;
  for (int r = 0; r < runs; r++) {
    double t0 = now_ms();
    work<N><<<groups, items>>>(din, dout);
    LAUNCH_CHECK();
    double t1 = now_ms();
    shape_only<N><<<groups, items>>>(dout + n - 1);
    LAUNCH_CHECK();
    double t2 = now_ms();
    if (t1 - t0 < best_work) best_work = t1 - t0;
    if (t2 - t1 < best_shape) best_shape = t2 - t1;
  }
  work<N><<<groups, items>>>(din, dout);
  LAUNCH_CHECK();
  HIP_CHECK(hipMemcpy(got, dout, n * sizeof(int), hipMemcpyDeviceToHost));
  check_equal("bench_scaling", got, want, n);
  printf("scale %s %d %d %zu %.3f %.2f %.0f\n", axis, groups, items, N * sizeof(int), best_work,
         best_work * 1e6 / n, 100 * best_shape / best_work);
  HIP_CHECK(hipFree(din));
  HIP_CHECK(hipFree(dout));
  free(h);
  free(got);
  free(want);
}

int main(int argc, char **argv) {
  int runs = argc > 1 ? atoi(argv[1]) : 3;
  if (runs < 1) runs = 1;
  // Workgroups: 256 work-items and 4 KiB of LDS each; the last is 2^20 work-items.
  run<1024>("workgroups", 256, 256, runs);
  run<1024>("workgroups", 1024, 256, runs);
  run<1024>("workgroups", 4096, 256, runs);
  // Work-items per group: 2^18 work-items in all, 4 KiB of LDS per group.
  run<1024>("items", 4096, 64, runs);
  run<1024>("items", 1024, 256, runs);
  run<1024>("items", 256, 1024, runs);
  // LDS per group: 1024 groups of 256 work-items.
  run<256>("lds", 1024, 256, runs);
  run<4096>("lds", 1024, 256, runs);
  run<12288>("lds", 1024, 256, runs);
  passed("bench_scaling");
  return 0;
}
