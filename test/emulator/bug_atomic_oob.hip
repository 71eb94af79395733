// Bug: a 255-bin LDS histogram indexed by an unsigned char: the one input byte
// equal to 255 makes an LDS atomic add one past the last bin. The 4-byte atomic
// is reported with its real size (upstream checks atomics byte by byte).
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
// CHECK: {{^}}WRITE of size 4 at{{.*}} thread (work-item) (77,0,0){{.*}} of workgroup (2,0,0){{.*}} in kernel byte_histogram
// CHECK: {{^    #0 0x[0-9a-f]+ \(.*/bug_atomic_oob\+0x[0-9a-f]+\)$}}
// CHECK-NOT: {{^ *#[0-9]+ }}
// CHECK: launched by host code here:
// CHECK: {{^0x[0-9a-f]+ }}{{[^']*}}0 bytes after{{[^']*}}'bins'
// CHECK: SUMMARY: AddressSanitizer: lds-buffer-overflow
// CHECK: ldsan-test: exit 1
// JSON-NOT: {"ldsan_report"
// JSON: {"ldsan_report":1,
// JSON-SAME: "type":"lds-buffer-overflow"
// JSON-SAME: "kernel":"byte_histogram
// JSON-SAME: "variable":"bins"
// JSON-SAME: "access":"write","size":4,
// JSON-SAME: "workgroup":[2,0,0]
// JSON-SAME: "threads":{{\[\[}}77,0,0]
// Built with -g0 (no line tables): the frame is the bare pc in the executable.
// CFLAGS: -g0
#include "common.h"

#define NBINS 255  // BUG: a byte has 256 values
__global__ void byte_histogram(const unsigned char *in, unsigned *out) {
  __shared__ unsigned bins[NBINS];
  for (int b = threadIdx.x; b < NBINS; b += blockDim.x) bins[b] = 0;
  __syncthreads();
  atomicAdd(&bins[in[blockIdx.x * blockDim.x + threadIdx.x]], 1u);
  __syncthreads();
  for (int b = threadIdx.x; b < NBINS; b += blockDim.x) atomicAdd(&out[b], bins[b]);
}

int main() {
  const int blocks = 4, threads = 128, n = blocks * threads;
  unsigned char in[n];
  for (int i = 0; i < n; i++) in[i] = (unsigned char)(i % 200);
  in[2 * threads + 77] = 255;
  unsigned char *din;
  unsigned *dout;
  HIP_CHECK(hipMalloc(&din, n));
  HIP_CHECK(hipMalloc(&dout, NBINS * sizeof(unsigned)));
  HIP_CHECK(hipMemcpy(din, in, n, hipMemcpyHostToDevice));
  HIP_CHECK(hipMemset(dout, 0, NBINS * sizeof(unsigned)));
  byte_histogram<<<blocks, threads>>>(din, dout);
  LAUNCH_CHECK();
  printf("bug_atomic_oob: no error detected\n");
  return 0;
}
