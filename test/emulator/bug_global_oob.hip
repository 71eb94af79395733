// Bug: global (not LDS) out-of-bounds: the kernel writes one float past the end
// of a hipMalloc buffer. The emulated hipMalloc gives buffers host-ASan redzones,
// so the device's check sees the heap redzone.
// RUN: %run %{exe} | FileCheck %s
// RUN: env LDSAN_OPTIONS=emu_fibers=1 %run %{exe} | FileCheck %s
// RUN: env LDSAN_OPTIONS=report_format=json %run %{exe} | FileCheck %s --check-prefix=JSON
// CHECK-NOT: ERROR: AddressSanitizer
// CHECK: ERROR: AddressSanitizer: heap-buffer-overflow on
// CHECK: {{^}}READ of size 4 at{{.*}} thread (work-item) (36,0,0){{.*}} of workgroup (1,0,0){{.*}} in kernel scale
// CHECK: {{^    #0 0x[0-9a-f]+ }}in scale(float*, int) test/emulator/bug_global_oob.hip:[[@LINE+20]]:20{{(:[0-9]+)?$}}
// CHECK-NOT: {{^ *#[0-9]+ }}
// CHECK: launched by host code here:
// CHECK: SUMMARY: AddressSanitizer: heap-buffer-overflow
// CHECK: ldsan-test: exit 1
// JSON-NOT: {"ldsan_report"
// JSON: {"ldsan_report":1,
// JSON-SAME: "type":"heap-buffer-overflow"
// JSON-SAME: "kernel":"scale
// JSON-SAME: "access":"read","size":4,
// JSON-SAME: "workgroup":[1,0,0]
// JSON-SAME: "threads":{{\[\[}}36,0,0]
// JSON-SAME: "location":"test/emulator/bug_global_oob.hip:[[@LINE+8]]:20
#include "common.h"

__global__ void scale(float *p, int n) {
  __shared__ float f;
  if (threadIdx.x == 0) f = 2.0f;
  __syncthreads();
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i <= n) p[i] *= f;  // BUG: i == n is past the end (the load is checked first)
}

int main() {
  const int n = 100;
  float *d;
  HIP_CHECK(hipMalloc(&d, n * sizeof(float)));
  HIP_CHECK(hipMemset(d, 0, n * sizeof(float)));
  scale<<<2, 64>>>(d, n);
  LAUNCH_CHECK();
  printf("bug_global_oob: no error detected\n");
  return 0;
}
