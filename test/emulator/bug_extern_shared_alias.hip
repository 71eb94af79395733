// Bug: two aliased extern __shared__ arrays; the launch gives blockDim.x ints,
// but the kernel reads blockDim.x 64-bit words through the second alias (twice
// the bytes). The first read past the end is by work-item n/2 (its word starts
// exactly at the end of dynamic LDS): the alias is bounded by the same dynamic
// size as the first array, not placed after it.
// RUN: %run %{exe} | FileCheck %s
// RUN: env LDSAN_OPTIONS=emu_fibers=1 %run %{exe} | FileCheck %s
// RUN: %run %{exe:lds-only} | FileCheck %s
// RUN: env LDSAN_OPTIONS=emu_fibers=1 %run %{exe:lds-only} | FileCheck %s
// RUN: %run %{exe:lds-only+wave32} | FileCheck %s
// RUN: env LDSAN_OPTIONS=emu_fibers=1 %run %{exe:lds-only+wave32} | FileCheck %s
// RUN: env LDSAN_OPTIONS=report_format=json %run %{exe} | FileCheck %s --check-prefix=JSON
// RUN: env LDSAN_OPTIONS=report_format=json %run %{exe:lds-only} | FileCheck %s --check-prefix=JSON
// RUN: env LDSAN_OPTIONS=report_format=json %run %{exe:lds-only+wave32} | FileCheck %s --check-prefix=JSON
// CHECK-NOT: ERROR: AddressSanitizer
// CHECK: ERROR: AddressSanitizer: dynamic-lds-buffer-overflow on
// CHECK: {{^}}READ of size 8 at{{.*}} of workgroup (0,0,0){{.*}} in kernel widen
// CHECK: {{^0x[0-9a-f]+ }}{{.*}}0 bytes after the end of dynamic LDS of size 256
// CHECK: SUMMARY: AddressSanitizer: dynamic-lds-buffer-overflow
// CHECK: ldsan-test: exit 1
// JSON-NOT: {"ldsan_report"
// JSON: {"ldsan_report":1,
// JSON-SAME: "type":"dynamic-lds-buffer-overflow"
// JSON-SAME: "kernel":"widen
// JSON-SAME: "access":"read","size":8,
// JSON-SAME: "workgroup":[0,0,0]
#include "common.h"

__global__ void widen(const int *in, long long *out) {
  extern __shared__ int words[];
  extern __shared__ long long wide[];
  int t = threadIdx.x;
  words[t] = in[t];
  __syncthreads();
  if (t >= blockDim.x / 2 && t != blockDim.x / 2) return;  // one reader past the end
  out[t] = wide[t];  // BUG: wide has blockDim.x / 2 elements
}

int main() {
  const int n = 64;
  int *din;
  long long *dout;
  HIP_CHECK(hipMalloc(&din, n * sizeof(int)));
  HIP_CHECK(hipMalloc(&dout, n * sizeof(long long)));
  HIP_CHECK(hipMemset(din, 0, n * sizeof(int)));
  widen<<<1, n, n * sizeof(int)>>>(din, dout);
  LAUNCH_CHECK();
  printf("bug_extern_shared_alias: no error detected\n");
  return 0;
}
