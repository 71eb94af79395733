// Bug: each work-item reads its left neighbour without a bounds check, so
// work-item 0 reads tile[-1], before the first LDS variable (into the padding
// after the compiler's LDS pointer slot).
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
// CHECK: ERROR: AddressSanitizer: lds-buffer-underflow on
// CHECK: {{^}}READ of size 4 at{{.*}} thread (work-item) (0,0,0){{.*}} of workgroup (0,0,0){{.*}} in kernel left_neighbour
// CHECK: {{^    #0 0x[0-9a-f]+ }}in left_neighbour(float const*, float*) test/emulator/bug_underflow.hip:[[@LINE+22]]:12{{(:[0-9]+)?$}}
// CHECK-NOT: {{^ *#[0-9]+ }}
// CHECK: launched by host code here:
// CHECK: SUMMARY: AddressSanitizer: lds-buffer-underflow
// CHECK: ldsan-test: exit 1
// JSON-NOT: {"ldsan_report"
// JSON: {"ldsan_report":1,
// JSON-SAME: "type":"lds-buffer-underflow"
// JSON-SAME: "kernel":"left_neighbour
// JSON-SAME: "access":"read","size":4,
// JSON-SAME: "workgroup":[0,0,0]
// JSON-SAME: "threads":{{\[\[}}0,0,0]
// JSON-SAME: "location":"test/emulator/bug_underflow.hip:[[@LINE+10]]:12
// Built with full debug info (-g) instead of the default line tables.
// CFLAGS: -g
#include "common.h"

__global__ void left_neighbour(const float *in, float *out) {
  __shared__ float tile[128];
  int t = threadIdx.x;
  tile[t] = in[t];
  __syncthreads();
  out[t] = tile[t - 1];  // BUG: t == 0 reads tile[-1]
}

int main() {
  float *din, *dout;
  HIP_CHECK(hipMalloc(&din, 128 * sizeof(float)));
  HIP_CHECK(hipMalloc(&dout, 128 * sizeof(float)));
  HIP_CHECK(hipMemset(din, 0, 128 * sizeof(float)));
  left_neighbour<<<1, 128>>>(din, dout);
  LAUNCH_CHECK();
  printf("bug_underflow: no error detected\n");
  return 0;
}
