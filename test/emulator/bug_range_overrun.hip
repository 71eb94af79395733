// Bug: each work-item reads its right neighbour with no guard, built with -O2
// so the read's work-item loop checks the shadow (ASan's; ldsan's own in the
// LDS-only build) once for the whole loop
// (retarget_shadow_ranges.cpp). The interval reaches one element past buf,
// so the loop runs with its per-access checks and work-item 255 is reported
// (-O2 reads buf[t] and buf[t + 1] as one 8-byte load).
// RUN: %run %{exe} | FileCheck %s
// RUN: env LDSAN_OPTIONS=emu_fibers=1 %run %{exe} | FileCheck %s
// RUN: %run %{exe:lds-only} | FileCheck %s
// RUN: env LDSAN_OPTIONS=report_format=json %run %{exe} | FileCheck %s --check-prefix=JSON
// RUN: env LDSAN_OPTIONS=report_format=json %run %{exe:lds-only} | FileCheck %s --check-prefix=JSON
// CHECK-NOT: ERROR: AddressSanitizer
// CHECK: ERROR: AddressSanitizer: lds-buffer-overflow on
// CHECK: {{^}}READ of size 8 at{{.*}} thread (work-item) (255,0,0){{.*}} in kernel void right_neighbour<256>
// CHECK: {{^    #0 0x[0-9a-f]+ }}in void right_neighbour<256>(float const*, float*) test/emulator/bug_range_overrun.hip:[[@LINE+23]]{{(:[0-9]+)?$}}
// CHECK-NOT: {{^ *#[0-9]+ }}
// CHECK: launched by host code here:
// CHECK: {{^0x[0-9a-f]+ }}{{[^']*}}0 bytes after{{[^']*}}'buf'
// CHECK: SUMMARY: AddressSanitizer: lds-buffer-overflow
// CHECK: ldsan-test: exit 1
// JSON-NOT: {"ldsan_report"
// JSON: {"ldsan_report":1,
// JSON-SAME: "type":"lds-buffer-overflow"
// JSON-SAME: "kernel":"void right_neighbour<256>
// JSON-SAME: "variable":"buf"
// JSON-SAME: "access":"read","size":8,
// JSON-SAME: "threads":{{\[\[}}255,0,0]
// JSON-SAME: "location":"test/emulator/bug_range_overrun.hip:[[@LINE+10]]
// CFLAGS: -O2
#include "common.h"

template <int WG>
__global__ void right_neighbour(const float *in, float *out) {
  __shared__ float buf[WG];
  int t = threadIdx.x;
  buf[t] = in[blockIdx.x * WG + t];
  __syncthreads();
  out[blockIdx.x * WG + t] = buf[t + 1] - buf[t];  // BUG: t == WG - 1 reads buf[WG]
}

int main() {
  const int WG = 256, G = 4;
  float *din, *dout;
  HIP_CHECK(hipMalloc(&din, G * WG * sizeof(float)));
  HIP_CHECK(hipMalloc(&dout, G * WG * sizeof(float)));
  HIP_CHECK(hipMemset(din, 0, G * WG * sizeof(float)));
  right_neighbour<WG><<<G, WG>>>(din, dout);
  LAUNCH_CHECK();
  printf("bug_range_overrun: no error detected\n");
  return 0;
}
