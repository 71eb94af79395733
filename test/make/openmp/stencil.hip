// The stencil kernel: each block loads its tile and both halos into LDS, then
// averages 2*R+1 values from there. PLANT_LDS_BUG (EXTRA_CFLAGS=-DPLANT_LDS_BUG)
// shifts the right halo one element too far: its last element lands past the
// tile, the overflow ldsan must report.
#include <hip/hip_runtime.h>
#include <cstdio>
#include <cstdlib>
#include "stencil.h"

#define HIP_CHECK(call)                                                                        \
  do {                                                                                         \
    hipError_t err_ = (call);                                                                  \
    if (err_ != hipSuccess) {                                                                  \
      std::fprintf(stderr, "%s:%d: %s: %s\n", __FILE__, __LINE__, #call, hipGetErrorString(err_)); \
      std::exit(EXIT_FAILURE);                                                                 \
    }                                                                                          \
  } while (0)

template <int R>
__global__ void stencil_kernel(const float *in, float *out, int n) {
  __shared__ float tile[kBlock + 2 * R];
  int g = blockIdx.x * blockDim.x + threadIdx.x;
  int l = threadIdx.x + R;
  tile[l] = g < n ? in[g] : 0.0f;
  if (threadIdx.x < R) {
    int left = g - R, right = g + kBlock;
    tile[l - R] = left >= 0 && left < n ? in[left] : 0.0f;
#ifdef PLANT_LDS_BUG
    tile[l + kBlock + 1] = right + 1 < n ? in[right + 1] : 0.0f;
#else
    tile[l + kBlock] = right < n ? in[right] : 0.0f;
#endif
  }
  __syncthreads();
  if (g < n) {
    float sum = 0.0f;
    for (int k = -R; k <= R; k++) sum += tile[l + k];
    out[g] = sum / (2 * R + 1);
  }
}

std::vector<float> gpu_stencil(const std::vector<float> &in) {
  int n = static_cast<int>(in.size());
  float *d_in = nullptr, *d_out = nullptr;
  HIP_CHECK(hipMalloc(&d_in, n * sizeof(float)));
  HIP_CHECK(hipMalloc(&d_out, n * sizeof(float)));
  HIP_CHECK(hipMemcpy(d_in, in.data(), n * sizeof(float), hipMemcpyHostToDevice));
  stencil_kernel<kRadius><<<(n + kBlock - 1) / kBlock, kBlock>>>(d_in, d_out, n);
  HIP_CHECK(hipGetLastError());
  std::vector<float> out(n);
  HIP_CHECK(hipMemcpy(out.data(), d_out, n * sizeof(float), hipMemcpyDeviceToHost));
  HIP_CHECK(hipFree(d_in));
  HIP_CHECK(hipFree(d_out));
  return out;
}
