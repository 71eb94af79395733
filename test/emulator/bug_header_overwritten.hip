// Bug: work-item 0 writes 48 bytes before its __shared__ array, into ldsan's
// block header (the kernel-descriptor field), with halt_on_error=0 so the store
// happens after the report; a later bug in the same workgroup is reported with
// the overwritten header. The host reads device-written addresses without
// trusting them: both reports are printed, and the program goes on (the
// host's reader used to fault on the garbage descriptor address while it
// drained, and no report was printed).
// RUN: env LDSAN_OPTIONS=halt_on_error=0 %run %{exe} > %t && FileCheck %s --implicit-check-not=SEGV < %t && FileCheck %s --check-prefix=REPORTS < %t
// RUN: env LDSAN_OPTIONS=halt_on_error=0:emu_fibers=1 %run %{exe} > %t && FileCheck %s --implicit-check-not=SEGV < %t && FileCheck %s --check-prefix=REPORTS < %t
// RUN: env LDSAN_OPTIONS=halt_on_error=0 %run %{exe:lds-only} > %t && FileCheck %s --implicit-check-not=SEGV < %t && FileCheck %s --check-prefix=REPORTS < %t
// RUN: env LDSAN_OPTIONS=halt_on_error=0:emu_fibers=1 %run %{exe:lds-only} > %t && FileCheck %s --implicit-check-not=SEGV < %t && FileCheck %s --check-prefix=REPORTS < %t
// RUN: env LDSAN_OPTIONS=halt_on_error=0 %run %{exe:lds-only+wave32} > %t && FileCheck %s --implicit-check-not=SEGV < %t && FileCheck %s --check-prefix=REPORTS < %t
// RUN: env LDSAN_OPTIONS=halt_on_error=0:emu_fibers=1 %run %{exe:lds-only+wave32} > %t && FileCheck %s --implicit-check-not=SEGV < %t && FileCheck %s --check-prefix=REPORTS < %t
// RUN: env LDSAN_OPTIONS=halt_on_error=0:report_format=json %run %{exe} | FileCheck %s --check-prefix=JSON
// RUN: env LDSAN_OPTIONS=halt_on_error=0:report_format=json %run %{exe:lds-only} | FileCheck %s --check-prefix=JSON
// RUN: env LDSAN_OPTIONS=halt_on_error=0:report_format=json %run %{exe:lds-only+wave32} | FileCheck %s --check-prefix=JSON
// CHECK-NOT: ERROR: AddressSanitizer
// CHECK: ERROR: AddressSanitizer: lds-buffer-underflow on
// CHECK: is located 48 bytes before the start of the LDS block of kernel clobber(long*, int) (in ldsan's block header)
// CHECK: SUMMARY: AddressSanitizer: lds-buffer-underflow
// CHECK: ERROR: AddressSanitizer: lds-buffer-overflow
// CHECK: ldsan-test: stdout:
// CHECK: clobber: the program went on
// CHECK: ldsan-test: exit 0
// REPORTS-COUNT-2: ERROR: AddressSanitizer:
// REPORTS-NOT: ERROR: AddressSanitizer:
// JSON-NOT: {"ldsan_report"
// JSON: {"ldsan_report":1,
// JSON-SAME: "type":"lds-buffer-underflow"
#include <hip/hip_runtime.h>
#include <cstdio>

__global__ void clobber(long *out, int i) {
  __shared__ long tile[64];
  tile[threadIdx.x] = threadIdx.x;
  __syncthreads();
  if (threadIdx.x == 0) tile[i] = 0x00007f0000001000L;  // BUG: i = -10, the header's descriptor field
  __syncthreads();
  if (threadIdx.x == 1) out[0] = tile[threadIdx.x + 63];  // BUG: tile[64], with the header garbage
}

int main() {
  long *out = nullptr;
  if (hipMalloc(&out, sizeof(long)) != hipSuccess) return 3;
  hipLaunchKernelGGL(clobber, dim3(1), dim3(64), 0, 0, out, -10);
  hipDeviceSynchronize();
  std::printf("clobber: the program went on\n");
  return 0;
}
