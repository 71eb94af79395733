// Half and double precision in device code: pair means in __half staged in a
// __shared__ tile (hip_fp16.h's conversions and arithmetic), and a normal density
// with sqrt and exp of doubles.
#include <hip/hip_runtime.h>
#include <hip/hip_fp16.h>
#include <vector>
#include "hip_check.h"
#include "stats.h"

constexpr int kBlock = 256;

__global__ void pair_means_half(const float *x, float *out, int n) {
  __shared__ __half tile[kBlock];
  int t = threadIdx.x, i = blockIdx.x * kBlock + t;
  tile[t] = __float2half(i < n ? x[i] : 0.0f);
  __syncthreads();
  __half sum = __hadd(tile[t], tile[(t + 1) % kBlock]);
  if (i < n) out[i] = __half2float(__hmul(sum, __float2half(0.5f)));
}

__global__ void normal_pdf_kernel(const double *x, double mean, double stddev, double *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  const double pi = 3.14159265358979323846;
  double z = (x[i] - mean) / stddev;
  out[i] = exp(-0.5 * z * z) / (stddev * sqrt(2.0 * pi));
}

template <typename T>
static T *device_copy(const std::vector<T> &v) {
  T *d = nullptr;
  HIP_CHECK(hipMalloc(&d, v.size() * sizeof(T)));
  HIP_CHECK(hipMemcpy(d, v.data(), v.size() * sizeof(T), hipMemcpyHostToDevice));
  return d;
}

template <typename T>
static std::vector<T> host_copy(T *d, size_t n) {
  std::vector<T> v(n);
  HIP_CHECK(hipMemcpy(v.data(), d, n * sizeof(T), hipMemcpyDeviceToHost));
  HIP_CHECK(hipFree(d));
  return v;
}

std::vector<float> half_pair_means(const std::vector<float> &x) {
  int n = static_cast<int>(x.size());
  float *dx = device_copy(x), *dout = nullptr;
  HIP_CHECK(hipMalloc(&dout, x.size() * sizeof(float)));
  hipLaunchKernelGGL(pair_means_half, dim3((n + kBlock - 1) / kBlock), dim3(kBlock), 0, 0, dx, dout, n);
  HIP_CHECK(hipGetLastError());
  HIP_CHECK(hipFree(dx));
  return host_copy(dout, x.size());
}

std::vector<double> normal_pdf(const std::vector<double> &x, double mean, double stddev) {
  int n = static_cast<int>(x.size());
  double *dx = device_copy(x), *dout = nullptr;
  HIP_CHECK(hipMalloc(&dout, x.size() * sizeof(double)));
  hipLaunchKernelGGL(normal_pdf_kernel, dim3((n + 127) / 128), dim3(128), 0, 0, dx, mean, stddev, dout, n);
  HIP_CHECK(hipGetLastError());
  HIP_CHECK(hipFree(dx));
  return host_copy(dout, x.size());
}
