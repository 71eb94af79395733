// Bug: the LDS backing store (LDSAN_OPTIONS=lds_pool_size) cannot hold the
// block a workgroup needs. With halt_on_error=0 every workgroup of both
// dispatches reports it (dedup: one full report per dispatch, the rest counted)
// and leaves the kernel at its first barrier: no work-item touches the missing
// block (unguarded, the body ran on address 0 and the process died of a SEGV
// before the report was printed). The host program sees the kernel did nothing
// and goes on.
// RUN: env LDSAN_OPTIONS=lds_pool_size=64K:halt_on_error=0 %run %{exe} > %t && FileCheck %s --implicit-check-not=SEGV < %t && FileCheck %s --check-prefix=REPORTS < %t
// RUN: env LDSAN_OPTIONS=lds_pool_size=64K:halt_on_error=0:emu_fibers=1 %run %{exe} > %t && FileCheck %s --implicit-check-not=SEGV < %t && FileCheck %s --check-prefix=REPORTS < %t
// RUN: env LDSAN_OPTIONS=lds_pool_size=64K:halt_on_error=0 %run %{exe:lds-only} > %t && FileCheck %s --implicit-check-not=SEGV < %t && FileCheck %s --check-prefix=REPORTS < %t
// RUN: env LDSAN_OPTIONS=lds_pool_size=64K:halt_on_error=0:emu_fibers=1 %run %{exe:lds-only} > %t && FileCheck %s --implicit-check-not=SEGV < %t && FileCheck %s --check-prefix=REPORTS < %t
// RUN: env LDSAN_OPTIONS=lds_pool_size=64K:halt_on_error=0 %run %{exe:lds-only+wave32} > %t && FileCheck %s --implicit-check-not=SEGV < %t && FileCheck %s --check-prefix=REPORTS < %t
// RUN: env LDSAN_OPTIONS=lds_pool_size=64K:halt_on_error=0:emu_fibers=1 %run %{exe:lds-only+wave32} > %t && FileCheck %s --implicit-check-not=SEGV < %t && FileCheck %s --check-prefix=REPORTS < %t
// RUN: env LDSAN_OPTIONS=lds_pool_size=64K:halt_on_error=0:report_format=json %run %{exe} | FileCheck %s --check-prefix=JSON
// RUN: env LDSAN_OPTIONS=lds_pool_size=64K:halt_on_error=0:report_format=json %run %{exe:lds-only} | FileCheck %s --check-prefix=JSON
// RUN: env LDSAN_OPTIONS=lds_pool_size=64K:halt_on_error=0:report_format=json %run %{exe:lds-only+wave32} | FileCheck %s --check-prefix=JSON
// CHECK-NOT: ERROR: AddressSanitizer
// CHECK: ERROR: AddressSanitizer: lds-block-too-large on
// CHECK: cannot allocate an LDS block of 2592 bytes for kernel fill(int*): larger than the whole LDS backing store (65536 bytes)
// CHECK: SUMMARY: AddressSanitizer: lds-block-too-large
// CHECK: ldsan-test: stdout:
// CHECK: second dispatch untouched: 1024 of 1024
// CHECK: ldsan-test: exit 0
// REPORTS-COUNT-2: ERROR: AddressSanitizer:
// REPORTS-NOT: ERROR: AddressSanitizer:
// JSON-NOT: {"ldsan_report"
// JSON: {"ldsan_report":1,
// JSON-SAME: "type":"lds-block-too-large"
#include <hip/hip_runtime.h>
#include <cstdio>

__global__ void fill(int *out) {
  __shared__ int tile[512];
  tile[threadIdx.x] = (int)threadIdx.x;
  __syncthreads();
  out[blockIdx.x * blockDim.x + threadIdx.x] = tile[blockDim.x - 1 - threadIdx.x];
}

static int untouched(int *d, int n) {
  int host[1024], count = 0;
  if (hipMemcpy(host, d, n * sizeof(int), hipMemcpyDeviceToHost) != hipSuccess) return -1;
  for (int i = 0; i < n; i++) count += host[i] == -7;
  return count;
}

int main() {
  const int n = 1024;
  int init[n], *d = nullptr;
  for (int i = 0; i < n; i++) init[i] = -7;
  if (hipMalloc(&d, sizeof init) != hipSuccess || hipMemcpy(d, init, sizeof init, hipMemcpyHostToDevice) != hipSuccess)
    return 3;
  hipLaunchKernelGGL(fill, dim3(4), dim3(256), 0, 0, d);
  hipDeviceSynchronize();
  std::printf("untouched: %d of %d\n", untouched(d, n), n);
  hipLaunchKernelGGL(fill, dim3(4), dim3(256), 0, 0, d);
  hipDeviceSynchronize();
  std::printf("second dispatch untouched: %d of %d\n", untouched(d, n), n);
  return 0;
}
