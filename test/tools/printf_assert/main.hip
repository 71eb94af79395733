// Ratios of neighbours; printf-debugging every 100th item; the divisor check
// lives in ratio.hip (built with -fgpu-rdc, as a multi-file HIP program).
#include <cstdio>
#include <cstring>
#include <vector>

#include "ratio.h"

template <typename T> __global__ void ratios(T *out, const T *in, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  if (i % 100 == 0) printf("ratios: item %d in=%g\n", i, (double)in[i]);
  out[i] = checked_ratio(in[i], in[(i + 1) % n]);
}

int main(int argc, char **argv) {
  int n = 64;
  std::vector<float> h(n, 2.0f);
  if (argc > 1 && !strcmp(argv[1], "zero")) h[40] = 0.0f;  // item 39 divides by it
  float *din, *dout;
  hipMalloc(&din, n * sizeof(float));
  hipMalloc(&dout, n * sizeof(float));
  hipMemcpy(din, h.data(), n * sizeof(float), hipMemcpyHostToDevice);
  ratios<float><<<1, 64>>>(dout, din, n);
  hipError_t e = hipDeviceSynchronize();
  std::vector<float> r(n);
  hipMemcpy(r.data(), dout, n * sizeof(float), hipMemcpyDeviceToHost);
  printf("main: %s, r[0]=%g\n", hipGetErrorName(e), r[0]);
  return 0;
}
