// Bug: work-item 3 of the first workgroup writes 9 KiB below its __shared__
// array: far below its LDS block, into ldsan's backing store where no block is
// (there: the pool's bookkeeping). Poisoned before any block was handed out,
// it is reported as the access it is (naming how far before this workgroup's
// block it lies), and the allocator is intact: the program's later launches run
// and the block is given back without a misleading bad-free report.
// RUN: env LDSAN_OPTIONS=halt_on_error=0 %run %{exe} > %t && FileCheck %s --implicit-check-not=lds-bad-free < %t && FileCheck %s --check-prefix=REPORTS < %t
// RUN: env LDSAN_OPTIONS=halt_on_error=0:emu_fibers=1 %run %{exe} > %t && FileCheck %s --implicit-check-not=lds-bad-free < %t && FileCheck %s --check-prefix=REPORTS < %t
// RUN: env LDSAN_OPTIONS=halt_on_error=0 %run %{exe:lds-only} > %t && FileCheck %s --implicit-check-not=lds-bad-free < %t && FileCheck %s --check-prefix=REPORTS < %t
// RUN: env LDSAN_OPTIONS=halt_on_error=0:emu_fibers=1 %run %{exe:lds-only} > %t && FileCheck %s --implicit-check-not=lds-bad-free < %t && FileCheck %s --check-prefix=REPORTS < %t
// RUN: env LDSAN_OPTIONS=halt_on_error=0 %run %{exe:lds-only+wave32} > %t && FileCheck %s --implicit-check-not=lds-bad-free < %t && FileCheck %s --check-prefix=REPORTS < %t
// RUN: env LDSAN_OPTIONS=halt_on_error=0:emu_fibers=1 %run %{exe:lds-only+wave32} > %t && FileCheck %s --implicit-check-not=lds-bad-free < %t && FileCheck %s --check-prefix=REPORTS < %t
// RUN: env LDSAN_OPTIONS=halt_on_error=0:report_format=json %run %{exe} | FileCheck %s --check-prefix=JSON
// RUN: env LDSAN_OPTIONS=halt_on_error=0:report_format=json %run %{exe:lds-only} | FileCheck %s --check-prefix=JSON
// RUN: env LDSAN_OPTIONS=halt_on_error=0:report_format=json %run %{exe:lds-only+wave32} | FileCheck %s --check-prefix=JSON
// CHECK-NOT: ERROR: AddressSanitizer
// CHECK: ERROR: AddressSanitizer: lds-buffer-overflow on
// CHECK: {{^}}WRITE of size 4 at{{.*}} thread (work-item) (3,0,0){{.*}} of workgroup (0,0,0){{.*}} in kernel far_below
// CHECK: {{^0x[0-9a-f]+ }}{{.*}}is in ldsan's LDS backing store,
// CHECK: SUMMARY: AddressSanitizer: lds-buffer-overflow
// CHECK: ldsan-test: stdout:
// CHECK: second launch: 256 of 256
// CHECK: ldsan-test: exit 0
// REPORTS-COUNT-1: ERROR: AddressSanitizer:
// REPORTS-NOT: ERROR: AddressSanitizer:
// JSON-NOT: {"ldsan_report"
// JSON: {"ldsan_report":1,
// JSON-SAME: "type":"lds-buffer-overflow"
// JSON-SAME: "kernel":"far_below
// JSON-SAME: "access":"write","size":4,
// JSON-SAME: "workgroup":[0,0,0]
// JSON-SAME: "threads":{{\[\[}}3,0,0]
#include <hip/hip_runtime.h>
#include <cstdio>

__global__ void far_below(int *out, int reach) {
  __shared__ int tile[64];
  tile[threadIdx.x] = (int)threadIdx.x;
  __syncthreads();
  if (blockIdx.x == 0 && threadIdx.x == 3) tile[-reach] = 42;  // BUG: 9 KiB below the array
  out[blockIdx.x * blockDim.x + threadIdx.x] = tile[threadIdx.x];
}

int main() {
  int *d = nullptr, host[256];
  if (hipMalloc(&d, sizeof host) != hipSuccess) return 3;
  hipLaunchKernelGGL(far_below, dim3(4), dim3(64), 0, 0, d, 2304);
  hipDeviceSynchronize();
  hipLaunchKernelGGL(far_below, dim3(4), dim3(64), 0, 0, d, 0);  // clean: reach 0 is tile[0]
  hipDeviceSynchronize();
  if (hipMemcpy(host, d, sizeof host, hipMemcpyDeviceToHost) != hipSuccess) return 3;
  int ok = 0;
  for (int i = 0; i < 256; i++) ok += host[i] == (i % 64 == 0 && i < 64 ? 42 : i % 64) || host[i] == i % 64;
  std::printf("second launch: %d of 256\n", ok);
  return 0;
}
