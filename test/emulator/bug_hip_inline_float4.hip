// Bug: a tile of float4 one thread wider than its __shared__ array: the last
// work-item's 16-byte store lands past the end. The store is float4's
// operator=, code inlined from the HIP headers (amd_hip_vector_types.h): the
// stack keeps those frames, the SUMMARY and the JSON location name the
// program's line.
// RUN: %run %{exe} | FileCheck %s
// RUN: env LDSAN_OPTIONS=emu_fibers=1 %run %{exe} | FileCheck %s
// RUN: %run %{exe:lds-only} | FileCheck %s
// RUN: env LDSAN_OPTIONS=report_format=json %run %{exe} | FileCheck %s --check-prefix=JSON
// CHECK-NOT: ERROR: AddressSanitizer
// CHECK: ERROR: AddressSanitizer: lds-buffer-overflow on
// CHECK: {{^}}WRITE of size 16 at{{.*}} thread (work-item) (60,0,0){{.*}} in kernel void stage<60>
// CHECK-NEXT: {{^    #0 0x[0-9a-f]+ in HIP_vector_base<float, 4u>::operator=\(.*\) .*/hip/amd_detail/amd_hip_vector_types.h:[0-9]+:[0-9]+$}}
// CHECK-NEXT: {{^    #1 0x[0-9a-f]+ in HIP_vector_type<float, 4u>::operator=\(.*\) .*/hip/amd_detail/amd_hip_vector_types.h:[0-9]+:[0-9]+$}}
// CHECK-NEXT: {{^    #2 0x[0-9a-f]+ in void stage<60>\(.*\) test/emulator/bug_hip_inline_float4.hip:}}[[@LINE+21]]:11{{$}}
// CHECK-NOT: {{^ *#[0-9]+ }}
// CHECK: launched by host code here:
// CHECK: {{^0x[0-9a-f]+ }}is located 0 bytes after LDS variable 'tile' of size 960
// CHECK: SUMMARY: AddressSanitizer: lds-buffer-overflow test/emulator/bug_hip_inline_float4.hip:[[@LINE+17]]:11 in void stage<60>(
// CHECK: ldsan-test: exit 1
// JSON-NOT: {"ldsan_report"
// JSON: {"ldsan_report":1,
// JSON-SAME: "type":"lds-buffer-overflow"
// JSON-SAME: "variable":"tile"
// JSON-SAME: "access":"write","size":16,
// JSON-SAME: "function":"void stage<60>({{[^"]*}})","location":"test/emulator/bug_hip_inline_float4.hip:[[@LINE+10]]:11"
#include <vector>

#include "common.h"

// Each work-item stages one float4 in LDS; its mirror image goes out.
template <int TILE>
__global__ void stage(const float4 *in, float4 *out) {
  __shared__ float4 tile[TILE];
  int t = threadIdx.x;
  tile[t] = in[blockIdx.x * blockDim.x + t];  // BUG: launched with more work-items than TILE
  __syncthreads();
  out[blockIdx.x * blockDim.x + t] = tile[TILE - 1 - t % TILE];
}

int main() {
  const int tile = 60, wg = 61;
  std::vector<float4> in(wg, make_float4(1, 2, 3, 4));
  float4 *din, *dout;
  HIP_CHECK(hipMalloc(&din, in.size() * sizeof(float4)));
  HIP_CHECK(hipMalloc(&dout, in.size() * sizeof(float4)));
  HIP_CHECK(hipMemcpy(din, in.data(), in.size() * sizeof(float4), hipMemcpyHostToDevice));
  stage<tile><<<1, wg>>>(din, dout);
  LAUNCH_CHECK();
  printf("bug_hip_inline_float4: no error detected\n");
  return 0;
}
