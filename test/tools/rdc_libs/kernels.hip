// libkernels: kernels staging their data in __shared__ arrays and calling
// libdevmath's __device__ functions (devmath.h), with host wrappers taking
// std::vector. -DPLANT_LDS_BUG leaves stencil_smooth's tile one element short,
// so the last work-item of each block writes the right neighbour past its end.
#include <hip/hip_runtime.h>
#include <cstdio>
#include <cstdlib>
#include <vector>
#include "devmath.h"
#include "kernels.h"

#define CHECK(call)                                                                  \
  do {                                                                               \
    hipError_t err_ = (call);                                                        \
    if (err_ != hipSuccess) {                                                        \
      std::fprintf(stderr, "%s failed: %s\n", #call, hipGetErrorString(err_));       \
      std::exit(1);                                                                  \
    }                                                                                \
  } while (0)

constexpr int kBlock = 256;
#ifdef PLANT_LDS_BUG
constexpr int kHalo = 1;  // planted: room for one neighbour only
#else
constexpr int kHalo = 2;  // the left and the right neighbour
#endif

__global__ void stencil_smooth(const float *in, float *out, int n) {
  __shared__ float halo_tile[kBlock + kHalo];  // the block's values at [1, kBlock], neighbours around
  int t = threadIdx.x, i = blockIdx.x * kBlock + t;
  halo_tile[t + 1] = i < n ? in[i] : 0.0f;
  if (t == 0) halo_tile[0] = i > 0 && i - 1 < n ? in[i - 1] : 0.0f;
  if (t == kBlock - 1) halo_tile[t + 2] = i + 1 < n ? in[i + 1] : 0.0f;  // the right neighbour
  __syncthreads();
  float around = devmath::mix(halo_tile[t], halo_tile[t + 2], 0.5f);
  if (i < n) out[i] = devmath::smoothstep01(devmath::mix(halo_tile[t + 1], around, 0.5f));
}

// One partial sum per block: a tree reduction in LDS.
template <typename T>
__global__ void blended_squares(const T *a, const T *b, T w, T *partial, int n) {
  __shared__ T sums[kBlock];
  int t = threadIdx.x, i = blockIdx.x * kBlock + t;
  sums[t] = i < n ? devmath::square(devmath::mix(a[i], b[i], w)) : T(0);
  __syncthreads();
  for (int s = kBlock / 2; s > 0; s /= 2) {
    if (t < s) sums[t] += sums[t + s];
    __syncthreads();
  }
  if (t == 0) partial[blockIdx.x] = sums[0];
}

template <typename T>
static T *to_device(const std::vector<T> &v) {
  T *d = nullptr;
  CHECK(hipMalloc(&d, v.size() * sizeof(T)));
  CHECK(hipMemcpy(d, v.data(), v.size() * sizeof(T), hipMemcpyHostToDevice));
  return d;
}

template <typename T>
static std::vector<T> from_device(T *d, size_t n) {
  std::vector<T> v(n);
  CHECK(hipMemcpy(v.data(), d, n * sizeof(T), hipMemcpyDeviceToHost));
  CHECK(hipFree(d));
  return v;
}

std::vector<float> smooth(const std::vector<float> &in) {
  int n = static_cast<int>(in.size()), blocks = (n + kBlock - 1) / kBlock;
  float *din = to_device(in), *dout = nullptr;
  CHECK(hipMalloc(&dout, in.size() * sizeof(float)));
  hipLaunchKernelGGL(stencil_smooth, dim3(blocks), dim3(kBlock), 0, 0, din, dout, n);
  CHECK(hipGetLastError());
  CHECK(hipFree(din));
  return from_device(dout, in.size());
}

template <typename T>
static T energy(const std::vector<T> &a, const std::vector<T> &b, T w) {
  int n = static_cast<int>(a.size()), blocks = (n + kBlock - 1) / kBlock;
  T *da = to_device(a), *db = to_device(b), *dpartial = nullptr;
  CHECK(hipMalloc(&dpartial, blocks * sizeof(T)));
  hipLaunchKernelGGL(blended_squares<T>, dim3(blocks), dim3(kBlock), 0, 0, da, db, w, dpartial, n);
  CHECK(hipGetLastError());
  CHECK(hipFree(da));
  CHECK(hipFree(db));
  T total = 0;
  for (T p : from_device(dpartial, blocks)) total += p;
  return total;
}

float blended_energy(const std::vector<float> &a, const std::vector<float> &b, float w) { return energy(a, b, w); }
double blended_energy(const std::vector<double> &a, const std::vector<double> &b, double w) { return energy(a, b, w); }
