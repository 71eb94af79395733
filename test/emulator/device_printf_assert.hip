// Device printf and assert() on the emulator, as on a GPU: printf prints to
// stdout (the driver compiles the device part with -fno-builtin-printf; the
// core's __ldsan_emu_printf formats it), in work-item order within a
// workgroup. A failed assert() in a __device__ helper prints HIP's line
// (file, line, function, condition) to stderr, then the kernel stops with the
// kernel, workgroup and work-item named, and the trap ends the process as the
// HIP runtime ends it (abort_on_trap=0: the launch fails instead).
// RUN: %run %{exe} | FileCheck %s
// RUN: env LDSAN_OPTIONS=emu_fibers=1 %run %{exe} | FileCheck %s
// RUN: %run %{exe:lds-only} | FileCheck %s
// RUN: %run %{exe:O0} | FileCheck %s
// RUN: %run %{exe:wave32} | FileCheck %s
// RUN: %run %{exe} assert | FileCheck %s --check-prefix=ASSERT
// RUN: env LDSAN_OPTIONS=emu_fibers=1 %run %{exe} assert | FileCheck %s --check-prefix=ASSERT
// RUN: %run %{exe:lds-only} assert | FileCheck %s --check-prefix=ASSERT
// RUN: %run %{exe:O0} assert | FileCheck %s --check-prefix=ASSERT
// RUN: env LDSAN_OPTIONS=abort_on_trap=0 %run %{exe} assert | FileCheck %s --check-prefix=GOON
// CHECK-NOT: ERROR: AddressSanitizer
// CHECK-NOT: Device-side assertion
// CHECK: ldsan-test: stdout:
// CHECK-NEXT: {{^}}scale<int> item 0 of 64: in=3 out=6 tag=even c=a x=0x3 big=12345678901 f=1.50{{$}}
// CHECK-NEXT: {{^}}scale<int> item 1 of 64: in=4 out=8 tag=odd c=b x=0x4 big=12345678902 f=1.50{{$}}
// CHECK-NEXT: {{^}}scale<int> item 2 of 64: in=5 out=10 tag=even c=c x=0x5 big=12345678903 f=1.50{{$}}
// CHECK-NEXT: {{^}}scale<float> item 0 of 64: in=3 out=6 tag=even c=a x=0x3 big=12345678901 f=1.50{{$}}
// CHECK-NEXT: {{^}}scale<float> item 1 of 64: in=4 out=8 tag=odd c=b x=0x4 big=12345678902 f=1.50{{$}}
// CHECK-NEXT: {{^}}scale<float> item 2 of 64: in=5 out=10 tag=even c=c x=0x5 big=12345678903 f=1.50{{$}}
// CHECK-NEXT: device_printf_assert: results checked
// CHECK-NEXT: ldsan-test: exit 0
// ASSERT-NOT: ERROR: AddressSanitizer
// ASSERT: {{^}}{{.*}}test/emulator/device_printf_assert.hip:[[@LINE+28]]: int checked_index(int, int): Device-side assertion `i >= 0 && i < n && "index out of range"' failed.{{$}}
// ASSERT-NEXT: {{^}}ldsan-emu: error: kernel 'void gather<int>(int*, int const*, int const*, int)' <<<(2,1,1), (64,1,1), 0>>> failed: ldsan-emu: device assertion failed in kernel _Z6gatherIiEvPT_PKS0_PKii at workgroup (1,0,0) work-item (5,0,0){{$}}
// ASSERT-NEXT: ldsan-emu: a device trap ends the process
// ASSERT-NEXT: ldsan-test: stdout:
// ASSERT-NEXT: device_printf_assert: gathering
// ASSERT-NEXT: ldsan-test: exit 1
// GOON: Device-side assertion `i >= 0 && i < n && "index out of range"' failed.
// GOON: ldsan-test: stdout:
// GOON-NEXT: device_printf_assert: gathering
// GOON-NEXT: device_printf_assert: the launch failed: hipErrorLaunchFailure
// GOON-NEXT: ldsan-test: exit 0
#include <cassert>
#include <cstring>
#include <vector>
#include "common.h"

template <typename T> __device__ const char *type_name();
template <> __device__ const char *type_name<int>() { return "int"; }
template <> __device__ const char *type_name<float>() { return "float"; }

template <typename T> __global__ void scale(const T *in, T *out, long long base) {
  int i = threadIdx.x;
  out[i] = in[i] * 2;
  if (i < 3)  // printf-debugging, as users do
    printf("scale<%s> item %d of %u: in=%d out=%d tag=%s c=%c x=%#x big=%lld f=%.2f\n", type_name<T>(), i, (unsigned)blockDim.x, (int)in[i], (int)out[i], i % 2 ? "odd" : "even", 'a' + i, (unsigned)in[i], base + i, 1.5f);
}

__device__ int checked_index(int i, int n) {
  assert(i >= 0 && i < n && "index out of range");
  return i;
}

template <typename T> __global__ void gather(T *out, const T *in, const int *idx, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  out[i] = in[checked_index(idx[i], n)];
}

template <typename T> static void run_scale() {
  std::vector<T> in(64), out(64);
  for (int i = 0; i < 64; i++) in[i] = T(i + 3);
  T *din, *dout;
  HIP_CHECK(hipMalloc(&din, 64 * sizeof(T)));
  HIP_CHECK(hipMalloc(&dout, 64 * sizeof(T)));
  HIP_CHECK(hipMemcpy(din, in.data(), 64 * sizeof(T), hipMemcpyHostToDevice));
  scale<T><<<1, 64>>>(din, dout, 12345678901LL);
  LAUNCH_CHECK();
  HIP_CHECK(hipMemcpy(out.data(), dout, 64 * sizeof(T), hipMemcpyDeviceToHost));
  for (int i = 0; i < 64; i++)
    if (out[i] != in[i] * 2) {
      fprintf(stderr, "element %d is wrong\n", i);
      exit(4);
    }
  HIP_CHECK(hipFree(din));
  HIP_CHECK(hipFree(dout));
}

int main(int argc, char **argv) {
  if (argc > 1 && !strcmp(argv[1], "assert")) {
    std::vector<int> in(128, 1), idx(128);
    for (int i = 0; i < 128; i++) idx[i] = i == 64 + 5 ? 128 : i;  // one index past the end
    int *din, *didx, *dout;
    HIP_CHECK(hipMalloc(&din, 128 * sizeof(int)));
    HIP_CHECK(hipMalloc(&didx, 128 * sizeof(int)));
    HIP_CHECK(hipMalloc(&dout, 128 * sizeof(int)));
    HIP_CHECK(hipMemcpy(din, in.data(), 128 * sizeof(int), hipMemcpyHostToDevice));
    HIP_CHECK(hipMemcpy(didx, idx.data(), 128 * sizeof(int), hipMemcpyHostToDevice));
    printf("device_printf_assert: gathering\n");
    gather<int><<<2, 64>>>(dout, din, didx, 128);
    hipError_t e = hipDeviceSynchronize();
    printf("device_printf_assert: the launch failed: %s\n", hipGetErrorName(e));
    return 0;
  }
  run_scale<int>();
  run_scale<float>();
  printf("device_printf_assert: results checked\n");
  return 0;
}
