// A kernel to stop in with gdb (test/tools/gdb_kernel.test).
#include <hip/hip_runtime.h>
#include <cstdio>
#include <vector>

template <typename T> __global__ void saxpy(T a, const T *x, T *y, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  T scaled = a * x[i];
  if (i < n)
    y[i] = scaled + y[i];  // BREAK-HERE
}

int main() {
  int n = 128;
  std::vector<float> x(n, 1.0f), y(n, 2.0f);
  float *dx, *dy;
  hipMalloc(&dx, n * sizeof(float));
  hipMalloc(&dy, n * sizeof(float));
  hipMemcpy(dx, x.data(), n * sizeof(float), hipMemcpyHostToDevice);
  hipMemcpy(dy, y.data(), n * sizeof(float), hipMemcpyHostToDevice);
  saxpy<float><<<2, 64>>>(3.0f, dx, dy, n);
  hipMemcpy(y.data(), dy, n * sizeof(float), hipMemcpyDeviceToHost);
  printf("saxpy: y[0]=%g\n", y[0]);
  return 0;
}
