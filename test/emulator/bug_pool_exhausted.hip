// Bug: device malloc keeps (leaks) most of a small LDS backing store
// (LDSAN_OPTIONS=lds_pool_size=1500K: one 1 MiB region after its 424 KiB of bookkeeping), so the next kernel's
// workgroups find no LDS block. With halt_on_error=0 each reports it (one full
// report, the rest counted), leaves the kernel at its first barrier without
// touching the missing block, and the program goes on: no crash, and the report
// names the kernel's own line. The same at -O2 with the LDS checks
// (detect_races, detect_uninit): the work-item loops' fast copies, entered only
// when the LDS block pointer is not null, must not be taken by the workgroups
// that got none.
// RUN: env LDSAN_OPTIONS=lds_pool_size=1500K:halt_on_error=0 %run %{exe} | FileCheck %s --implicit-check-not=SEGV
// RUN: env LDSAN_OPTIONS=lds_pool_size=1500K:halt_on_error=0:emu_fibers=1 %run %{exe} | FileCheck %s --implicit-check-not=SEGV
// RUN: env LDSAN_OPTIONS=lds_pool_size=1500K:halt_on_error=0:detect_races=1:detect_uninit=1 %run %{exe} | FileCheck %s --implicit-check-not=SEGV
// RUN: env LDSAN_OPTIONS=lds_pool_size=1500K:halt_on_error=0:detect_races=1:detect_uninit=1:emu_fibers=1 %run %{exe} | FileCheck %s --implicit-check-not=SEGV
// RUN: env LDSAN_OPTIONS=lds_pool_size=1500K:halt_on_error=0:report_format=json %run %{exe} | FileCheck %s --check-prefix=JSON
// RUN: env LDSAN_OPTIONS=lds_pool_size=1500K:halt_on_error=0:detect_races=1:detect_uninit=1:report_format=json %run %{exe} | FileCheck %s --check-prefix=JSON
// CHECK-NOT: ERROR: AddressSanitizer
// CHECK: ERROR: AddressSanitizer: lds-pool-exhausted on
// CHECK: cannot allocate an LDS block of 352 bytes for kernel reverse(int*): the LDS backing pool is full
// CHECK: {{^    #0 0x[0-9a-f]+ }}in reverse(int*) test/emulator/bug_pool_exhausted.hip:[[@LINE+16]]{{(:[0-9]+)?$}}
// CHECK-NEXT: HINT: every workgroup in flight holds one block; the LDS backing store holds 1536000 bytes
// CHECK: SUMMARY: AddressSanitizer: lds-pool-exhausted
// CHECK: ldsan-test: stdout:
// CHECK: hog: 1 block; reverse untouched: 64 of 64
// CHECK: ldsan-test: exit 0
// JSON-NOT: {"ldsan_report"
// JSON: {"ldsan_report":1,
// JSON-SAME: "type":"lds-pool-exhausted"
// JSON-SAME: "location":"test/emulator/bug_pool_exhausted.hip:[[@LINE+7]]
#include <hip/hip_runtime.h>
#include <cstdio>

// Takes a 900 KiB block of the store's only region and never frees it.
__global__ void hog(void **out) { out[0] = malloc(900 * 1024); }

__global__ void reverse(int *out) {
  __shared__ int s[64];
  s[threadIdx.x] = (int)threadIdx.x;
  __syncthreads();
  out[threadIdx.x] = s[63 - threadIdx.x];
}

int main() {
  void **p = nullptr, *got = nullptr;
  int *d = nullptr, init[64], back[64];
  for (int i = 0; i < 64; i++) init[i] = -7;
  if (hipMalloc(&p, sizeof(void *)) != hipSuccess || hipMalloc(&d, sizeof init) != hipSuccess ||
      hipMemcpy(d, init, sizeof init, hipMemcpyHostToDevice) != hipSuccess)
    return 3;
  hipLaunchKernelGGL(hog, dim3(1), dim3(1), 0, 0, p);
  if (hipDeviceSynchronize() != hipSuccess || hipMemcpy(&got, p, sizeof got, hipMemcpyDeviceToHost) != hipSuccess)
    return 3;
  hipLaunchKernelGGL(reverse, dim3(2), dim3(64), 0, 0, d);
  hipDeviceSynchronize();
  if (hipMemcpy(back, d, sizeof back, hipMemcpyDeviceToHost) != hipSuccess) return 3;
  int untouched = 0;
  for (int i = 0; i < 64; i++) untouched += back[i] == -7;
  std::printf("hog: %d block; reverse untouched: %d of 64\n", got != nullptr, untouched);
  return 0;
}
