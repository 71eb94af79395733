// Bug: LDS reached through a non-inlined device function, which clears one
// element too many of a workgroup-wide table. The device compile inlines it
// anyway (its bitcode has no clear_counts left): two frames, the function's
// line and the kernel's call.
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
// CHECK: {{^}}WRITE of size 4 at{{.*}} thread (work-item) (31,0,0){{.*}} of workgroup (0,0,0){{.*}} in kernel count_keys
// CHECK: {{^    #0 0x[0-9a-f]+ }}in clear_counts(int) test/emulator/bug_noinline.hip:[[@LINE+22]]:29{{(:[0-9]+)?$}}
// CHECK-NEXT: {{^    #1 0x[0-9a-f]+ }}in count_keys(int const*, unsigned int*) test/emulator/bug_noinline.hip:[[@LINE+26]]:3{{(:[0-9]+)?$}}
// CHECK-NOT: {{^ *#[0-9]+ }}
// CHECK: launched by host code here:
// CHECK: {{^0x[0-9a-f]+ }}{{[^']*}}0 bytes after{{[^']*}}'counts'
// CHECK: SUMMARY: AddressSanitizer: lds-buffer-overflow
// CHECK: ldsan-test: exit 1
// JSON-NOT: {"ldsan_report"
// JSON: {"ldsan_report":1,
// JSON-SAME: "type":"lds-buffer-overflow"
// JSON-SAME: "kernel":"count_keys
// JSON-SAME: "variable":"counts"
// JSON-SAME: "access":"write","size":4,
// JSON-SAME: "workgroup":[0,0,0]
// JSON-SAME: "threads":{{\[\[}}31,0,0]
// JSON-SAME: "location":"test/emulator/bug_noinline.hip:[[@LINE+7]]:29
#include "common.h"

#define NKEYS 31
__shared__ unsigned counts[NKEYS];

__device__ __noinline__ void clear_counts(int t) {
  if (t <= NKEYS) counts[t] = 0;  // BUG: should be t < NKEYS
}

__global__ void count_keys(const int *keys, unsigned *out) {
  int t = threadIdx.x;
  clear_counts(t);
  __syncthreads();
  atomicAdd(&counts[keys[t] % NKEYS], 1u);
  __syncthreads();
  if (t < NKEYS) out[t] = counts[t];
}

int main() {
  int *keys;
  unsigned *out;
  HIP_CHECK(hipMalloc(&keys, 64 * sizeof(int)));
  HIP_CHECK(hipMalloc(&out, NKEYS * sizeof(unsigned)));
  HIP_CHECK(hipMemset(keys, 0, 64 * sizeof(int)));
  count_keys<<<1, 64>>>(keys, out);
  LAUNCH_CHECK();
  printf("bug_noinline: no error detected\n");
  return 0;
}
