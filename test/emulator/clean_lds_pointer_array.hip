// Clean: LDS pointers kept in private memory (an array of address_space(3)
// pointers, indexed per work-item). The emulator lays such an array out with
// 4-byte elements, as the device does; code generation used to store and index
// them as 8-byte ones (LLVM's C API emitter replaced the module's data layout
// with the target's), so pointers overwrote each other: wrong values, and a
// false lds-buffer-underflow.
// RUN: %run %{exe} | FileCheck %s --implicit-check-not='ERROR: AddressSanitizer' --implicit-check-not='ldsan-emu: error:'
// RUN: env LDSAN_OPTIONS=emu_fibers=1 %run %{exe} | FileCheck %s --implicit-check-not='ERROR: AddressSanitizer' --implicit-check-not='ldsan-emu: error:'
// RUN: %run %{exe:lds-only+wave32} | FileCheck %s --implicit-check-not='ERROR: AddressSanitizer' --implicit-check-not='ldsan-emu: error:'
// RUN: env LDSAN_OPTIONS=emu_fibers=1 %run %{exe:lds-only+wave32} | FileCheck %s --implicit-check-not='ERROR: AddressSanitizer' --implicit-check-not='ldsan-emu: error:'
// CHECK: ldsan-test: stdout:
// CHECK: clean_lds_pointer_array: PASSED
// CHECK: ldsan-test: exit 0
#include "common.h"

typedef __attribute__((address_space(3))) int lds_int;

__global__ void pick(int *out, int shift) {
  __shared__ int a[64];
  __shared__ int b[64];
  lds_int *volatile ptrs[4];  // volatile: kept in memory, not promoted to registers
  ptrs[0] = (lds_int *)a;
  ptrs[1] = (lds_int *)b;
  ptrs[2] = (lds_int *)a + 1;
  ptrs[3] = (lds_int *)b + 1;
  a[threadIdx.x] = threadIdx.x;
  b[threadIdx.x] = 100 + threadIdx.x;
  __syncthreads();
  out[threadIdx.x] = ptrs[(threadIdx.x + shift) & 3][0];
}

int main() {
  const int n = 64;
  int *d;
  HIP_CHECK(hipMalloc(&d, n * sizeof(int)));
  pick<<<1, n>>>(d, 1);
  LAUNCH_CHECK();
  int got[n], want[n];
  HIP_CHECK(hipMemcpy(got, d, sizeof got, hipMemcpyDeviceToHost));
  const int first[4] = {0, 100, 1, 101};  // a[0], b[0], a[1], b[1]
  for (int t = 0; t < n; t++) want[t] = first[(t + 1) & 3];
  check_equal("pick", got, want, n);
  HIP_CHECK(hipFree(d));
  printf("clean_lds_pointer_array: PASSED\n");
  return 0;
}
