// Clean: over-aligned LDS variables (alignas(64), alignas(256)) sit at
// addresses with that alignment in the workgroup's block, as on the GPU, and
// are used to their last byte.
// RUN: %run %{exe} | FileCheck %s --implicit-check-not='ERROR: AddressSanitizer' --implicit-check-not='ldsan-emu: error:'
// RUN: env LDSAN_OPTIONS=emu_fibers=1 %run %{exe} | FileCheck %s --implicit-check-not='ERROR: AddressSanitizer' --implicit-check-not='ldsan-emu: error:'
// RUN: %run %{exe:lds-only+wave32} | FileCheck %s --implicit-check-not='ERROR: AddressSanitizer' --implicit-check-not='ldsan-emu: error:'
// RUN: env LDSAN_OPTIONS=emu_fibers=1 %run %{exe:lds-only+wave32} | FileCheck %s --implicit-check-not='ERROR: AddressSanitizer' --implicit-check-not='ldsan-emu: error:'
// RUN: %run %{exe:lds-only} | FileCheck %s --implicit-check-not='ERROR: AddressSanitizer' --implicit-check-not='ldsan-emu: error:'
// RUN: env LDSAN_OPTIONS=emu_fibers=1 %run %{exe:lds-only} | FileCheck %s --implicit-check-not='ERROR: AddressSanitizer' --implicit-check-not='ldsan-emu: error:'
// CHECK: ldsan-test: stdout:
// CHECK: clean_aligned_lds: PASSED
// CHECK: ldsan-test: exit 0
#include "common.h"
#include <stdint.h>

struct alignas(64) line { float v[3]; };

__global__ void aligned(int *out) {
  __shared__ char c[3];
  __shared__ line l[2];
  __shared__ alignas(256) int q[5];
  __shared__ alignas(128) double d;
  int t = threadIdx.x;
  if (t < 3) c[t] = (char)t;
  if (t < 2) l[t].v[2] = 1.5f * t;
  if (t < 5) q[t] = 10 * t;
  if (t == 0) d = 2.5;
  __syncthreads();
  if (t == 0) {
    out[0] = (int)((uintptr_t)&l[0] % 64);
    out[1] = (int)((uintptr_t)&q[0] % 256);
    out[2] = (int)((uintptr_t)&d % 128);
    out[3] = c[2] + (int)(l[1].v[2] * 2) + q[4] + (int)(d * 2);
  }
}

int main() {
  int *d;
  HIP_CHECK(hipMalloc(&d, 4 * sizeof(int)));
  for (int launch = 0; launch < 3; launch++) {  // later launches reuse cached chunks
    aligned<<<4, 64>>>(d);
    LAUNCH_CHECK();
    int got[4];
    HIP_CHECK(hipMemcpy(got, d, sizeof got, hipMemcpyDeviceToHost));
    const int want[4] = {0, 0, 0, 2 + 3 + 40 + 5};
    check_equal("aligned", got, want, 4);
  }
  HIP_CHECK(hipFree(d));
  printf("clean_aligned_lds: PASSED\n");
  return 0;
}
