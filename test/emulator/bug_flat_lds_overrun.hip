// Bug: a pointer that is either an LDS array or a global scratch buffer (a
// flat pointer: the compiler cannot tell which), written one element too far
// when it is the LDS array. In the LDS-only mode the write goes through the
// flat-access check (instrument/LdsOnly.cpp), which on the emulator runs
// behind an inline test of the LDS store's range (retarget_flat_filter.cpp):
// the test must let this write through to the check, which reports it.
// RUN: %run %{exe:lds-only} | FileCheck %s
// RUN: env LDSAN_OPTIONS=emu_fibers=1 %run %{exe:lds-only} | FileCheck %s
// RUN: %run %{exe:lds-only+wave32} | FileCheck %s
// RUN: env LDSAN_OPTIONS=report_format=json %run %{exe:lds-only} | FileCheck %s --check-prefix=JSON
// CHECK-NOT: ERROR: AddressSanitizer
// CHECK: ERROR: AddressSanitizer: lds-buffer-overflow on
// CHECK: {{^}}WRITE of size 4 at{{.*}} thread (work-item) (127,0,0){{.*}} in kernel void shift_into<128>
// CHECK: {{^    #0 0x[0-9a-f]+ }}in void shift_into<128>(float*, int, float*) test/emulator/bug_flat_lds_overrun.hip:[[@LINE+17]]:12
// CHECK: SUMMARY: AddressSanitizer: lds-buffer-overflow
// CHECK: ldsan-test: exit 1
// JSON-NOT: {"ldsan_report"
// JSON: {"ldsan_report":1,
// JSON-SAME: "type":"lds-buffer-overflow"
// JSON-SAME: "access":"write","size":4,
// JSON-SAME: "threads":{{\[\[}}127,0,0]
#include "common.h"

#include <vector>

template <int WG>
__global__ void shift_into(float *scratch, int use_lds, float *out) {
  __shared__ float tile[WG];
  int t = threadIdx.x;
  float *p = use_lds ? tile : scratch;
  p[t + 1] = (float)t;  // BUG: t + 1 reaches WG, one past tile
  __syncthreads();
  out[blockIdx.x * WG + t] = t ? tile[t] : 0.0f;
}

int main() {
  const int groups = 4, wg = 128;
  float *scratch, *out;
  HIP_CHECK(hipMalloc(&scratch, (wg + 1) * sizeof(float)));
  HIP_CHECK(hipMalloc(&out, groups * wg * sizeof(float)));
  shift_into<wg><<<groups, wg>>>(scratch, 1, out);
  LAUNCH_CHECK();
  std::vector<float> got(groups * wg);
  HIP_CHECK(hipMemcpy(got.data(), out, got.size() * sizeof(float), hipMemcpyDeviceToHost));
  printf("out[1] = %g\n", got[1]);
  return 0;
}
