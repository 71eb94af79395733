// Bug: a kernel is launched on a buffer the program already gave back with
// hipFree. The emulated hipMalloc/hipFree are host-ASan heap memory (freed
// chunks wait in ASan's quarantine), so the report says what ASan says of a
// heap use after free: the region, the stack that freed it and the one that
// allocated it.
// RUN: %run %{exe} | FileCheck %s
// RUN: env LDSAN_OPTIONS=emu_fibers=1 %run %{exe} | FileCheck %s
// RUN: env LDSAN_OPTIONS=report_format=json %run %{exe} | FileCheck %s --check-prefix=JSON
// CHECK-NOT: ERROR: AddressSanitizer
// CHECK: ERROR: AddressSanitizer: heap-use-after-free on address 0x[[ADDR:[0-9a-f]+]] at pc
// CHECK-NEXT: {{^}}WRITE of size 8 at 0x[[ADDR]] thread (work-item) (0,0,0) lane 0 of workgroup (0,0,0) in kernel void iota<double>(double*, int)
// CHECK: {{^}}0x[[ADDR]] is located 0 bytes inside of 256-byte region [0x[[ADDR]],0x{{[0-9a-f]+}})
// CHECK-NEXT: {{^}}freed by thread T0 here:
// CHECK-NEXT: {{^    #0 0x[0-9a-f]+ in free }}
// CHECK-NEXT: {{^    #1 0x[0-9a-f]+ in hipFree emulator/hip/memory.c:[0-9]+}}
// CHECK-NEXT: {{^    #2 0x[0-9a-f]+ in main test/emulator/bug_hipfree_use.hip:}}[[@LINE+27]]:{{[0-9]+$}}
// CHECK: {{^}}previously allocated by thread T0 here:
// CHECK-NEXT: {{^    #0 0x[0-9a-f]+ in posix_memalign }}
// CHECK: {{^    #[0-9]+ 0x[0-9a-f]+ in main test/emulator/bug_hipfree_use.hip:}}[[@LINE+23]]:{{[0-9]+$}}
// CHECK: SUMMARY: AddressSanitizer: heap-use-after-free test/emulator/bug_hipfree_use.hip:[[@LINE+15]]:{{[0-9]+}} in void iota<double>(double*, int){{$}}
// CHECK: ldsan-test: exit 1
// JSON-NOT: {"ldsan_report"
// JSON: {"ldsan_report":1,
// JSON-SAME: "type":"heap-use-after-free"
// JSON-SAME: "region":{"kind":"heap","begin":"0x{{[0-9a-f]+}}","size":256,"offset":0,"allocated_by":{"thread":0,"frames":[{"pc":"0x{{[0-9a-f]+}}","function":"posix_memalign",
// JSON-SAME: "freed_by":{"thread":0,"frames":[{"pc":"0x{{[0-9a-f]+}}","function":"free",
// JSON-SAME: "function":"main","location":"test/emulator/bug_hipfree_use.hip:[[@LINE+16]]:
#include <vector>

#include "common.h"

template <typename T>
__global__ void iota(T *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = T(i);  // the access
}

int main() {
  const int n = 32;
  std::vector<double> host(n);
  double *d;
  HIP_CHECK(hipMalloc(&d, n * sizeof(double)));  // the allocation
  HIP_CHECK(hipFree(d));  // BUG: freed before the kernel runs
  iota<double><<<1, n>>>(d, n);
  LAUNCH_CHECK();
  HIP_CHECK(hipMemcpy(host.data(), d, n * sizeof(double), hipMemcpyDeviceToHost));
  printf("bug_hipfree_use: no error detected\n");
  return 0;
}
