// Clean: the HIP runtime surface around kernels — __constant__ and __device__
// variables through hipMemcpyToSymbol/FromSymbol, a templated kernel,
// hipLaunchKernelGGL on a stream, events, hipMemset, device properties.
// RUN: %run %{exe} | FileCheck %s --implicit-check-not='ERROR: AddressSanitizer' --implicit-check-not='ldsan-emu: error:'
// RUN: env LDSAN_OPTIONS=emu_fibers=1 %run %{exe} | FileCheck %s --implicit-check-not='ERROR: AddressSanitizer' --implicit-check-not='ldsan-emu: error:'
// RUN: %run %{exe:sanitized} | FileCheck %s --implicit-check-not='ERROR: AddressSanitizer' --implicit-check-not='ldsan-emu: error:'
// RUN: env LDSAN_OPTIONS=emu_fibers=1 %run %{exe:sanitized} | FileCheck %s --implicit-check-not='ERROR: AddressSanitizer' --implicit-check-not='ldsan-emu: error:'
// CHECK: ldsan-test: stdout:
// CHECK: clean_runtime_api: PASSED
// CHECK: ldsan-test: exit 0
#include "common.h"
#include <string.h>

__constant__ float coeff[4];
__device__ unsigned long long calls;

template <typename T>
__global__ void poly(const T *x, T *y, int n) {
  __shared__ T c[4];
  if (threadIdx.x < 4) c[threadIdx.x] = (T)coeff[threadIdx.x];
  __syncthreads();
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] = ((c[3] * x[i] + c[2]) * x[i] + c[1]) * x[i] + c[0];
  if (threadIdx.x == 0) atomicAdd(&calls, 1ull);
}

int main() {
  hipDeviceProp_t prop;
  HIP_CHECK(hipGetDeviceProperties(&prop, 0));
  if (prop.warpSize != 64 || strncmp(prop.gcnArchName, "gfx90a", 6) != 0) {
    fprintf(stderr, "unexpected device: warpSize %d arch %s\n", prop.warpSize, prop.gcnArchName);
    return 5;
  }
  const int n = 1000;
  static double x[n], y[n], want[n];
  const float c[4] = {1, -2, 0.5f, 0.25f};
  for (int i = 0; i < n; i++) {
    x[i] = i / 100.0;
    want[i] = ((c[3] * x[i] + c[2]) * x[i] + c[1]) * x[i] + c[0];
  }
  HIP_CHECK(hipMemcpyToSymbol(HIP_SYMBOL(coeff), c, sizeof c));
  unsigned long long zero = 0, ncalls = 0;
  HIP_CHECK(hipMemcpyToSymbol(HIP_SYMBOL(calls), &zero, sizeof zero));
  double *dx, *dy;
  HIP_CHECK(hipMalloc(&dx, sizeof x));
  HIP_CHECK(hipMalloc(&dy, sizeof y));
  HIP_CHECK(hipMemset(dy, 0, sizeof y));
  hipStream_t s;
  hipEvent_t start, stop;
  HIP_CHECK(hipStreamCreate(&s));
  HIP_CHECK(hipEventCreate(&start));
  HIP_CHECK(hipEventCreate(&stop));
  HIP_CHECK(hipMemcpyAsync(dx, x, sizeof x, hipMemcpyHostToDevice, s));
  HIP_CHECK(hipEventRecord(start, s));
  hipLaunchKernelGGL(poly<double>, dim3((n + 127) / 128), dim3(128), 0, s, dx, dy, n);
  HIP_CHECK(hipGetLastError());
  HIP_CHECK(hipEventRecord(stop, s));
  HIP_CHECK(hipStreamSynchronize(s));
  float ms;
  HIP_CHECK(hipEventElapsedTime(&ms, start, stop));
  HIP_CHECK(hipMemcpy(y, dy, sizeof y, hipMemcpyDefault));
  HIP_CHECK(hipMemcpyFromSymbol(&ncalls, HIP_SYMBOL(calls), sizeof ncalls));
  check_equal("poly", y, want, n, 1e-6);
  if (ncalls != (n + 127) / 128) {
    fprintf(stderr, "calls = %llu, expected %d\n", ncalls, (n + 127) / 128);
    return 4;
  }
  HIP_CHECK(hipStreamDestroy(s));
  passed("clean_runtime_api");
  return 0;
}
