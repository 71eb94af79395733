// Bug: a kernel writes one element past the end of a hipMalloc buffer (the
// grid covers n + 1 elements and the guard is `<=`). The emulated hipMalloc
// is host-ASan heap memory, so the report describes it as ASan describes heap
// memory: the region, its size, and the host stack that allocated it, through
// hipMalloc and the program's helper to main.
// RUN: %run %{exe} | FileCheck %s
// RUN: env LDSAN_OPTIONS=emu_fibers=1 %run %{exe} | FileCheck %s
// RUN: env LDSAN_OPTIONS=report_format=json %run %{exe} | FileCheck %s --check-prefix=JSON
// CHECK-NOT: ERROR: AddressSanitizer
// CHECK: ERROR: AddressSanitizer: heap-buffer-overflow on address 0x[[ADDR:[0-9a-f]+]] at pc 0x{{[0-9a-f]+}} on amdgpu device 0 (cpu-emulator)
// CHECK-NEXT: {{^}}WRITE of size 4 at 0x[[ADDR]] thread (work-item) (36,0,0) lane 36 of workgroup (1,0,0) in kernel void fill<float>(float*, float, int)
// CHECK-NEXT: {{^    #0 0x[0-9a-f]+ in void fill<float>\(float\*, float, int\) test/emulator/bug_hipmalloc_overflow.hip:}}[[@LINE+28]]:{{[0-9]+$}}
// CHECK-NOT: {{^ *#[0-9]+ }}
// CHECK: launched by host code here:
// CHECK: {{^}}0x[[ADDR]] is located 0 bytes after 400-byte region [0x{{[0-9a-f]+}},0x[[ADDR]])
// CHECK-NEXT: {{^}}allocated by thread T0 here:
// CHECK-NEXT: {{^    #0 0x[0-9a-f]+ in posix_memalign }}
// CHECK: {{^    #[0-9]+ 0x[0-9a-f]+ in hipMalloc emulator/hip/memory.c:[0-9]+}}
// CHECK: {{^    #[0-9]+ 0x[0-9a-f]+ in float\* to_device<float>\(std::vector<float, std::allocator<float>> const&\) test/emulator/bug_hipmalloc_overflow.hip:}}[[@LINE+27]]:{{[0-9]+$}}
// CHECK-NEXT: {{^    #[0-9]+ 0x[0-9a-f]+ in main test/emulator/bug_hipmalloc_overflow.hip:}}[[@LINE+33]]:{{[0-9]+$}}
// CHECK: Shadow bytes around the buggy address:
// CHECK: SUMMARY: AddressSanitizer: heap-buffer-overflow test/emulator/bug_hipmalloc_overflow.hip:[[@LINE+18]]:{{[0-9]+}} in void fill<float>(float*, float, int){{$}}
// CHECK: ldsan-test: exit 1
// JSON-NOT: {"ldsan_report"
// JSON: {"ldsan_report":1,
// JSON-SAME: "type":"heap-buffer-overflow"
// JSON-SAME: "access":"write","size":4,
// JSON-SAME: "location":"test/emulator/bug_hipmalloc_overflow.hip:[[@LINE+12]]:
// JSON-SAME: "region":{"kind":"heap","begin":"0x{{[0-9a-f]+}}","size":400,"offset":400,"allocated_by":{"thread":0,"frames":[{"pc":"0x{{[0-9a-f]+}}","function":"posix_memalign",
// JSON-SAME: "function":"hipMalloc","location":"emulator/hip/memory.c:
// JSON-SAME: "function":"main","location":"test/emulator/bug_hipmalloc_overflow.hip:[[@LINE+22]]:
// JSON-SAME: "freed_by":null}}
#include <vector>

#include "common.h"

template <typename T>
__global__ void fill(T *data, T value, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i <= n) data[i] = value + T(i);  // BUG: i == n is one past the end
}

template <typename T>
static T *to_device(const std::vector<T> &host) {
  T *d = nullptr;
  HIP_CHECK(hipMalloc(&d, host.size() * sizeof(T)));  // the allocation
  HIP_CHECK(hipMemcpy(d, host.data(), host.size() * sizeof(T), hipMemcpyHostToDevice));
  return d;
}

int main() {
  std::vector<float> values(100, 1.5f);
  float *d = to_device(values);  // main's call
  fill<float><<<2, 64>>>(d, 2.0f, (int)values.size());
  LAUNCH_CHECK();
  printf("bug_hipmalloc_overflow: no error detected\n");
  return 0;
}
