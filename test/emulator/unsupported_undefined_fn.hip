// A kernel calls a __device__ function that is declared but defined in no
// file of the build (without -fgpu-rdc another file's definition cannot be
// linked either): the build fails naming the function, the line and the
// kernel that call it (not the LDS checks' copy of the kernel), and what to
// do; the hint about unoptimized code, which is for unsupported intrinsics,
// is not given.
// RUN: cd %repo && not %ldsan-cc --emulate -O0 test/emulator/unsupported_undefined_fn.hip -o %t 2>&1 | FileCheck %s --implicit-check-not='hint: the device code was compiled without optimization'
// CHECK: error: test/emulator/unsupported_undefined_fn.hip:[[@LINE+7]]: device function 'scale_by_lane' is used but not defined in the device code (nor provided by the emulator): define it in this file, or build every file with -fgpu-rdc and link the one that defines it (in function 'scale(int*)')
#include "common.h"

extern "C" __device__ int scale_by_lane(int v);

__global__ void scale(int *out) {
  int t = threadIdx.x;
  out[t] = scale_by_lane(t);
}

int main() {
  int *d;
  HIP_CHECK(hipMalloc(&d, 64 * sizeof(int)));
  scale<<<1, 64>>>(d);
  LAUNCH_CHECK();
  passed("unsupported_undefined_fn");
  return 0;
}
