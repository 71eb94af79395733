// Clean: 1-D 7-point stencil with the halo (radius 3) staged in LDS.
// EXPECT: no-report
// EXPECT-STDOUT: clean_stencil: PASSED
#include "common.h"

#define R 3
#define B 128
__global__ void stencil(const float *in, float *out, int n) {
  __shared__ float s[B + 2 * R];
  int g = blockIdx.x * B + threadIdx.x, l = threadIdx.x + R;
  s[l] = g < n ? in[g] : 0;
  if (threadIdx.x < R) {
    s[l - R] = g - R >= 0 ? in[g - R] : 0;
    s[l + B] = g + B < n ? in[g + B] : 0;
  }
  __syncthreads();
  float acc = 0;
  for (int o = -R; o <= R; o++) acc += (float)(R + 1 - abs(o)) * s[l + o];
  if (g < n) out[g] = acc;
}

int main() {
  const int n = 1000;
  static float in[n], out[n], want[n];
  for (int i = 0; i < n; i++) in[i] = (float)((i * 37) % 23);
  for (int i = 0; i < n; i++) {
    float acc = 0;
    for (int o = -R; o <= R; o++) acc += (float)(R + 1 - abs(o)) * (i + o >= 0 && i + o < n ? in[i + o] : 0);
    want[i] = acc;
  }
  float *din, *dout;
  HIP_CHECK(hipMalloc(&din, sizeof in));
  HIP_CHECK(hipMalloc(&dout, sizeof out));
  HIP_CHECK(hipMemcpy(din, in, sizeof in, hipMemcpyHostToDevice));
  stencil<<<(n + B - 1) / B, B>>>(din, dout, n);
  LAUNCH_CHECK();
  HIP_CHECK(hipMemcpy(out, dout, sizeof out, hipMemcpyDeviceToHost));
  check_equal("stencil", out, want, n, 1e-6);
  passed("clean_stencil");
  return 0;
}
