// -fgpu-rdc, first translation unit: a kernel whose __shared__ tile is filled
// by a __device__ function defined in kernels_b.hip (passed by pointer), and
// main(), which runs both TUs' kernels and checks the results.
#include <hip/hip_runtime.h>
#include <stdio.h>

__device__ float fill_reversed(float *tile, int i, int n);  // kernels_b.hip
__global__ void reverse_block(float *x);                    // kernels_b.hip

__global__ void mirror(const float *in, float *out) {
  __shared__ float tile[128];
  int i = threadIdx.x, n = blockDim.x, base = blockIdx.x * n;
  tile[i] = in[base + i];
  out[base + i] = fill_reversed(tile, i, n);
}

int main() {
  const int blocks = 2, n = 128, total = blocks * n;
  float host[total], got[total];
  for (int i = 0; i < total; i++) host[i] = (float)i;
  float *din, *dout;
  if (hipMalloc(&din, sizeof host) != hipSuccess || hipMalloc(&dout, sizeof host) != hipSuccess) return 3;
  if (hipMemcpy(din, host, sizeof host, hipMemcpyHostToDevice) != hipSuccess) return 3;
  hipLaunchKernelGGL(mirror, dim3(blocks), dim3(n), 0, 0, din, dout);
  hipLaunchKernelGGL(reverse_block, dim3(blocks), dim3(n), n * sizeof(float), 0, dout);
  if (hipMemcpy(got, dout, sizeof got, hipMemcpyDeviceToHost) != hipSuccess) return 3;
  for (int i = 0; i < total; i++)  // reversed twice within each block
    if (got[i] != host[i]) { printf("element %d is %g, expected %g\n", i, got[i], host[i]); return 4; }
  printf("rdc: PASSED\n");
  return 0;
}
