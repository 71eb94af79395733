// Clean: a launch asking for the whole 64 KiB of dynamic LDS is refused under
// ldsan (hipErrorInvalidValue, the kernel does not run), with a message saying
// why: ldsan keeps 16 bytes of each workgroup's LDS (the pointer to its block
// in ldsan's LDS backing store; on a GPU too), so a kernel gets at most
// 65536 - 16 = 65520 bytes, its own __shared__ variables being in the block.
// A launch with that many (hipFuncGetAttributes' maxDynamicSharedSizeBytes)
// runs, and the kernel uses its last byte.
// RUN: %run %{exe} | FileCheck %s --implicit-check-not='ERROR: AddressSanitizer'
// RUN: env LDSAN_OPTIONS=emu_fibers=1 %run %{exe} | FileCheck %s --implicit-check-not='ERROR: AddressSanitizer'
// RUN: %run %{exe:lds-only+wave32} | FileCheck %s --implicit-check-not='ERROR: AddressSanitizer'
// CHECK-NOT: ldsan-emu: error:
// CHECK: ldsan-emu: error: hipLaunchKernel: kernel 'last_word(int*, int)' asks for 65536 bytes of dynamic LDS; under ldsan a kernel gets at most 65536 - 16 = 65520: a workgroup has 65536 bytes of LDS, on a GPU too, and ldsan keeps 16 of them (the pointer to the workgroup's block in ldsan's LDS backing store, which holds the kernel's own __shared__ variables); ask for at most 65520 bytes (hipFuncGetAttributes' maxDynamicSharedSizeBytes), not the device's sharedMemPerBlock
// CHECK-NOT: ldsan-emu: error:
// CHECK: ldsan-test: stdout:
// CHECK: maxDynamicSharedSizeBytes 65520
// CHECK: clean_dynamic_lds_64k: PASSED
// CHECK: ldsan-test: exit 0
#include "common.h"

__global__ void last_word(int *out, int words) {
  extern __shared__ int dyn[];
  if (threadIdx.x == 0) dyn[words - 1] = 42;
  __syncthreads();
  if (threadIdx.x == 1) out[blockIdx.x] = dyn[words - 1];
}

int main() {
  int *d, got[2] = {0, 0};
  HIP_CHECK(hipMalloc(&d, sizeof got));
  HIP_CHECK(hipMemset(d, 0, sizeof got));
  hipDeviceProp_t prop;
  HIP_CHECK(hipGetDeviceProperties(&prop, 0));
  size_t full = prop.sharedMemPerBlock;  // 65536
  hipLaunchKernelGGL(last_word, dim3(2), dim3(64), full, 0, d, (int)(full / 4));
  if (hipGetLastError() != hipErrorInvalidValue) {
    printf("a launch with %zu bytes of dynamic LDS was not refused\n", full);
    return 1;
  }
  HIP_CHECK(hipMemcpy(got, d, sizeof got, hipMemcpyDeviceToHost));
  if (got[0] || got[1]) { printf("the refused launch ran\n"); return 1; }
  hipFuncAttributes attr;
  HIP_CHECK(hipFuncGetAttributes(&attr, reinterpret_cast<const void *>(last_word)));
  printf("maxDynamicSharedSizeBytes %d\n", attr.maxDynamicSharedSizeBytes);
  hipLaunchKernelGGL(last_word, dim3(2), dim3(64), (size_t)attr.maxDynamicSharedSizeBytes, 0, d,
                     attr.maxDynamicSharedSizeBytes / 4);
  LAUNCH_CHECK();
  HIP_CHECK(hipMemcpy(got, d, sizeof got, hipMemcpyDeviceToHost));
  const int want[2] = {42, 42};
  check_equal("last word", got, want, 2);
  passed("clean_dynamic_lds_64k");
  return 0;
}
