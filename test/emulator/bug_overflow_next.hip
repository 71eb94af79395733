// Bug: a 65-work-item workgroup fills a 64-element LDS array; work-item 64
// writes one past its end, into the redzone before the next LDS variable.
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
// CHECK: ERROR: AddressSanitizer: lds-buffer-overflow on
// CHECK: {{^}}WRITE of size 4 at{{.*}} thread (work-item) (64,0,0){{.*}} of workgroup (0,0,0){{.*}} in kernel fill_both
// CHECK: {{^    #0 0x[0-9a-f]+ }}in fill_both(int*) test/emulator/bug_overflow_next.hip:[[@LINE+22]]:8{{(:[0-9]+)?$}}
// CHECK-NOT: {{^ *#[0-9]+ }}
// CHECK: launched by host code here:
// CHECK-NEXT: {{^ *#0 0x[0-9a-f]+ }}in main test/emulator/bug_overflow_next.hip:[[@LINE+28]]{{(:[0-9]+)?$}}
// CHECK: {{^0x[0-9a-f]+ }}{{[^']*}}0 bytes after{{[^']*}}'a'
// CHECK: SUMMARY: AddressSanitizer: lds-buffer-overflow
// CHECK: ldsan-test: exit 1
// JSON-NOT: {"ldsan_report"
// JSON: {"ldsan_report":1,
// JSON-SAME: "type":"lds-buffer-overflow"
// JSON-SAME: "kernel":"fill_both
// JSON-SAME: "variable":"a"
// JSON-SAME: "access":"write","size":4,
// JSON-SAME: "workgroup":[0,0,0]
// JSON-SAME: "threads":{{\[\[}}64,0,0]
// JSON-SAME: "location":"test/emulator/bug_overflow_next.hip:[[@LINE+7]]:8
#include "common.h"

__global__ void fill_both(int *out) {
  __shared__ int a[64];
  __shared__ int b[64];
  int t = threadIdx.x;
  a[t] = t;  // BUG: blockDim.x is 65
  if (t < 64) b[t] = -t;
  __syncthreads();
  if (t < 64) out[t] = a[t] + b[63 - t];
}

int main() {
  int *d;
  HIP_CHECK(hipMalloc(&d, 64 * sizeof(int)));
  fill_both<<<1, 65>>>(d);
  LAUNCH_CHECK();
  printf("bug_overflow_next: no error detected\n");
  return 0;
}
