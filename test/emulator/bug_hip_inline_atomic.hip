// Bug: an LDS histogram with one bin too few: the one input equal to the bin
// count makes atomicAdd add one past the last bin. atomicAdd is code inlined
// from the HIP headers (amd_hip_atomic.h): the stack keeps that frame, the
// SUMMARY and the JSON location name the program's line.
// RUN: %run %{exe} | FileCheck %s
// RUN: env LDSAN_OPTIONS=emu_fibers=1 %run %{exe} | FileCheck %s
// RUN: %run %{exe:lds-only} | FileCheck %s
// RUN: env LDSAN_OPTIONS=report_format=json %run %{exe} | FileCheck %s --check-prefix=JSON
// CHECK-NOT: ERROR: AddressSanitizer
// CHECK: ERROR: AddressSanitizer: lds-buffer-overflow on
// CHECK: {{^}}WRITE of size 4 at{{.*}} thread (work-item) (77,0,0){{.*}} of workgroup (0,0,0){{.*}} in kernel void histogram<16>(int const*, unsigned int*)
// CHECK-NEXT: {{^    #0 0x[0-9a-f]+ in atomicAdd\(unsigned int\*, unsigned int\) .*/hip/amd_detail/amd_hip_atomic.h:[0-9]+:[0-9]+$}}
// CHECK-NEXT: {{^    #1 0x[0-9a-f]+ in void histogram<16>\(int const\*, unsigned int\*\) test/emulator/bug_hip_inline_atomic.hip:}}[[@LINE+20]]:3{{$}}
// CHECK-NOT: {{^ *#[0-9]+ }}
// CHECK: launched by host code here:
// CHECK: {{^0x[0-9a-f]+ }}is located 0 bytes after LDS variable 'bins' of size 64
// CHECK: SUMMARY: AddressSanitizer: lds-buffer-overflow test/emulator/bug_hip_inline_atomic.hip:[[@LINE+16]]:3 in void histogram<16>(int const*, unsigned int*){{$}}
// CHECK: ldsan-test: exit 1
// JSON-NOT: {"ldsan_report"
// JSON: {"ldsan_report":1,
// JSON-SAME: "type":"lds-buffer-overflow"
// JSON-SAME: "variable":"bins"
// JSON-SAME: "function":"void histogram<16>(int const*, unsigned int*)","location":"test/emulator/bug_hip_inline_atomic.hip:[[@LINE+10]]:3"
#include <vector>

#include "common.h"

template <int NBINS>
__global__ void histogram(const int *in, unsigned *out) {
  __shared__ unsigned bins[NBINS];
  for (int b = threadIdx.x; b < NBINS; b += blockDim.x) bins[b] = 0;
  __syncthreads();
  atomicAdd(&bins[in[blockIdx.x * blockDim.x + threadIdx.x]], 1u);  // BUG: one value is NBINS
  __syncthreads();
  for (int b = threadIdx.x; b < NBINS; b += blockDim.x) atomicAdd(&out[b], bins[b]);
}

int main() {
  const int n = 256, nbins = 16;
  std::vector<int> in(n);
  for (int i = 0; i < n; i++) in[i] = i % nbins;
  in[77] = nbins;
  int *din;
  unsigned *dout;
  HIP_CHECK(hipMalloc(&din, n * sizeof(int)));
  HIP_CHECK(hipMalloc(&dout, nbins * sizeof(unsigned)));
  HIP_CHECK(hipMemcpy(din, in.data(), n * sizeof(int), hipMemcpyHostToDevice));
  HIP_CHECK(hipMemset(dout, 0, nbins * sizeof(unsigned)));
  histogram<nbins><<<n / 128, 128>>>(din, dout);
  LAUNCH_CHECK();
  printf("bug_hip_inline_atomic: no error detected\n");
  return 0;
}
