// Bug: a __syncthreads() inside a branch that splits the workgroup: its halves
// wait at two different barriers. The barrier is code inlined from the HIP
// headers (__work_group_barrier in amd_device_functions.h): the stacks keep
// those frames, the SUMMARY and the JSON locations name the program's lines.
// Work-item loops and fibers both meet the second half's barrier first (in
// both, the lowest work-items run first after a barrier).
// RUN: env LDSAN_OPTIONS=detect_races=1 %run %{exe} | FileCheck %s --check-prefixes=CHECK,LOOPS
// RUN: env LDSAN_OPTIONS=detect_races=1:emu_fibers=1 %run %{exe} | FileCheck %s --check-prefixes=CHECK,FIBERS
// RUN: env LDSAN_OPTIONS=detect_races=1:report_format=json %run %{exe} | FileCheck %s --check-prefix=JSON
// CHECK-NOT: ERROR: AddressSanitizer
// CHECK: ERROR: AddressSanitizer: barrier-divergence in kernel void row_sums<128>(float const*, float*): work-item
// CHECK: {{^}}barrier by thread (work-item)
// CHECK-NEXT: {{^    #0 0x[0-9a-f]+ in __work_group_barrier\(.*\) .*/hip/amd_detail/amd_device_functions.h:[0-9]+:[0-9]+$}}
// CHECK: {{^    #[0-9]+ 0x[0-9a-f]+ in __syncthreads\(\) .*/hip/amd_detail/amd_device_functions.h:[0-9]+:[0-9]+$}}
// CHECK-NEXT: {{^    #[0-9]+ 0x[0-9a-f]+ in void row_sums<128>\(float const\*, float\*\) test/emulator/bug_hip_inline_barrier.hip:[0-9]+:5$}}
// CHECK: {{^}}other barrier by thread (work-item)
// CHECK-NEXT: {{^    #0 0x[0-9a-f]+ in __work_group_barrier\(.*\) .*/hip/amd_detail/amd_device_functions.h:[0-9]+:[0-9]+$}}
// LOOPS: SUMMARY: AddressSanitizer: barrier-divergence test/emulator/bug_hip_inline_barrier.hip:[[@LINE+23]]:5 in void row_sums<128>(float const*, float*) (other barrier at test/emulator/bug_hip_inline_barrier.hip:[[@LINE+20]]:5)
// FIBERS: SUMMARY: AddressSanitizer: barrier-divergence test/emulator/bug_hip_inline_barrier.hip:[[@LINE+22]]:5 in void row_sums<128>(float const*, float*) (other barrier at test/emulator/bug_hip_inline_barrier.hip:[[@LINE+19]]:5)
// CHECK: ldsan-test: exit 1
// JSON-NOT: {"ldsan_report"
// JSON: {"ldsan_report":1,
// JSON-SAME: "type":"barrier-divergence"
// JSON-SAME: "function":"void row_sums<128>(float const*, float*)","location":"test/emulator/bug_hip_inline_barrier.hip:[[@LINE+17]]:5"
// JSON-SAME: "other":{
// JSON-SAME: "function":"void row_sums<128>(float const*, float*)","location":"test/emulator/bug_hip_inline_barrier.hip:[[@LINE+12]]:5"
#include <vector>

#include "common.h"

// The workgroup sums its WG values: the first half adds the second half into itself.
template <int WG>
__global__ void row_sums(const float *in, float *out) {
  __shared__ float s[WG];
  int t = threadIdx.x;
  s[t] = in[blockIdx.x * WG + t];
  if (t < WG / 2) {
    __syncthreads();  // BUG: the first half waits here ...
    s[t] += s[t + WG / 2];
  } else {
    __syncthreads();  // ... the second half here
  }
  __syncthreads();
  if (t == 0) out[blockIdx.x] = s[0];
}

int main() {
  const int wg = 128;  // one workgroup: one report, the same one every run
  std::vector<float> in(wg, 1.0f);
  float *din, *dout;
  HIP_CHECK(hipMalloc(&din, in.size() * sizeof(float)));
  HIP_CHECK(hipMalloc(&dout, sizeof(float)));
  HIP_CHECK(hipMemcpy(din, in.data(), in.size() * sizeof(float), hipMemcpyHostToDevice));
  row_sums<wg><<<1, wg>>>(din, dout);
  LAUNCH_CHECK();
  printf("bug_hip_inline_barrier: no error detected\n");
  return 0;
}
