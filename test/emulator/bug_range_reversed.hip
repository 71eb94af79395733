// Bug: a reversal off by one (buf[WG - 2 - t] instead of buf[WG - 1 - t]),
// built with -O2 so the read's work-item loop checks the shadow (ASan's;
// ldsan's own in the LDS-only build) once for the whole loop
// (retarget_shadow_ranges.cpp) with a negative stride: the
// interval reaches one element before buf (only its low end does: the same
// length upwards is all inside buf), so the loop runs with its per-access
// checks and work-item 127 is reported.
// RUN: %run %{exe} | FileCheck %s
// RUN: env LDSAN_OPTIONS=emu_fibers=1 %run %{exe} | FileCheck %s
// RUN: %run %{exe:lds-only} | FileCheck %s
// RUN: env LDSAN_OPTIONS=report_format=json %run %{exe} | FileCheck %s --check-prefix=JSON
// RUN: env LDSAN_OPTIONS=report_format=json %run %{exe:lds-only} | FileCheck %s --check-prefix=JSON
// CHECK-NOT: ERROR: AddressSanitizer
// CHECK: ERROR: AddressSanitizer: lds-buffer-underflow on
// CHECK: {{^}}READ of size 4 at{{.*}} thread (work-item) (127,0,0){{.*}} in kernel void reverse<128>
// CHECK: {{^0x[0-9a-f]+ }}{{[^']*}}'buf'
// CHECK: SUMMARY: AddressSanitizer: lds-buffer-underflow
// CHECK: ldsan-test: exit 1
// JSON-NOT: {"ldsan_report"
// JSON: {"ldsan_report":1,
// JSON-SAME: "type":"lds-buffer-underflow"
// JSON-SAME: "kernel":"void reverse<128>
// JSON-SAME: "variable":"buf"
// JSON-SAME: "access":"read","size":4,
// JSON-SAME: "threads":{{\[\[}}127,0,0]
// CFLAGS: -O2
#include "common.h"

template <int WG>
__global__ void reverse(const int *in, int *out) {
  __shared__ int buf[2 * WG];
  int t = threadIdx.x;
  buf[t] = in[blockIdx.x * WG + t];
  buf[WG + t] = 0;
  __syncthreads();
  out[blockIdx.x * WG + t] = buf[WG - 2 - t];  // BUG: t == WG - 1 reads buf[-1]
}

int main() {
  const int WG = 128, G = 2;
  int *din, *dout;
  HIP_CHECK(hipMalloc(&din, G * WG * sizeof(int)));
  HIP_CHECK(hipMalloc(&dout, 4 * G * WG * sizeof(int)));  // roomy: only buf's interval may fail
  HIP_CHECK(hipMemset(din, 0, G * WG * sizeof(int)));
  reverse<WG><<<G, WG>>>(din, dout);
  LAUNCH_CHECK();
  printf("bug_range_reversed: no error detected\n");
  return 0;
}
