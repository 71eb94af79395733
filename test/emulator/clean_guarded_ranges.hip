// Clean: regions that start with a compare of threadIdx.x (every predicate,
// a kernel-argument bound, bounds beyond the workgroup and below zero). In a
// one-dimensional workgroup the emulator's loop for such a region runs only
// over the work-items the compare lets in and, after it, stores the others'
// stop at the next barrier (unless everybody stopped there): every work-item
// must still see every later region. Also run with detect_races=1
// (a RUN line): after a pass that leaves work-items at different places,
// the barrier-divergence check reads every state (a stale one would be
// reported as divergence).
// CFLAGS: -O2
// RUN: %run %{exe} | FileCheck %s --implicit-check-not='ERROR: AddressSanitizer' --implicit-check-not='ldsan-emu: error:'
// RUN: env LDSAN_OPTIONS=emu_fibers=1 %run %{exe} | FileCheck %s --implicit-check-not='ERROR: AddressSanitizer' --implicit-check-not='ldsan-emu: error:'
// RUN: %run %{exe:lds-only} | FileCheck %s --implicit-check-not='ERROR: AddressSanitizer' --implicit-check-not='ldsan-emu: error:'
// RUN: env LDSAN_OPTIONS=detect_races=1 %run %{exe} | FileCheck %s --implicit-check-not='ERROR: AddressSanitizer' --implicit-check-not='ldsan-emu: error:'
// RUN: env LDSAN_OPTIONS=detect_races=1:emu_fibers=1 %run %{exe} | FileCheck %s --implicit-check-not='ERROR: AddressSanitizer' --implicit-check-not='ldsan-emu: error:'
// CHECK: ldsan-test: stdout:
// CHECK: clean_guarded_ranges: PASSED
// CHECK: ldsan-test: exit 0
#include "common.h"
#include <vector>

__global__ void ranges(int *out, int lim, int big, int neg) {
  __shared__ int a[1024];
  int t = threadIdx.x + blockDim.x * threadIdx.y;
  a[t] = 0;
  __syncthreads();
  if (t < lim) a[t] += 1;
  __syncthreads();
  if (t >= 200) a[t] += 2;
  __syncthreads();
  if (t > 250) a[t] += 4;
  __syncthreads();
  if (t == 17) a[t] += 8;
  __syncthreads();
  if (t <= 3) a[t] += 16;
  __syncthreads();
  if (t < big) a[t] += 32;
  __syncthreads();
  if (t < neg) a[t] += 64;
  __syncthreads();
  if ((unsigned)t >= (unsigned)lim) a[t] += 128;
  __syncthreads();
  if (t != 5) a[t] += 256;
  __syncthreads();
  out[blockIdx.x * blockDim.x * blockDim.y + t] = a[t] + a[(t + 1) % (blockDim.x * blockDim.y)] * 1024;
}

// Whole waves return before the last barrier (the narrowed loop runs over the
// others; the returning ones get their stop at the kernel-exit barrier stored
// after it), and the next passes read every work-item's state. Before that, a
// narrowed region whose work-items all stop at the same barrier stores no
// state for the ones it skips: the early return's pass must store them all.
template <bool below>
__global__ void early(int *out, int from) {
  __shared__ int a[1024];
  int t = threadIdx.x, n = blockDim.x;
  a[t] = t * 3;
  __syncthreads();
  if (t < 32) a[t] += 2;
  __syncthreads();
  if (below ? t < from : t >= from) return;
  a[t] += 1;
  __syncthreads();
  int lo = below ? from : 0, len = below ? n - from : from;
  out[blockIdx.x * n + t] = a[t] + a[lo + (t - lo + 1) % len] * 1024;
}

// The work-items past `from` (or below it) finish early (whole waves); the
// others wait at the barrier: the loop runs over the first, and the next pass,
// which reads every work-item's state, must find the others at that barrier.
template <bool high>
__global__ void finish_early(int *out, int from) {
  __shared__ int a[1024];
  int t = threadIdx.x, n = blockDim.x;
  a[t] = t * 5;
  __syncthreads();
  if (high ? t >= from : t < from) {
    out[blockIdx.x * n + t] = -t;
    return;
  }
  __syncthreads();
  out[blockIdx.x * n + t] = a[t] + a[(t + 7) % n] * 1024;
}

static void run_finish_early(int n, int groups, int from, bool high) {
  std::vector<int> got(n * groups), want(n * groups);
  for (int g = 0; g < groups; g++)
    for (int t = 0; t < n; t++)
      want[g * n + t] = (high ? t >= from : t < from) ? -t : t * 5 + (t + 7) % n * 5 * 1024;
  int *d;
  HIP_CHECK(hipMalloc(&d, got.size() * sizeof(int)));
  if (high)
    finish_early<true><<<groups, n>>>(d, from);
  else
    finish_early<false><<<groups, n>>>(d, from);
  LAUNCH_CHECK();
  HIP_CHECK(hipMemcpy(got.data(), d, got.size() * sizeof(int), hipMemcpyDeviceToHost));
  HIP_CHECK(hipFree(d));
  check_equal("finish_early", got.data(), want.data(), got.size());
}

static void run_early(int n, int groups, int from, int below) {
  std::vector<int> got(n * groups, -1), want(n * groups, -1);
  int lo = below ? from : 0, len = below ? n - from : from;
  for (int g = 0; g < groups; g++)
    for (int t = lo; t < lo + len; t++) {
      int u = lo + (t - lo + 1) % len;
      want[g * n + t] = t * 3 + (t < 32) * 2 + 1 + (u * 3 + (u < 32) * 2 + 1) * 1024;
    }
  int *d;
  HIP_CHECK(hipMalloc(&d, got.size() * sizeof(int)));
  HIP_CHECK(hipMemcpy(d, got.data(), got.size() * sizeof(int), hipMemcpyHostToDevice));
  if (below)
    early<true><<<groups, n>>>(d, from);
  else
    early<false><<<groups, n>>>(d, from);
  LAUNCH_CHECK();
  HIP_CHECK(hipMemcpy(got.data(), d, got.size() * sizeof(int), hipMemcpyDeviceToHost));
  HIP_CHECK(hipFree(d));
  check_equal("early", got.data(), want.data(), got.size());
}

static int expect_one(int t, int lim, int big, int neg) {
  return (t < lim) * 1 + (t >= 200) * 2 + (t > 250) * 4 + (t == 17) * 8 + (t <= 3) * 16 + (t < big) * 32 +
         (t < neg) * 64 + ((unsigned)t >= (unsigned)lim) * 128 + (t != 5) * 256;
}

static void run(dim3 block, int groups, int lim, int big, int neg) {
  int n = block.x * block.y, total = n * groups;
  std::vector<int> got(total), want(total);
  for (int g = 0; g < groups; g++)
    for (int t = 0; t < n; t++)
      want[g * n + t] = expect_one(t, lim, big, neg) + expect_one((t + 1) % n, lim, big, neg) * 1024;
  int *d;
  HIP_CHECK(hipMalloc(&d, total * sizeof(int)));
  ranges<<<groups, block>>>(d, lim, big, neg);
  LAUNCH_CHECK();
  HIP_CHECK(hipMemcpy(got.data(), d, total * sizeof(int), hipMemcpyDeviceToHost));
  HIP_CHECK(hipFree(d));
  check_equal("ranges", got.data(), want.data(), total);
}

int main() {
  run(dim3(256), 3, 100, 5000, -3);
  run(dim3(100), 2, 0, 99, 0);       // bounds at and beyond both ends of a 100-item group
  run(dim3(1024), 1, 1024, 1023, 1);
  run(dim3(16, 16), 2, 100, 5000, -3); // two-dimensional: the ordinary loops
  run_early(256, 3, 64, 1);
  run_early(256, 2, 192, 0);
  run_early(128, 2, 64, 0);
  run_finish_early(256, 3, 128, true);
  run_finish_early(256, 2, 64, false);
  passed("clean_guarded_ranges");
  return 0;
}
