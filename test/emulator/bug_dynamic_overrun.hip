// Bug: the launch gives dynamic LDS for blockDim.x floats but the kernel stores
// blockDim.x + 1 (an off-by-one in the host's size computation).
// RUN: %run %{exe} | FileCheck %s
// RUN: env LDSAN_OPTIONS=emu_fibers=1 %run %{exe} | FileCheck %s
// RUN: %run %{exe:lds-only} | FileCheck %s
// RUN: env LDSAN_OPTIONS=emu_fibers=1 %run %{exe:lds-only} | FileCheck %s
// RUN: %run %{exe:lds-only+wave32} | FileCheck %s
// RUN: env LDSAN_OPTIONS=emu_fibers=1 %run %{exe:lds-only+wave32} | FileCheck %s
// RUN: %run %{exe:sanitized} | FileCheck %s
// RUN: env LDSAN_OPTIONS=emu_fibers=1 %run %{exe:sanitized} | FileCheck %s
// RUN: env LDSAN_OPTIONS=report_format=json %run %{exe} | FileCheck %s --check-prefix=JSON
// RUN: env LDSAN_OPTIONS=report_format=json %run %{exe:lds-only} | FileCheck %s --check-prefix=JSON
// RUN: env LDSAN_OPTIONS=report_format=json %run %{exe:lds-only+wave32} | FileCheck %s --check-prefix=JSON
// RUN: env LDSAN_OPTIONS=report_format=json %run %{exe:sanitized} | FileCheck %s --check-prefix=JSON
// CHECK-NOT: ERROR: AddressSanitizer
// CHECK: ERROR: AddressSanitizer: dynamic-lds-buffer-overflow on
// CHECK: {{^}}WRITE of size 4 at{{.*}} thread (work-item) (0,0,0){{.*}} of workgroup (0,0,0){{.*}} in kernel shift_right
// CHECK: {{^    #0 0x[0-9a-f]+ }}in shift_right(float const*, float*) test/emulator/bug_dynamic_overrun.hip:[[@LINE+21]]:22{{(:[0-9]+)?$}}
// CHECK-NOT: {{^ *#[0-9]+ }}
// CHECK: launched by host code here:
// CHECK: {{^0x[0-9a-f]+ }}{{.*}}0 bytes after the end of dynamic LDS of size 256
// CHECK: SUMMARY: AddressSanitizer: dynamic-lds-buffer-overflow
// CHECK: ldsan-test: exit 1
// JSON-NOT: {"ldsan_report"
// JSON: {"ldsan_report":1,
// JSON-SAME: "type":"dynamic-lds-buffer-overflow"
// JSON-SAME: "kernel":"shift_right
// JSON-SAME: "access":"write","size":4,
// JSON-SAME: "workgroup":[0,0,0]
// JSON-SAME: "threads":{{\[\[}}0,0,0]
// JSON-SAME: "location":"test/emulator/bug_dynamic_overrun.hip:[[@LINE+8]]:22
// Built at -O0: the frame names the source line as at -O2.
// CFLAGS: -O0
#include "common.h"

__global__ void shift_right(const float *in, float *out) {
  extern __shared__ float buf[];
  int t = threadIdx.x, n = blockDim.x;
  if (t == 0) buf[n] = 0;  // BUG: one past the dynamic LDS the launch provided
  buf[t] = in[t];
  __syncthreads();
  out[t] = t > 0 ? buf[t - 1] : 0;
}

int main() {
  const int n = 64;
  float *din, *dout;
  HIP_CHECK(hipMalloc(&din, n * sizeof(float)));
  HIP_CHECK(hipMalloc(&dout, n * sizeof(float)));
  HIP_CHECK(hipMemset(din, 0, n * sizeof(float)));
  shift_right<<<1, n, n * sizeof(float)>>>(din, dout);
  LAUNCH_CHECK();
  printf("bug_dynamic_overrun: no error detected\n");
  return 0;
}
