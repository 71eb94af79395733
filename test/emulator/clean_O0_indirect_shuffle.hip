// Unoptimized (-O0) build whose kernel reaches a shuffle (ds.bpermute) only
// through a function pointer: a __device__ table (a global initializer)
// holds the function's address. The emulator must still see that the
// kernel's lanes talk to each other and run its waves in lockstep, so every
// lane gets its neighbour's value. Work-item loops cannot stop inside a call
// they cannot inline, so the kernel runs as fibers.
// RUN: %run %{exe} | FileCheck %s --implicit-check-not='ERROR: AddressSanitizer' --implicit-check-not='ldsan-emu: error:'
// RUN: env LDSAN_OPTIONS=emu_fibers=1 %run %{exe} | FileCheck %s --implicit-check-not='ERROR: AddressSanitizer' --implicit-check-not='ldsan-emu: error:'
// RUN: %run %{exe:lds-only+wave32} | FileCheck %s --implicit-check-not='ERROR: AddressSanitizer' --implicit-check-not='ldsan-emu: error:'
// RUN: env LDSAN_OPTIONS=emu_fibers=1 %run %{exe:lds-only+wave32} | FileCheck %s --implicit-check-not='ERROR: AddressSanitizer' --implicit-check-not='ldsan-emu: error:'
// CHECK: ldsan-test: exit 0
// FIBERS: _Z8indirectPii
// CFLAGS: -O0
#include "common.h"

__device__ __noinline__ int same(int v) { return v; }
__device__ __noinline__ int swap_pairs(int v) { return __builtin_amdgcn_ds_bpermute((int)(threadIdx.x ^ 1) * 4, v); }
__device__ int (*const ops[2])(int) = {same, swap_pairs};

__global__ void indirect(int *out, int which) { out[threadIdx.x] = ops[which & 1]((int)threadIdx.x); }

int main() {
  int got[64];
  int *d;
  HIP_CHECK(hipMalloc(&d, sizeof got));
  indirect<<<1, 64>>>(d, 1);
  LAUNCH_CHECK();
  HIP_CHECK(hipMemcpy(got, d, sizeof got, hipMemcpyDeviceToHost));
  for (int t = 0; t < 64; t++)
    if (got[t] != (t ^ 1)) {
      fprintf(stderr, "lane %d got %d, expected %d\n", t, got[t], t ^ 1);
      return 4;
    }
  passed("clean_O0_indirect_shuffle");
  return 0;
}
