// A large kernel (test/retarget/large_kernel.sh): a 1-D stencil over a
// __shared__ tile, its 129 taps unrolled (over RT_LARGE_KERNEL instructions),
// in a correct form and one without the barrier after staging; a small
// kernel (3 taps) beside it. The host checks the correct forms' results.
#include "common.h"

#define N 256
__constant__ float weights[129];

template <int R, bool RACY>
__global__ void stencil(const float *in, float *out, int n) {
  __shared__ float tile[N + 2 * R];
  int t = threadIdx.x, g = blockIdx.x * N + t;
  tile[t + R] = g < n ? in[g] : 0.0f;
  if (t < R) {
    int l = g - R, r = g + N;
    tile[t] = l >= 0 && l < n ? in[l] : 0.0f;
    tile[t + N + R] = r < n ? in[r] : 0.0f;
  }
  if (!RACY) __syncthreads();
  float s = 0.0f;
#pragma unroll
  for (int j = -R; j <= R; j++) s += weights[j + 64] * tile[t + R + j];
  if (g < n) out[g] = s;
}

template <int R>
static void run(const char *what, const float *din, float *dout, const float *h, const float *w, int n, int racy) {
  float *got = (float *)malloc(n * sizeof(float));
  if (racy) hipLaunchKernelGGL((stencil<R, true>), dim3((n + N - 1) / N), dim3(N), 0, 0, din, dout, n);
  else hipLaunchKernelGGL((stencil<R, false>), dim3((n + N - 1) / N), dim3(N), 0, 0, din, dout, n);
  LAUNCH_CHECK();
  HIP_CHECK(hipMemcpy(got, dout, n * sizeof(float), hipMemcpyDeviceToHost));
  if (!racy) {
    float *want = (float *)malloc(n * sizeof(float));
    for (int i = 0; i < n; i++) {
      float s = 0.0f;
      for (int j = -R; j <= R; j++) s += w[j + 64] * (i + j >= 0 && i + j < n ? h[i + j] : 0.0f);
      want[i] = s;
    }
    check_equal(what, got, want, n, 1e-5);
    free(want);
  }
  free(got);
}

int main(int argc, char **argv) {
  int racy = argc > 1 && argv[1][0] == 'r';
  const int n = 1000;
  static float h[n], w[129];
  for (int i = 0; i < n; i++) h[i] = (float)((i * 37) % 23) / 23.0f;
  for (int j = 0; j < 129; j++) w[j] = 1.0f / (1 + (j > 64 ? j - 64 : 64 - j));
  HIP_CHECK(hipMemcpyToSymbol(HIP_SYMBOL(weights), w, sizeof w));
  float *din, *dout;
  HIP_CHECK(hipMalloc(&din, sizeof h));
  HIP_CHECK(hipMalloc(&dout, sizeof h));
  HIP_CHECK(hipMemcpy(din, h, sizeof h, hipMemcpyHostToDevice));
  run<64>("large stencil", din, dout, h, w, n, racy);
  run<1>("small stencil", din, dout, h, w, n, 0);
  passed(racy ? "large_kernel racy" : "large_kernel");
  return 0;
}
