// Bug: a device function inlined into the kernel stores one past a workgroup's
// LDS table. The report's pc is in the kernel's code, and its frames are the
// helper's line and the kernel's call of it (llvm-symbolizer's inlined frames).
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
// CHECK: {{^}}WRITE of size 4 at{{.*}} thread (work-item) (16,0,0){{.*}} of workgroup (1,0,0){{.*}} in kernel tally
// CHECK: {{^    #0 0x[0-9a-f]+ }}in bump(unsigned int*, int, unsigned int) test/emulator/bug_inlined_helper.hip:[[@LINE+23]]:11{{(:[0-9]+)?$}}
// CHECK-NEXT: {{^    #1 0x[0-9a-f]+ }}in tally(int const*, unsigned int*) test/emulator/bug_inlined_helper.hip:[[@LINE+31]]:5{{(:[0-9]+)?$}}
// CHECK-NOT: {{^ *#[0-9]+ }}
// CHECK: launched by host code here:
// CHECK: {{^0x[0-9a-f]+ }}{{[^']*}}0 bytes after{{[^']*}}'bins'
// CHECK: SUMMARY: AddressSanitizer: lds-buffer-overflow
// CHECK: ldsan-test: exit 1
// JSON-NOT: {"ldsan_report"
// JSON: {"ldsan_report":1,
// JSON-SAME: "type":"lds-buffer-overflow"
// JSON-SAME: "kernel":"tally
// JSON-SAME: "variable":"bins"
// JSON-SAME: "access":"write","size":4,
// JSON-SAME: "workgroup":[1,0,0]
// JSON-SAME: "threads":{{\[\[}}16,0,0]
// JSON-SAME: "location":"test/emulator/bug_inlined_helper.hip:[[@LINE+8]]:11
#include "common.h"

#define NBINS 16

__device__ inline void bump(unsigned *bins, int k, unsigned v) {
  if (v == 0)
    return;
  bins[k] = v;  // BUG: k == NBINS is one past the end
}

__global__ void tally(const int *keys, unsigned *out) {
  __shared__ unsigned bins[NBINS];
  int t = threadIdx.x;
  if (t < NBINS) bins[t] = 0;
  __syncthreads();
  if (blockIdx.x == 1)               // the second workgroup only
    bump(bins, t, keys[t] + 1u);     // 17 work-items, 16 bins
  __syncthreads();
  if (t < NBINS) out[blockIdx.x * NBINS + t] = bins[t];
}

int main() {
  int *keys;
  unsigned *out;
  HIP_CHECK(hipMalloc(&keys, 17 * sizeof(int)));
  HIP_CHECK(hipMalloc(&out, 2 * NBINS * sizeof(unsigned)));
  HIP_CHECK(hipMemset(keys, 0, 17 * sizeof(int)));
  tally<<<2, NBINS + 1>>>(keys, out);
  LAUNCH_CHECK();
  printf("bug_inlined_helper: no error detected\n");
  return 0;
}
