// Stall detector, no false alarm: kernels that run several times longer than
// emu_stall_timeout=1 but keep passing barriers (one workgroup, a loop with a
// barrier per round) or finishing workgroups (many short workgroups, no
// barrier) finish, with the right results. Each launch is sized on this
// machine (a short one timed, then scaled) to take about 3 s; a kernel with
// no progress for 2 s would have been stopped.
// RUN: env LDSAN_RUN_TIMEOUT=60 LDSAN_OPTIONS=emu_threads=1:emu_stall_timeout=1 %run %{exe} | FileCheck %s
// RUN: env LDSAN_RUN_TIMEOUT=60 LDSAN_OPTIONS=emu_threads=1:emu_stall_timeout=1:emu_fibers=1 %run %{exe} | FileCheck %s
// CHECK-NOT: ldsan-emu:
// CHECK: ldsan-test: stdout:
// CHECK-NEXT: stall_slow_progress: barrier_loop ran long enough
// CHECK-NEXT: stall_slow_progress: many_groups ran long enough
// CHECK-NEXT: stall_slow_progress: PASSED
// CHECK-NEXT: ldsan-test: exit 0
#include <time.h>
#include <vector>
#include "common.h"

#define WG 64
#define TARGET_S 3.0
#define ENOUGH_S 2.5

// 2 * rounds barriers; out[t] = the sum over rounds of the neighbour's value.
__global__ void barrier_loop(int rounds, unsigned *out) {
  __shared__ unsigned tile[WG];
  unsigned t = threadIdx.x, acc = 0;
  for (int r = 0; r < rounds; r++) {
    tile[t] = (unsigned)r + t;
    __syncthreads();
    acc += tile[(t + 1) % WG];
    __syncthreads();
  }
  out[t] = acc;
}

// No barrier: each work-item sums (i + k) & 7 for k < work.
__global__ void many_groups(int work, unsigned *out) {
  unsigned i = blockIdx.x * WG + threadIdx.x, acc = 0;
  for (int k = 0; k < work; k++) acc += (i + (unsigned)k) & 7;
  out[i] = acc;
}

// many_groups' out[i] (the terms repeat every 8).
static unsigned many_groups_want(unsigned i, int work) {
  unsigned want = (unsigned)(work / 8) * 28;
  for (int k = 0; k < work % 8; k++) want += (i + (unsigned)k) & 7;
  return want;
}

static double now(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return t.tv_sec + t.tv_nsec * 1e-9;
}

static double run_barrier_loop(int rounds, unsigned *d) {
  double t0 = now();
  barrier_loop<<<1, WG>>>(rounds, d);
  LAUNCH_CHECK();
  return now() - t0;
}

static double run_many_groups(int groups, int work, unsigned *d) {
  double t0 = now();
  many_groups<<<groups, WG>>>(work, d);
  LAUNCH_CHECK();
  return now() - t0;
}

int main() {
  const int work = 20000;
  const int max_groups = 1 << 16;
  unsigned *d;
  HIP_CHECK(hipMalloc(&d, (size_t)max_groups * WG * sizeof(unsigned)));

  // barrier_loop: double the rounds until a launch takes 0.2 s, then scale to TARGET_S.
  int rounds = 64;
  double t;
  while ((t = run_barrier_loop(rounds, d)) < 0.2 && rounds < (1 << 28)) rounds *= 2;
  for (int tries = 0; tries < 3 && t < ENOUGH_S; tries++) {
    rounds = (int)(rounds * (TARGET_S / t));
    t = run_barrier_loop(rounds, d);
  }
  std::vector<unsigned> got(WG);
  HIP_CHECK(hipMemcpy(got.data(), d, WG * sizeof(unsigned), hipMemcpyDeviceToHost));
  for (int i = 0; i < WG; i++) {
    unsigned want = 0;
    for (int r = 0; r < rounds; r++) want += (unsigned)r + (unsigned)(i + 1) % WG;
    if (got[i] != want) {
      printf("stall_slow_progress: barrier_loop out[%d] = %u, expected %u\n", i, got[i], want);
      return 1;
    }
  }
  printf("stall_slow_progress: barrier_loop ran %s\n", t >= ENOUGH_S ? "long enough" : "too short");
  fprintf(stderr, "barrier_loop: %d rounds in %.2f s\n", rounds, t);

  // many_groups: the same with the number of workgroups.
  int groups = 16;
  while ((t = run_many_groups(groups, work, d)) < 0.2 && groups < max_groups) groups *= 2;
  for (int tries = 0; tries < 3 && t < ENOUGH_S; tries++) {
    long long g = (long long)(groups * (TARGET_S / t));
    groups = g > max_groups ? max_groups : (int)g;
    t = run_many_groups(groups, work, d);
  }
  got.resize((size_t)groups * WG);
  HIP_CHECK(hipMemcpy(got.data(), d, got.size() * sizeof(unsigned), hipMemcpyDeviceToHost));
  for (size_t i = 0; i < got.size(); i++) {
    unsigned want = many_groups_want((unsigned)i, work);
    if (got[i] != want) {
      printf("stall_slow_progress: many_groups out[%zu] = %u, expected %u\n", i, got[i], want);
      return 1;
    }
  }
  printf("stall_slow_progress: many_groups ran %s\n", t >= ENOUGH_S ? "long enough" : "too short");
  fprintf(stderr, "many_groups: %d workgroups in %.2f s\n", groups, t);
  printf("stall_slow_progress: PASSED\n");
  return 0;
}
