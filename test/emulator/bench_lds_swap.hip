// make bench: an LDS bandwidth loop on the emulator. Each work-item swaps its
// own two elements, s[tid] and s[tid + blockDim.x], ITERS times between two
// barriers (256 workgroups x 256 work-items). No lane touches another's
// slots, so the kernel runs in plain work-item loops; one that went back to
// lockstep (a stop per access, as from 2026-11-23 until the own-slot rule of
// retarget_wave_lds.cpp) shows up as a several-fold time. Prints "swap_ms"
// for each of argv[1] runs (default 5) after checking the result.
#include <vector>

#include "common.h"
#include <time.h>

#define WG 256
#define GROUPS 256
#define ITERS 1000

template <typename T>
__global__ void lds_swap(const T *in, T *out, int iters) {
  extern __shared__ unsigned char raw[];
  T *s = reinterpret_cast<T *>(raw);
  int t = threadIdx.x, n = blockDim.x;
  size_t g = (size_t)blockIdx.x * 2 * n;
  s[t] = in[g + t];
  s[t + n] = in[g + t + n];
  __syncthreads();
  for (int it = 0; it < iters; it++) {
    T a = s[t];
    s[t] = s[t + n];
    s[t + n] = a + T(1);
  }
  __syncthreads();
  out[g + t] = s[t];
  out[g + t + n] = s[t + n];
}

static double now_ms(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

int main(int argc, char **argv) {
  int runs = argc > 1 ? atoi(argv[1]) : 5;
  std::vector<float> in(GROUPS * 2 * WG), out(in.size());
  for (size_t i = 0; i < in.size(); i++) in[i] = (float)(i % 1000);
  float *din, *dout;
  HIP_CHECK(hipMalloc(&din, in.size() * sizeof(float)));
  HIP_CHECK(hipMalloc(&dout, in.size() * sizeof(float)));
  HIP_CHECK(hipMemcpy(din, in.data(), in.size() * sizeof(float), hipMemcpyHostToDevice));
  for (int r = 0; r < runs; r++) {
    double t0 = now_ms();
    lds_swap<float><<<GROUPS, WG, 2 * WG * sizeof(float)>>>(din, dout, ITERS);
    LAUNCH_CHECK();
    printf("swap_ms %.3f\n", now_ms() - t0);
  }
  HIP_CHECK(hipMemcpy(out.data(), dout, out.size() * sizeof(float), hipMemcpyDeviceToHost));
  // ITERS is even: each element is back in place, plus ITERS / 2.
  for (size_t i = 0; i < in.size(); i++)
    if (out[i] != in[i] + ITERS / 2) {
      fprintf(stderr, "bench_lds_swap: element %zu is %g, expected %g\n", i, out[i], in[i] + ITERS / 2);
      return 4;
    }
  return 0;
}
