// A kernel that calls grid.sync() launched with <<<>>> instead of
// hipLaunchCooperativeKernel: its workgroups are not all running at once, so
// on a GPU it may hang. The emulator stops it with an error that says so
// and what to do; the launch fails (the program's check exits 3).
// RUN: %run %{exe} | FileCheck %s --implicit-check-not='ERROR: AddressSanitizer'
// RUN: env LDSAN_OPTIONS=emu_fibers=1 %run %{exe} | FileCheck %s --implicit-check-not='ERROR: AddressSanitizer'
// CHECK-NOT: ldsan-emu: error:
// CHECK: ldsan-emu: error:{{.*}}was not launched with hipLaunchCooperativeKernel
// CHECK: ldsan-test: exit 3
#include "common.h"  // hip_runtime.h first: ROCm 5.2's cooperative groups header needs it
#include <hip/hip_cooperative_groups.h>

namespace cg = cooperative_groups;

__global__ void needs_grid(int *out) {
  out[blockIdx.x * 64 + threadIdx.x] = 1;
  cg::this_grid().sync();
  out[blockIdx.x * 64 + threadIdx.x] += out[((blockIdx.x + 1) % gridDim.x) * 64 + threadIdx.x];
}

int main() {
  int *d;
  HIP_CHECK(hipMalloc(&d, 64 * 64 * sizeof(int)));
  needs_grid<<<64, 64>>>(d);
  LAUNCH_CHECK();
  printf("not reached\n");
  return 0;
}
