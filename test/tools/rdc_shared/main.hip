// -fgpu-rdc: a kernel calling block_sum() of block_sum.hip, whose __shared__
// array becomes part of this kernel's LDS at the device link.
#include <hip/hip_runtime.h>
#include <cstdio>
#include <vector>

__device__ float block_sum(float v);  // block_sum.hip

__global__ void normalize(const float *in, float *out) {
  __shared__ float staged[128];
  unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  staged[threadIdx.x] = in[i];
  float total = block_sum(staged[threadIdx.x]);
  out[i] = staged[threadIdx.x] / total;
}

int main() {
  const int blocks = 3, n = 128, total = blocks * n;
  std::vector<float> in(total), out(total);
  for (int i = 0; i < total; i++) in[i] = float(i % n + 1);
  float *din = nullptr, *dout = nullptr;
  if (hipMalloc(&din, total * sizeof(float)) != hipSuccess || hipMalloc(&dout, total * sizeof(float)) != hipSuccess)
    return 3;
  if (hipMemcpy(din, in.data(), total * sizeof(float), hipMemcpyHostToDevice) != hipSuccess) return 3;
  hipLaunchKernelGGL(normalize, dim3(blocks), dim3(n), 0, 0, din, dout);
  if (hipMemcpy(out.data(), dout, total * sizeof(float), hipMemcpyDeviceToHost) != hipSuccess) return 3;
  const float sum = n * (n + 1) / 2.0f;
  int wrong = 0;
  for (int i = 0; i < total; i++) wrong += out[i] != in[i] / sum;
  std::printf("%d wrong\nrdc_shared: %s\n", wrong, wrong ? "FAILED" : "PASSED");
  return wrong != 0;
}
