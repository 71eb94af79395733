// A histogram library as CMake projects build one: a templated kernel with
// per-block bins in LDS (__shared__), shared-memory atomics, then one global
// atomic per bin. HISTOGRAM_PLANT_LDS_BUG makes the bin-clearing loop run one
// bin too far (bins[kBins], past the array): the bug ldsan must name.
#include <hip/hip_runtime.h>
#include <cstdio>
#include <cstdlib>
#include "histogram.h"

#define HIP_CHECK(call)                                                                  \
  do {                                                                                   \
    hipError_t status_ = (call);                                                         \
    if (status_ != hipSuccess) {                                                         \
      std::fprintf(stderr, "%s:%d: %s: %s\n", __FILE__, __LINE__, #call,                 \
                   hipGetErrorString(status_));                                          \
      std::exit(EXIT_FAILURE);                                                           \
    }                                                                                    \
  } while (0)

template <typename T>
__global__ void histogram_kernel(const T *values, int n, unsigned *bins_out) {
  __shared__ unsigned bins[kBins];
#ifdef HISTOGRAM_PLANT_LDS_BUG
  for (int b = threadIdx.x; b <= kBins; b += blockDim.x) bins[b] = 0;
#else
  for (int b = threadIdx.x; b < kBins; b += blockDim.x) bins[b] = 0;
#endif
  __syncthreads();
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x) {
    int b = static_cast<int>(values[i] * kBins);
    atomicAdd(&bins[b < kBins ? b : kBins - 1], 1u);
  }
  __syncthreads();
  for (int b = threadIdx.x; b < kBins; b += blockDim.x) atomicAdd(&bins_out[b], bins[b]);
}

template <typename T>
static std::vector<std::uint32_t> run(const std::vector<T> &values) {
  T *d_values = nullptr;
  unsigned *d_bins = nullptr;
  HIP_CHECK(hipMalloc(&d_values, values.size() * sizeof(T)));
  HIP_CHECK(hipMalloc(&d_bins, kBins * sizeof(unsigned)));
  HIP_CHECK(hipMemcpy(d_values, values.data(), values.size() * sizeof(T), hipMemcpyHostToDevice));
  HIP_CHECK(hipMemset(d_bins, 0, kBins * sizeof(unsigned)));
  histogram_kernel<T><<<dim3(4), dim3(128)>>>(d_values, static_cast<int>(values.size()), d_bins);
  HIP_CHECK(hipGetLastError());
  std::vector<std::uint32_t> bins(kBins);
  HIP_CHECK(hipMemcpy(bins.data(), d_bins, kBins * sizeof(unsigned), hipMemcpyDeviceToHost));
  HIP_CHECK(hipFree(d_values));
  HIP_CHECK(hipFree(d_bins));
  return bins;
}

std::vector<std::uint32_t> gpu_histogram(const std::vector<float> &values) { return run(values); }
std::vector<std::uint32_t> gpu_histogram(const std::vector<double> &values) { return run(values); }
