// Bug: a kernel clears its dynamic LDS (extern __shared__) with memset, one
// bin more than the launch gave it. The device memset is code inlined from
// the HIP headers (amd_device_functions.h): the stack keeps those frames, the
// SUMMARY and the JSON location name the program's line.
// RUN: %run %{exe} | FileCheck %s
// RUN: env LDSAN_OPTIONS=emu_fibers=1 %run %{exe} | FileCheck %s
// RUN: %run %{exe:lds-only} | FileCheck %s
// RUN: env LDSAN_OPTIONS=report_format=json %run %{exe} | FileCheck %s --check-prefix=JSON
// CHECK-NOT: ERROR: AddressSanitizer
// CHECK: ERROR: AddressSanitizer: dynamic-lds-buffer-overflow on
// CHECK: {{^}}WRITE of size {{[0-9]+}} at{{.*}} thread (work-item) (0,0,0){{.*}} in kernel void clear_then_count<unsigned int>(int const*, unsigned int*, int)
// CHECK-NEXT: {{^    #0 0x[0-9a-f]+ in __hip_hc_memset\(.*\) .*/hip/amd_detail/amd_device_functions.h:[0-9]+:[0-9]+$}}
// CHECK-NEXT: {{^    #1 0x[0-9a-f]+ in memset\(void\*, int, unsigned long\) .*/hip/amd_detail/amd_device_functions.h:[0-9]+:[0-9]+$}}
// CHECK-NEXT: {{^    #2 0x[0-9a-f]+ in void clear_then_count<unsigned int>\(int const\*, unsigned int\*, int\) test/emulator/bug_hip_inline_memset.hip:}}[[@LINE+19]]:25{{$}}
// CHECK-NOT: {{^ *#[0-9]+ }}
// CHECK: launched by host code here:
// CHECK: {{^0x[0-9a-f]+ }}is located 0 bytes after the end of dynamic LDS of size 128
// CHECK: SUMMARY: AddressSanitizer: dynamic-lds-buffer-overflow test/emulator/bug_hip_inline_memset.hip:[[@LINE+15]]:25 in void clear_then_count<unsigned int>(int const*, unsigned int*, int){{$}}
// CHECK: ldsan-test: exit 1
// JSON-NOT: {"ldsan_report"
// JSON: {"ldsan_report":1,
// JSON-SAME: "type":"dynamic-lds-buffer-overflow"
// JSON-SAME: "function":"void clear_then_count<unsigned int>(int const*, unsigned int*, int)","location":"test/emulator/bug_hip_inline_memset.hip:[[@LINE+10]]:25"
#include <vector>

#include "common.h"

// Counts each workgroup's inputs modulo nbins in nbins counters of dynamic LDS.
template <typename T>
__global__ void clear_then_count(const int *in, T *out, int nbins) {
  extern __shared__ char raw[];
  T *bins = reinterpret_cast<T *>(raw);
  if (threadIdx.x == 0) memset(bins, 0, (nbins + 1) * sizeof(T));  // BUG: nbins + 1
  __syncthreads();
  atomicAdd(&bins[in[blockIdx.x * blockDim.x + threadIdx.x] % nbins], T(1));
  __syncthreads();
  if (threadIdx.x < nbins) out[blockIdx.x * nbins + threadIdx.x] = bins[threadIdx.x];
}

int main() {
  const int n = 128, nbins = 32, wg = 128;
  std::vector<int> in(n);
  for (int i = 0; i < n; i++) in[i] = i;
  int *din;
  unsigned *dout;
  HIP_CHECK(hipMalloc(&din, n * sizeof(int)));
  HIP_CHECK(hipMalloc(&dout, nbins * sizeof(unsigned)));
  HIP_CHECK(hipMemcpy(din, in.data(), n * sizeof(int), hipMemcpyHostToDevice));
  clear_then_count<unsigned><<<n / wg, wg, nbins * sizeof(unsigned)>>>(din, dout, nbins);
  LAUNCH_CHECK();
  printf("bug_hip_inline_memset: no error detected\n");
  return 0;
}
