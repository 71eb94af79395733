// Bug: a stencil reads its right halo from LDS without loading it: the last
// work-item reads past the LDS tile (a READ, in the last workgroup of three).
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
// CHECK: {{^}}READ of size 4 at{{.*}} thread (work-item) (127,0,0){{.*}} of workgroup (2,0,0){{.*}} in kernel smooth
// CHECK: {{^    #0 0x[0-9a-f]+ }}in smooth(float const*, float*, int) test/emulator/bug_read_halo.hip:[[@LINE+25]]{{(:[0-9]+)?$}}
// CHECK-NOT: {{^ *#[0-9]+ }}
// CHECK: launched by host code here:
// CHECK: {{^0x[0-9a-f]+ }}{{[^']*}}0 bytes after{{[^']*}}'s'
// CHECK: SUMMARY: AddressSanitizer: lds-buffer-overflow
// CHECK: ldsan-test: exit 1
// JSON-NOT: {"ldsan_report"
// JSON: {"ldsan_report":1,
// JSON-SAME: "type":"lds-buffer-overflow"
// JSON-SAME: "kernel":"smooth
// JSON-SAME: "variable":"s"
// JSON-SAME: "access":"read","size":4,
// JSON-SAME: "workgroup":[2,0,0]
// JSON-SAME: "threads":{{\[\[}}127,0,0]
// JSON-SAME: "location":"test/emulator/bug_read_halo.hip:[[@LINE+11]]
#include "common.h"

#define B 128
__global__ void smooth(const float *in, float *out, int n) {
  __shared__ float s[B];
  int t = threadIdx.x, g = blockIdx.x * B + t;
  s[t] = in[g];
  __syncthreads();
  bool last_block = blockIdx.x == gridDim.x - 1;
  // BUG: interior blocks stop at t == B-2, but the last block reads s[B].
  float right = t < B - 1 ? s[t + 1] : (last_block ? s[t + 1] : in[g + 1]);
  out[g] = 0.5f * (s[t] + right);
}

int main() {
  const int n = 3 * B;
  float *din, *dout;
  HIP_CHECK(hipMalloc(&din, (n + 1) * sizeof(float)));
  HIP_CHECK(hipMalloc(&dout, n * sizeof(float)));
  HIP_CHECK(hipMemset(din, 0, (n + 1) * sizeof(float)));
  smooth<<<n / B, B>>>(din, dout, n);
  LAUNCH_CHECK();
  printf("bug_read_halo: no error detected\n");
  return 0;
}
