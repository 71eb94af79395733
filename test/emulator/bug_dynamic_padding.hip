// Bug: a 13-byte dynamic LDS buffer (the launch's size, not a multiple of 8)
// read one byte past its end. That byte lies inside the 8-byte granule the
// buffer ends in, where ASan's shadow says "5 bytes addressable": the overrun
// is caught to the byte, not at the next granule or the compiler's padding.
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
// CHECK: {{^}}READ of size 1 at{{.*}} thread (work-item) (3,0,0){{.*}} in kernel tail_byte
// CHECK: {{^0x[0-9a-f]+ }}{{.*}}0 bytes after the end of dynamic LDS of size 13
// CHECK: SUMMARY: AddressSanitizer: dynamic-lds-buffer-overflow
// CHECK: ldsan-test: exit 1
// JSON-NOT: {"ldsan_report"
// JSON: {"ldsan_report":1,
// JSON-SAME: "type":"dynamic-lds-buffer-overflow"
// JSON-SAME: "kernel":"tail_byte
// JSON-SAME: "access":"read","size":1,
// JSON-SAME: "threads":{{\[\[}}3,0,0]
#include "common.h"

__global__ void tail_byte(const char *in, char *out, int n) {
  extern __shared__ char bytes[];
  int t = threadIdx.x;
  if (t < n) bytes[t] = in[t];
  __syncthreads();
  if (t == 3) out[0] = bytes[n];  // BUG: bytes[13] of a 13-byte buffer
}

int main() {
  const int n = 13;
  char *din, *dout;
  HIP_CHECK(hipMalloc(&din, 64));
  HIP_CHECK(hipMalloc(&dout, 64));
  HIP_CHECK(hipMemset(din, 1, 64));
  tail_byte<<<1, 64, n>>>(din, dout, n);
  LAUNCH_CHECK();
  printf("bug_dynamic_padding: no error detected\n");
  return 0;
}
