// Clean: launches asking for absurd dynamic LDS sizes ((size_t)-8, (size_t)-16,
// 64 KiB + 1) are refused at launch with hipErrorInvalidValue, as a GPU's HIP
// runtime refuses them, and the kernel never runs (a size near SIZE_MAX used to
// wrap the launch check: the kernel ran and wrote 400 KB past its block). A
// launch with the largest allowed size runs.
// RUN: %run %{exe} | FileCheck %s --implicit-check-not='ERROR: AddressSanitizer'
// RUN: env LDSAN_OPTIONS=emu_fibers=1 %run %{exe} | FileCheck %s --implicit-check-not='ERROR: AddressSanitizer'
// RUN: %run %{exe:lds-only+wave32} | FileCheck %s --implicit-check-not='ERROR: AddressSanitizer'
// RUN: env LDSAN_OPTIONS=emu_fibers=1 %run %{exe:lds-only+wave32} | FileCheck %s --implicit-check-not='ERROR: AddressSanitizer'
// CHECK-NOT: ldsan-emu: error:
// CHECK: ldsan-emu: error:{{.*}}kernel 'touch(int*)' asks for 18446744073709551608 bytes of dynamic LDS; the device has 65536 bytes of LDS per workgroup
// CHECK: asks for 18446744073709551600 bytes of dynamic LDS; the device has 65536 bytes
// CHECK: ldsan-test: stdout:
// CHECK: clean_absurd_dynamic_lds: PASSED
// CHECK: ldsan-test: exit 0
#include <hip/hip_runtime.h>
#include <cstdint>
#include <cstdio>

__global__ void touch(int *ran) {
  extern __shared__ int dyn[];
  dyn[threadIdx.x] = 1;
  __syncthreads();
  if (threadIdx.x == 0) atomicAdd(ran, dyn[0]);
}

int main() {
  int *ran = nullptr, host = 0, bad = 0;
  if (hipMalloc(&ran, sizeof *ran) != hipSuccess || hipMemset(ran, 0, sizeof *ran) != hipSuccess) return 3;
  const size_t absurd[] = {SIZE_MAX - 7, SIZE_MAX - 15, 65536 + 1};
  for (size_t size : absurd) {
    hipLaunchKernelGGL(touch, dim3(2), dim3(64), size, 0, ran);
    hipError_t err = hipGetLastError();
    if (err != hipErrorInvalidValue) {
      std::printf("dynamic LDS %zu: launch returned %d, expected hipErrorInvalidValue\n", size, (int)err);
      bad++;
    }
  }
  if (hipMemcpy(&host, ran, sizeof host, hipMemcpyDeviceToHost) != hipSuccess) return 3;
  if (host != 0) { std::printf("a refused launch ran the kernel (%d)\n", host); bad++; }
  hipFuncAttributes attr;
  if (hipFuncGetAttributes(&attr, reinterpret_cast<const void *>(touch)) != hipSuccess) return 3;
  hipLaunchKernelGGL(touch, dim3(2), dim3(64), attr.maxDynamicSharedSizeBytes, 0, ran);
  if (hipGetLastError() != hipSuccess || hipDeviceSynchronize() != hipSuccess) bad++;
  if (hipMemcpy(&host, ran, sizeof host, hipMemcpyDeviceToHost) != hipSuccess) return 3;
  if (host != 2) { std::printf("the largest allowed launch ran %d workgroups, expected 2\n", host); bad++; }
  std::printf("clean_absurd_dynamic_lds: %s\n", bad ? "FAILED" : "PASSED");
  return bad != 0;
}
