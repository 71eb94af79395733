// Stall detector: workgroup 0 waits for a flag that workgroup 1 sets. HIP does
// not promise that the two run at the same time (only cooperative launches
// do); on the emulator with one worker they run one after another, so
// workgroup 0 waits forever. After emu_stall_timeout seconds with no barrier
// passed and no workgroup finished, the emulator names the kernel, its grid,
// the running workgroup, the source line it spins at and (fibers) the
// work-item and how the others wait, prints the LDS reports recorded so far,
// and ends the program with status exitcode (also with the emulator built
// with ASan+UBSan). Modes: spin (work-item loops),
// sleep (an s_sleep in the wait: fibers), volatile (a volatile load: lockstep
// waves), race (an LDS race before the wait), coop (a cooperative launch
// whose workgroup 0 returns before the grid.sync() the others wait at). LDSAN_RUN_TIMEOUT keeps a
// hang (no detector) from holding the suite for long.
// RUN: env LDSAN_RUN_TIMEOUT=30 LDSAN_OPTIONS=emu_threads=1:emu_stall_timeout=2 %run %{exe} spin | FileCheck %s --check-prefixes=CHECK,SPIN,LOOPS
// RUN: env LDSAN_RUN_TIMEOUT=30 LDSAN_OPTIONS=emu_threads=1:emu_stall_timeout=1:emu_fibers=1 %run %{exe} spin | FileCheck %s --check-prefixes=CHECK,SPIN1,FIBER
// RUN: env LDSAN_RUN_TIMEOUT=30 LDSAN_OPTIONS=emu_threads=1:emu_stall_timeout=1 %run %{exe} sleep | FileCheck %s --check-prefixes=CHECK,SLEEP
// RUN: env LDSAN_RUN_TIMEOUT=30 LDSAN_OPTIONS=emu_threads=1:emu_stall_timeout=1 %run %{exe:sanitized} sleep | FileCheck %s --check-prefixes=CHECK,SLEEP
// RUN: env LDSAN_RUN_TIMEOUT=30 LDSAN_OPTIONS=emu_threads=1:emu_stall_timeout=1 %run %{exe} volatile | FileCheck %s --check-prefixes=CHECK,VOLATILE,LOOPS
// RUN: env LDSAN_RUN_TIMEOUT=30 LDSAN_OPTIONS=emu_threads=1:emu_stall_timeout=1:emu_fibers=1 %run %{exe} volatile | FileCheck %s --check-prefixes=CHECK,VOLATILE,LANES
// RUN: env LDSAN_RUN_TIMEOUT=30 LDSAN_OPTIONS=emu_threads=1:emu_stall_timeout=1:exitcode=7 %run %{exe:lds-only} spin | FileCheck %s --check-prefix=EXITCODE
// RUN: env LDSAN_RUN_TIMEOUT=30 LDSAN_OPTIONS=emu_threads=1:emu_stall_timeout=1:detect_races=1 %run %{exe} race | FileCheck %s --check-prefix=RACE
// RUN: env LDSAN_RUN_TIMEOUT=30 LDSAN_OPTIONS=emu_threads=1:emu_stall_timeout=1:detect_races=1:emu_fibers=1 %run %{exe} race | FileCheck %s --check-prefix=RACE
// RUN: env LDSAN_RUN_TIMEOUT=30 LDSAN_OPTIONS=emu_stall_timeout=1 %run %{exe} coop | FileCheck %s --check-prefix=COOP
// CHECK-NOT: ldsan-emu:
// SPIN: {{^}}ldsan-emu: error: kernel 'wait_for_next(int*, int*)' <<<(2,1,1), (64,1,1)>>> made no progress for 2 s (no barrier passed, no workgroup finished); of its 2 workgroups 0 finished, 1 running, 1 not started (1 worker thread){{$}}
// SPIN1: {{^}}ldsan-emu: error: kernel 'wait_for_next(int*, int*)' <<<(2,1,1), (64,1,1)>>> made no progress for 1 s
// SLEEP: {{^}}ldsan-emu: error: kernel 'wait_sleeping(int*, int*)' <<<(2,1,1), (64,1,1)>>> made no progress for 1 s
// VOLATILE: {{^}}ldsan-emu: error: kernel 'wait_volatile(int volatile*, int*)' <<<(2,1,1), (64,1,1)>>> made no progress for 1 s
// LOOPS-NEXT: {{^}}ldsan-emu: workgroup (0,0,0) is running{{$}}
// FIBER-NEXT: {{^}}ldsan-emu: workgroup (0,0,0): work-item (63,0,0) is running; of the others 63 wait at a barrier{{$}}
// SLEEP-NEXT: {{^}}ldsan-emu: workgroup (0,0,0): work-item (63,0,0) is running; of the others 63 wait at a barrier{{$}}
// LANES-NEXT: {{^}}ldsan-emu: workgroup (0,0,0): work-item (63,0,0) is running; of the others 63 wait for the other lanes of their wave{{$}}
// SPIN-NEXT: {{^    #0 0x[0-9a-f]+ in wait_for_next\(int\*, int\*\) test/emulator/stall_cross_workgroup.hip:}}[[@LINE+48]]
// SPIN1-NEXT: {{^    #0 0x[0-9a-f]+ in wait_for_next\(int\*, int\*\) test/emulator/stall_cross_workgroup.hip:}}[[@LINE+47]]
// SLEEP-NEXT: {{^    #0 0x[0-9a-f]+ in wait_sleeping\(int\*, int\*\) test/emulator/stall_cross_workgroup.hip:}}[[@LINE+58]]
// VOLATILE-NEXT: {{^    #0 0x[0-9a-f]+ in wait_volatile\(int volatile\*, int\*\) test/emulator/stall_cross_workgroup.hip:}}[[@LINE+70]]
// LOOPS-NEXT: {{^}}ldsan-emu: (the kernel runs as work-item loops, which run a workgroup's work-items one after another and do not say which one is running; LDSAN_OPTIONS=emu_fibers=1 names it){{$}}
// CHECK-NEXT: {{^}}ldsan-emu: HIP does not promise that the workgroups of a dispatch run at the same time (only hipLaunchCooperativeKernel does)
// CHECK-NEXT: {{^}}ldsan-emu: the stalled kernel ends the process{{$}}
// CHECK-NEXT: ldsan-test: stdout:
// CHECK-NEXT: stall_cross_workgroup: launching
// CHECK-NEXT: ldsan-test: exit 1
// EXITCODE: ldsan-emu: error: kernel 'wait_for_next(int*, int*)' {{.*}} made no progress for 1 s
// EXITCODE: ldsan-emu: the stalled kernel ends the process
// EXITCODE-NEXT: ldsan-test: stdout:
// EXITCODE-NEXT: stall_cross_workgroup: launching
// EXITCODE-NEXT: ldsan-test: exit 7
// The race found before the wait is reported after the stall, then the program ends.
// RACE: ldsan-emu: error: kernel 'wait_racy(int*, int*)' {{.*}} made no progress for 1 s
// RACE: {{^    #0 0x[0-9a-f]+ in wait_racy\(int\*, int\*\) test/emulator/stall_cross_workgroup.hip:}}[[@LINE+70]]
// RACE: WARNING: ldsan: lds-data-race in kernel wait_racy(int*, int*): write-after-write within one wave by work-items (1,0,0) and (0,0,0)
// RACE: SUMMARY: ldsan: lds-data-race test/emulator/stall_cross_workgroup.hip:[[@LINE+65]]
// RACE-NEXT: ldsan-emu: the stalled kernel ends the process
// RACE-NEXT: ldsan-test: stdout:
// RACE-NEXT: stall_cross_workgroup: launching
// RACE-NEXT: ldsan-test: exit 1
// COOP-NOT: ldsan-emu:
// COOP: {{^}}ldsan-emu: error: kernel 'skip_sync(int*)' <<<(4,1,1), (64,1,1)>>> made no progress for 1 s (no barrier passed, no workgroup finished); of its 4 workgroups 1 finished, 3 running, 0 not started (4 worker threads){{$}}
// COOP-NEXT: {{^}}ldsan-emu: workgroup (1,0,0) waits at the grid-wide barrier (grid.sync()) for the other workgroups{{$}}
// COOP-NEXT: {{^}}ldsan-emu: workgroup (2,0,0) waits at the grid-wide barrier
// COOP-NEXT: {{^}}ldsan-emu: workgroup (3,0,0) waits at the grid-wide barrier
// COOP-NEXT: {{^}}ldsan-emu: the workgroups of a cooperative launch run at the same time, and each grid.sync() waits until every one of them gets there
// COOP-NEXT: {{^}}ldsan-emu: the stalled kernel ends the process{{$}}
// COOP-NEXT: ldsan-test: stdout:
// COOP-NEXT: stall_cross_workgroup: launching
// COOP-NEXT: ldsan-test: exit 1
// FIBERS: _Z13wait_sleepingPiS_
#include <string.h>
#include "common.h"  // hip_runtime.h first: ROCm 5.2's cooperative groups header needs it
#include <hip/hip_cooperative_groups.h>

#define WG 64

// Work-item 63 waits before the barrier, so that the others wait at it (the
// same with work-item loops and fibers).
__global__ void wait_for_next(int *flag, int *out) {
  __shared__ int tile[WG];
  unsigned t = threadIdx.x;
  tile[t] = (int)t;
  if (blockIdx.x == 0 && t == WG - 1)
    while (__atomic_load_n(flag, __ATOMIC_RELAXED) == 0) {}
  __syncthreads();
  if (blockIdx.x == 1 && t == 0) __atomic_store_n(flag, 1, __ATOMIC_RELAXED);
  out[blockIdx.x * WG + t] = tile[WG - 1 - t];
}

// The same wait, yielding as GPU spin-waits do (the kernel runs as fibers).
__global__ void wait_sleeping(int *flag, int *out) {
  __shared__ int tile[WG];
  unsigned t = threadIdx.x;
  tile[t] = (int)t;
  if (blockIdx.x == 0 && t == WG - 1)
    while (__atomic_load_n(flag, __ATOMIC_RELAXED) == 0) __builtin_amdgcn_s_sleep(1);
  __syncthreads();
  if (blockIdx.x == 1 && t == 0) __atomic_store_n(flag, 1, __ATOMIC_RELAXED);
  out[blockIdx.x * WG + t] = tile[WG - 1 - t];
}

// The wait as a volatile load, which puts the kernel's waves in lockstep: the
// other lanes of the wave wait where the branch joins.
__global__ void wait_volatile(volatile int *flag, int *out) {
  __shared__ int tile[WG];
  unsigned t = threadIdx.x;
  tile[t] = (int)t;
  if (blockIdx.x == 0 && t == WG - 1)
    while (*flag == 0) {}
  __syncthreads();
  if (blockIdx.x == 1 && t == 0) *flag = 1;
  out[blockIdx.x * WG + t] = tile[WG - 1 - t];
}

// The wait after an LDS race (work-items 0 and 1 write tile[0]) that
// detect_races found at the barrier before it.
__global__ void wait_racy(int *flag, int *out) {
  __shared__ int tile[WG];
  unsigned t = threadIdx.x;
  tile[t < 2 ? 0 : t] = (int)t;
  __syncthreads();
  if (blockIdx.x == 0 && t == WG - 1)
    while (__atomic_load_n(flag, __ATOMIC_RELAXED) == 0) {}
  __syncthreads();
  if (blockIdx.x == 1 && t == 0) __atomic_store_n(flag, 1, __ATOMIC_RELAXED);
  out[blockIdx.x * WG + t] = tile[WG - 1 - t];
}

// Workgroup 0 returns; the others wait at the grid-wide barrier for it.
__global__ void skip_sync(int *out) {
  cooperative_groups::grid_group grid = cooperative_groups::this_grid();
  if (blockIdx.x == 0) return;
  out[blockIdx.x] = 1;
  grid.sync();
  out[blockIdx.x] += 1;
}

int main(int argc, char **argv) {
  const char *mode = argc > 1 ? argv[1] : "spin";
  int *flag, *out;
  HIP_CHECK(hipMalloc(&flag, sizeof(int)));
  HIP_CHECK(hipMalloc(&out, 2 * WG * sizeof(int)));
  HIP_CHECK(hipMemset(flag, 0, sizeof(int)));
  printf("stall_cross_workgroup: launching\n");
  fflush(stdout);
  if (!strcmp(mode, "sleep")) wait_sleeping<<<2, WG>>>(flag, out);
  else if (!strcmp(mode, "volatile")) wait_volatile<<<2, WG>>>(flag, out);
  else if (!strcmp(mode, "race")) wait_racy<<<2, WG>>>(flag, out);
  else if (!strcmp(mode, "coop")) {
    void *args[] = {&out};
    HIP_CHECK(hipLaunchCooperativeKernel((const void *)skip_sync, dim3(4), dim3(WG), args, 0, 0));
  }
  else wait_for_next<<<2, WG>>>(flag, out);
  LAUNCH_CHECK();
  printf("stall_cross_workgroup: the kernel finished\n");
  return 0;
}
