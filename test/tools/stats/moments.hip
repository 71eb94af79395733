// A templated block reduction in __shared__ memory, for float and double: each
// block sums (x - center) and (x - center)^2 over its values; the host adds the
// blocks' partial sums. Two passes: the mean, then the deviations from it.
#include <hip/hip_runtime.h>
#include <cmath>
#include <vector>
#include "hip_check.h"
#include "stats.h"

constexpr int kBlock = 256;

template <typename T>
__global__ void block_moments(const T *x, int n, T center, T *partial) {
  __shared__ T sum[kBlock];
  __shared__ T sum_sq[kBlock];
  int t = threadIdx.x;
  T s = 0, q = 0;
  for (int i = blockIdx.x * kBlock + t; i < n; i += gridDim.x * kBlock) {  // grid-stride
    T d = x[i] - center;
    s += d;
    q += d * d;
  }
  sum[t] = s;
  sum_sq[t] = q;
  __syncthreads();
  for (int half = kBlock / 2; half > 0; half /= 2) {
    if (t < half) {
      sum[t] += sum[t + half];
      sum_sq[t] += sum_sq[t + half];
    }
    __syncthreads();
  }
  if (t == 0) {
    partial[2 * blockIdx.x] = sum[0];
    partial[2 * blockIdx.x + 1] = sum_sq[0];
  }
}

// Sums of (x - center) and (x - center)^2 over x, in the precision of T.
template <typename T>
static void sums(const T *dx, int n, T center, T &s, T &q) {
  const int blocks = 16;
  T *dpartial = nullptr;
  HIP_CHECK(hipMalloc(&dpartial, 2 * blocks * sizeof(T)));
  hipLaunchKernelGGL(block_moments<T>, dim3(blocks), dim3(kBlock), 0, 0, dx, n, center, dpartial);
  HIP_CHECK(hipGetLastError());
  std::vector<T> partial(2 * blocks);
  HIP_CHECK(hipMemcpy(partial.data(), dpartial, partial.size() * sizeof(T), hipMemcpyDeviceToHost));
  HIP_CHECK(hipFree(dpartial));
  s = q = 0;
  for (int b = 0; b < blocks; b++) {
    s += partial[2 * b];
    q += partial[2 * b + 1];
  }
}

template <typename T>
Moments<T> moments(const std::vector<T> &x) {
  int n = static_cast<int>(x.size());
  T *dx = nullptr;
  HIP_CHECK(hipMalloc(&dx, x.size() * sizeof(T)));
  HIP_CHECK(hipMemcpy(dx, x.data(), x.size() * sizeof(T), hipMemcpyHostToDevice));
  T s, q;
  sums(dx, n, T(0), s, q);
  T mean = s / n;
  sums(dx, n, mean, s, q);
  HIP_CHECK(hipFree(dx));
  return Moments<T>{mean, std::sqrt(q / n)};
}

template Moments<float> moments(const std::vector<float> &);
template Moments<double> moments(const std::vector<double> &);
