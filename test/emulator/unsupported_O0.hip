// Unoptimized (-O0) build whose kernel reaches an intrinsic the emulator
// cannot run (s.getreg of a hardware register) only through a function pointer: a __device__
// table (a global initializer) holds the function's address. Unused device
// code is ignored at -O0 (clean_O0.hip), but code reachable through an
// address must still fail the build, naming the intrinsic and the function.
// RUN: cd %repo && not %ldsan-cc --emulate -O0 test/emulator/unsupported_O0.hip -o %t 2>&1 | FileCheck %s
// CHECK: error: test/emulator/unsupported_O0.hip:[[@LINE+6]]: intrinsic llvm.amdgcn.s.getreg is not supported by the CPU emulator (in function 'swap_pairs(int)')
// CHECK: the device code of test/emulator/unsupported_O0.hip cannot run on the CPU emulator; change what is named above, or build for a GPU
// CHECK: hint: the device code was compiled without optimization
#include "common.h"

__device__ __noinline__ int same(int v) { return v; }
__device__ __noinline__ int swap_pairs(int v) { return v + (int)__builtin_amdgcn_s_getreg(0xf804) /* HW_ID */; }
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
  passed("unsupported_O0");
  return 0;
}
