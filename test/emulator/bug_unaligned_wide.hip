// Bug: records packed into LDS without padding (a 1-byte tag then a 4-byte
// value, 5 bytes each); the reader of the last record takes the value of the
// record after it. The unaligned 4-byte load is checked byte by byte upstream;
// ldsan reports it as the 4-byte READ it is, 1 byte past the array (the value
// field of recs[32] starts after its tag).
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
// CHECK: {{^}}READ of size 4 at{{.*}} thread (work-item) (31,0,0){{.*}} of workgroup (0,0,0){{.*}} in kernel sum_packed
// CHECK: {{^0x[0-9a-f]+ }}{{[^']*}}1 bytes after LDS variable 'recs' of size 160
// CHECK: SUMMARY: AddressSanitizer: lds-buffer-overflow
// CHECK: ldsan-test: exit 1
// JSON-NOT: {"ldsan_report"
// JSON: {"ldsan_report":1,
// JSON-SAME: "type":"lds-buffer-overflow"
// JSON-SAME: "kernel":"sum_packed
// JSON-SAME: "variable":"recs"
// JSON-SAME: "access":"read","size":4,
// JSON-SAME: "workgroup":[0,0,0]
// JSON-SAME: "threads":{{\[\[}}31,0,0]
#include "common.h"

struct __attribute__((packed)) rec {
  char tag;
  int value;
};

__global__ void sum_packed(const int *in, int *out) {
  __shared__ rec recs[32];
  unsigned t = threadIdx.x;
  recs[t].tag = (char)t;
  recs[t].value = in[t];
  __syncthreads();
  // BUG: work-item 31 reads recs[32].value.
  out[t] = recs[t].value + recs[t + 1 == 32 ? 32 : t + 1].value;
}

int main() {
  int *in, *out;
  HIP_CHECK(hipMalloc(&in, 32 * sizeof(int)));
  HIP_CHECK(hipMalloc(&out, 32 * sizeof(int)));
  HIP_CHECK(hipMemset(in, 0, 32 * sizeof(int)));
  sum_packed<<<1, 32>>>(in, out);
  LAUNCH_CHECK();
  printf("bug_unaligned_wide: no error detected\n");
  return 0;
}
