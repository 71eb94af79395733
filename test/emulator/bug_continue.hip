// Bug, reported without stopping: with LDSAN_OPTIONS=halt_on_error=0 the
// device keeps running after a report, the launch succeeds, and the program
// goes on to its next kernel and exits normally — one report per dispatch
// (the same bug at the same pc in one dispatch is deduplicated).
// RUN: env LDSAN_OPTIONS=halt_on_error=0 %run %{exe} > %t && FileCheck %s < %t && FileCheck %s --check-prefix=REPORTS < %t
// RUN: env LDSAN_OPTIONS=halt_on_error=0:emu_fibers=1 %run %{exe} > %t && FileCheck %s < %t && FileCheck %s --check-prefix=REPORTS < %t
// RUN: env LDSAN_OPTIONS=halt_on_error=0 %run %{exe:lds-only} > %t && FileCheck %s < %t && FileCheck %s --check-prefix=REPORTS < %t
// RUN: env LDSAN_OPTIONS=halt_on_error=0:emu_fibers=1 %run %{exe:lds-only} > %t && FileCheck %s < %t && FileCheck %s --check-prefix=REPORTS < %t
// RUN: env LDSAN_OPTIONS=halt_on_error=0 %run %{exe:lds-only+wave32} > %t && FileCheck %s < %t && FileCheck %s --check-prefix=REPORTS < %t
// RUN: env LDSAN_OPTIONS=halt_on_error=0:emu_fibers=1 %run %{exe:lds-only+wave32} > %t && FileCheck %s < %t && FileCheck %s --check-prefix=REPORTS < %t
// RUN: env LDSAN_OPTIONS=halt_on_error=0:report_format=json %run %{exe} | FileCheck %s --check-prefix=JSON
// RUN: env LDSAN_OPTIONS=halt_on_error=0:report_format=json %run %{exe:lds-only} | FileCheck %s --check-prefix=JSON
// RUN: env LDSAN_OPTIONS=halt_on_error=0:report_format=json %run %{exe:lds-only+wave32} | FileCheck %s --check-prefix=JSON
// CHECK-NOT: ERROR: AddressSanitizer
// CHECK: ERROR: AddressSanitizer: lds-buffer-overflow on
// CHECK: {{^}}WRITE of size 4 at{{.*}} thread (work-item) (32,0,0){{.*}} of workgroup (0,0,0){{.*}} in kernel pad_copy
// CHECK: {{^    #0 0x[0-9a-f]+ }}in pad_copy(int const*, int*) test/emulator/bug_continue.hip:[[@LINE+24]]:10{{(:[0-9]+)?$}}
// CHECK-NOT: {{^ *#[0-9]+ }}
// CHECK: launched by host code here:
// CHECK: {{^0x[0-9a-f]+ }}{{[^']*}}'row'
// CHECK: SUMMARY: AddressSanitizer: lds-buffer-overflow
// CHECK: ldsan-test: stdout:
// CHECK: bug_continue: both launches returned hipSuccess
// CHECK: ldsan-test: exit 0
// REPORTS-COUNT-2: ERROR: AddressSanitizer:
// REPORTS-NOT: ERROR: AddressSanitizer:
// JSON-NOT: {"ldsan_report"
// JSON: {"ldsan_report":1,
// JSON-SAME: "type":"lds-buffer-overflow"
// JSON-SAME: "kernel":"pad_copy
// JSON-SAME: "variable":"row"
// JSON-SAME: "access":"write","size":4,
// JSON-SAME: "workgroup":[0,0,0]
// JSON-SAME: "threads":{{\[\[}}32,0,0]
// JSON-SAME: "location":"test/emulator/bug_continue.hip:[[@LINE+6]]:10
#include "common.h"

__global__ void pad_copy(const int *in, int *out) {
  __shared__ int row[32];
  int t = threadIdx.x;
  row[t] = in[t];  // BUG: blockDim.x is 33
  __syncthreads();
  if (t == 0) {
    int sum = 0;
    for (int i = 0; i < 32; i++) sum += row[i];
    out[0] = sum;
  }
}

int main() {
  int *din, *dout;
  HIP_CHECK(hipMalloc(&din, 33 * sizeof(int)));
  HIP_CHECK(hipMalloc(&dout, sizeof(int)));
  HIP_CHECK(hipMemset(din, 0, 33 * sizeof(int)));
  pad_copy<<<1, 33>>>(din, dout);
  hipError_t first = hipDeviceSynchronize();
  pad_copy<<<1, 33>>>(din, dout);
  hipError_t second = hipDeviceSynchronize();
  if (first == hipSuccess && second == hipSuccess)
    printf("bug_continue: both launches returned hipSuccess\n");
  else
    printf("bug_continue: launches returned %s, %s\n", hipGetErrorName(first), hipGetErrorName(second));
  return 0;
}
