// Driver test, part 1 of a two-file program: kernels and a host launcher in a
// .hip file compiled alone with `ldsan-cc --emulate -c`.
#include <hip/hip_runtime.h>

__global__ void saxpy(float a, const float *x, float *y, int n) {
  __shared__ float xs[128];
  int t = threadIdx.x, i = blockIdx.x * blockDim.x + t;
  xs[t] = i < n ? x[i] : 0;
  __syncthreads();
  if (i < n) y[i] += a * xs[t];
}

// Returns 0 on success, or the HIP error.
extern "C" int run_saxpy(float a, const float *x, float *y, int n) {
  float *dx, *dy;
  if (hipMalloc(&dx, n * sizeof(float)) || hipMalloc(&dy, n * sizeof(float))) return 1;
  if (hipMemcpy(dx, x, n * sizeof(float), hipMemcpyHostToDevice) ||
      hipMemcpy(dy, y, n * sizeof(float), hipMemcpyHostToDevice))
    return 1;
  saxpy<<<(n + 127) / 128, 128>>>(a, dx, dy, n);
  int err = hipGetLastError();
  if (!err) err = hipMemcpy(y, dy, n * sizeof(float), hipMemcpyDeviceToHost);
  (void)hipFree(dx);
  (void)hipFree(dy);
  return err;
}
