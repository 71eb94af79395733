// Bug: each workgroup reverses one string through a 13-byte LDS buffer and also
// stores the terminating NUL; string 1 has 13 characters, so its NUL is a
// 1-byte overrun inside the buffer's last, partially addressable 8-byte granule.
// RUN: env LDSAN_OPTIONS=symbolize=0 %run %{exe} | FileCheck %s
// RUN: env LDSAN_OPTIONS=symbolize=0:emu_fibers=1 %run %{exe} | FileCheck %s
// RUN: env LDSAN_OPTIONS=symbolize=0 %run %{exe:lds-only} | FileCheck %s
// RUN: env LDSAN_OPTIONS=symbolize=0:emu_fibers=1 %run %{exe:lds-only} | FileCheck %s
// RUN: env LDSAN_OPTIONS=symbolize=0 %run %{exe:lds-only+wave32} | FileCheck %s
// RUN: env LDSAN_OPTIONS=symbolize=0:emu_fibers=1 %run %{exe:lds-only+wave32} | FileCheck %s
// RUN: env LDSAN_OPTIONS=symbolize=0:report_format=json %run %{exe} | FileCheck %s --check-prefix=JSON
// RUN: env LDSAN_OPTIONS=symbolize=0:report_format=json %run %{exe:lds-only} | FileCheck %s --check-prefix=JSON
// RUN: env LDSAN_OPTIONS=symbolize=0:report_format=json %run %{exe:lds-only+wave32} | FileCheck %s --check-prefix=JSON
// CHECK-NOT: ERROR: AddressSanitizer
// CHECK: ERROR: AddressSanitizer: lds-buffer-overflow on
// CHECK: {{^}}WRITE of size 1 at{{.*}} thread (work-item) (13,0,0){{.*}} of workgroup (1,0,0){{.*}} in kernel reverse_names
// CHECK: {{^    #0 0x[0-9a-f]+ \(.*/bug_char_overrun\+0x[0-9a-f]+\)$}}
// CHECK-NOT: {{^ *#[0-9]+ }}
// CHECK: launched by host code here:
// CHECK: {{^0x[0-9a-f]+ }}{{[^']*}}0 bytes after{{[^']*}}'name'
// CHECK: SUMMARY: AddressSanitizer: lds-buffer-overflow
// CHECK: ldsan-test: exit 1
// JSON-NOT: {"ldsan_report"
// JSON: {"ldsan_report":1,
// JSON-SAME: "type":"lds-buffer-overflow"
// JSON-SAME: "kernel":"reverse_names
// JSON-SAME: "variable":"name"
// JSON-SAME: "access":"write","size":1,
// JSON-SAME: "workgroup":[1,0,0]
// JSON-SAME: "threads":{{\[\[}}13,0,0]
// Run with symbolize=0: the frame is the bare pc in the executable.
#include "common.h"

#define STRIDE 16
__global__ void reverse_names(const char *src, const int *lens, char *dst) {
  __shared__ char name[13];
  int t = threadIdx.x, len = lens[blockIdx.x];
  const char *s = src + blockIdx.x * STRIDE;
  if (t <= len) name[t] = t < len ? s[t] : '\0';  // BUG: len + 1 bytes into 13
  __syncthreads();
  if (t < len) dst[blockIdx.x * STRIDE + t] = name[len - 1 - t];
}

int main() {
  const char strings[3][STRIDE] = {"short", "hello, ldsan!", "seven.."};
  const int lens[3] = {5, 13, 7};
  char *dsrc, *ddst;
  int *dlens;
  HIP_CHECK(hipMalloc(&dsrc, sizeof strings));
  HIP_CHECK(hipMalloc(&ddst, sizeof strings));
  HIP_CHECK(hipMalloc(&dlens, sizeof lens));
  HIP_CHECK(hipMemcpy(dsrc, strings, sizeof strings, hipMemcpyHostToDevice));
  HIP_CHECK(hipMemcpy(dlens, lens, sizeof lens, hipMemcpyHostToDevice));
  void *args[] = {&dsrc, &dlens, &ddst};
  HIP_CHECK(hipLaunchKernel((const void *)reverse_names, dim3(3), dim3(STRIDE), args, 0, 0));
  LAUNCH_CHECK();
  printf("bug_char_overrun: no error detected\n");
  return 0;
}
