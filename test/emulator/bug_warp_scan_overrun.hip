// Bug in warp-synchronous code (the kernel runs with its waves in
// lockstep): a wave-level suffix sum over a volatile __shared__ array whose
// last step has no guard, so lanes 48..63 of each wave read 16 elements
// past their own; in the last wave that is past the end of the array. The
// report names the array, the work-item and the line, as in kernels
// without cross-lane code.
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
// CHECK: {{^}}READ of size 4 at{{.*}} thread (work-item) (112,0,0){{.*}} of workgroup (0,0,0){{.*}} in kernel wave_scan
// CHECK: {{^0x[0-9a-f]+ }}{{[^']*}}'partial'
// CHECK: SUMMARY: AddressSanitizer: lds-buffer-overflow
// CHECK: ldsan-test: exit 1
// JSON-NOT: {"ldsan_report"
// JSON: {"ldsan_report":1,
// JSON-SAME: "type":"lds-buffer-overflow"
// JSON-SAME: "kernel":"wave_scan
// JSON-SAME: "variable":"partial"
// JSON-SAME: "access":"read","size":4,
// JSON-SAME: "workgroup":[0,0,0]
// JSON-SAME: "threads":{{\[\[}}112,0,0]
// CFLAGS: -O2
#include "common.h"

#define WG 128

__global__ void wave_scan(const int *in, int *out) {
  __shared__ volatile int partial[WG];
  int t = threadIdx.x, lane = t % 64;
  partial[t] = in[blockIdx.x * WG + t];
  for (int d = 1; d < 16; d <<= 1)
    if (lane + d < 64) partial[t] = partial[t] + partial[t + d];
  partial[t] = partial[t] + partial[t + 16];  // BUG: needs if (lane + 16 < 64)
  out[blockIdx.x * WG + t] = partial[t] + __shfl(partial[t], 0);
}

int main() {
  static int in[2 * WG], out[2 * WG];
  for (int i = 0; i < 2 * WG; i++) in[i] = i % 7;
  int *din, *dout;
  HIP_CHECK(hipMalloc(&din, sizeof in));
  HIP_CHECK(hipMalloc(&dout, sizeof out));
  HIP_CHECK(hipMemcpy(din, in, sizeof in, hipMemcpyHostToDevice));
  wave_scan<<<1, WG>>>(din, dout);
  LAUNCH_CHECK();
  HIP_CHECK(hipMemcpy(out, dout, sizeof out, hipMemcpyDeviceToHost));
  printf("no report\n");
  return 0;
}
