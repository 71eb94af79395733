// Clean: 3-D grid of 3-D workgroups; each workgroup's LDS is its own (every
// workgroup writes its id into the same LDS variable and must read it back),
// and every id intrinsic is checked.
// RUN: %run %{exe} | FileCheck %s --implicit-check-not='ERROR: AddressSanitizer' --implicit-check-not='ldsan-emu: error:'
// RUN: env LDSAN_OPTIONS=emu_fibers=1 %run %{exe} | FileCheck %s --implicit-check-not='ERROR: AddressSanitizer' --implicit-check-not='ldsan-emu: error:'
// RUN: %run %{exe:lds-only+wave32} | FileCheck %s --implicit-check-not='ERROR: AddressSanitizer' --implicit-check-not='ldsan-emu: error:'
// RUN: env LDSAN_OPTIONS=emu_fibers=1 %run %{exe:lds-only+wave32} | FileCheck %s --implicit-check-not='ERROR: AddressSanitizer' --implicit-check-not='ldsan-emu: error:'
// The emulator's environment variables of old still work, with a note naming the option.
// RUN: env LDSAN_EMU_FIBERS=1 LDSAN_EMU_THREADS=2 %run %{exe} | FileCheck %s --check-prefixes=LEGACY,CHECK --implicit-check-not='ERROR: AddressSanitizer'
// LEGACY: ldsan: note: environment variable LDSAN_EMU_FIBERS is deprecated; use LDSAN_OPTIONS=emu_fibers=1 instead (LDSAN_OPTIONS wins where both are set)
// LEGACY-NEXT: ldsan: note: environment variable LDSAN_EMU_THREADS is deprecated; use LDSAN_OPTIONS=emu_threads=2 instead
// CHECK: ldsan-test: stdout:
// CHECK: clean_grid3d: PASSED
// CHECK: ldsan-test: exit 0
#include "common.h"

__global__ void ids(unsigned *out) {
  __shared__ unsigned wg[4 * 3 * 2];
  unsigned local = threadIdx.x + blockDim.x * (threadIdx.y + blockDim.y * threadIdx.z);
  unsigned group = blockIdx.x + gridDim.x * (blockIdx.y + gridDim.y * blockIdx.z);
  wg[local] = group * 1000 + local;
  __syncthreads();
  unsigned other = (local + 1) % (blockDim.x * blockDim.y * blockDim.z);
  out[group * 24 + local] = wg[other];
}

int main() {
  const int groups = 3 * 2 * 5;
  static unsigned got[groups * 24], want[groups * 24];
  for (int g = 0; g < groups; g++)
    for (int l = 0; l < 24; l++) want[g * 24 + l] = g * 1000 + (l + 1) % 24;
  unsigned *d;
  HIP_CHECK(hipMalloc(&d, sizeof got));
  ids<<<dim3(3, 2, 5), dim3(4, 3, 2)>>>(d);
  LAUNCH_CHECK();
  HIP_CHECK(hipMemcpy(got, d, sizeof got, hipMemcpyDeviceToHost));
  check_equal("ids", got, want, groups * 24);
  passed("clean_grid3d");
  return 0;
}
