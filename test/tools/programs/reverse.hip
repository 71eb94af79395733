// Kernels and their host wrappers: a templated kernel staging a block in LDS.
// -DPLANT_LDS_BUG makes the last work-item of each block write one past the tile.
#include <hip/hip_runtime.h>
#include <cstdio>
#include <cstdlib>
#include <vector>
#include "reverse.h"

#define CHECK(call)                                                                  \
  do {                                                                               \
    hipError_t err_ = (call);                                                        \
    if (err_ != hipSuccess) {                                                        \
      std::fprintf(stderr, "%s failed: %s\n", #call, hipGetErrorString(err_));       \
      std::exit(1);                                                                  \
    }                                                                                \
  } while (0)

constexpr int kBlock = 256;

template <typename T>
__global__ void block_reverse(T *data, int n) {
  __shared__ T tile[kBlock];
  int i = blockIdx.x * kBlock + threadIdx.x;
#ifdef PLANT_LDS_BUG
  tile[threadIdx.x + 1] = i < n ? data[i] : T(0);
#else
  tile[threadIdx.x] = i < n ? data[i] : T(0);
#endif
  __syncthreads();
  if (i < n) data[i] = tile[kBlock - 1 - threadIdx.x];
}

template <typename T>
static std::vector<T> run(const std::vector<T> &in) {
  std::vector<T> out(in.size());
  T *d = nullptr;
  size_t bytes = in.size() * sizeof(T);
  CHECK(hipMalloc(&d, bytes));
  CHECK(hipMemcpy(d, in.data(), bytes, hipMemcpyHostToDevice));
  int blocks = static_cast<int>(in.size() / kBlock);
  hipLaunchKernelGGL(block_reverse<T>, dim3(blocks), dim3(kBlock), 0, 0, d, static_cast<int>(in.size()));
  CHECK(hipGetLastError());
  CHECK(hipMemcpy(out.data(), d, bytes, hipMemcpyDeviceToHost));
  CHECK(hipFree(d));
  return out;
}

std::vector<float> reverse_blocks(const std::vector<float> &in) { return run(in); }
std::vector<int> reverse_blocks(const std::vector<int> &in) { return run(in); }
