// make bench: an LDS bandwidth loop on the emulator. Each work-item swaps its
// own two elements, s[tid] and s[tid + blockDim.x], ITERS times between two
// barriers (256 workgroups x 256 work-items). No lane touches another's
// slots, so the kernel runs in plain work-item loops; one that went back to
// lockstep (a stop per access, as from 2026-11-23 until the own-slot rule of
// retarget_wave_lds.cpp) shows up as a several-fold time. Its twin
// lds_swap_barriers swaps 2 x 1024 times with a barrier after each swap, in a
// loop unrolled 32 times as the gpumembench shared-memory benchmark writes it:
// 65 barriers, more than the core's 64-bit region masks have bits (fibers until
// 2026-11-28, ~4x slower). Prints "swap_ms" and "swap_barriers_ms" for each
// of argv[1] runs (default 5) after checking the results.
#include <vector>

#include "common.h"
#include <time.h>

#define WG 256
#define GROUPS 256
#define ITERS 1000
#define ITERS_BARRIERS 1024 /* a multiple of the unroll count: the loop unrolls (as in gpumembench) */

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

template <typename T>
__global__ void lds_swap_barriers(const T *in, T *out) {
  __shared__ T s[2 * WG];
  int t = threadIdx.x;
  size_t g = (size_t)blockIdx.x * 2 * WG;
  s[t] = in[g + t];
  s[t + WG] = in[g + t + WG];
  __syncthreads();
#pragma unroll 32
  for (int it = 0; it < ITERS_BARRIERS; it++) {
    T a = s[t];
    s[t] = s[t + WG];
    s[t + WG] = a + T(1);
    __syncthreads();
    a = s[t];
    s[t] = s[t + WG];
    s[t + WG] = a + T(1);
    __syncthreads();
  }
  out[g + t] = s[t];
  out[g + t + WG] = s[t + WG];
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
  for (int barriers = 0; barriers < 2; barriers++) {
    for (int r = 0; r < runs; r++) {
      double t0 = now_ms();
      if (barriers) lds_swap_barriers<float><<<GROUPS, WG>>>(din, dout);
      else lds_swap<float><<<GROUPS, WG, 2 * WG * sizeof(float)>>>(din, dout, ITERS);
      LAUNCH_CHECK();
      printf("%s %.3f\n", barriers ? "swap_barriers_ms" : "swap_ms", now_ms() - t0);
    }
    HIP_CHECK(hipMemcpy(out.data(), dout, out.size() * sizeof(float), hipMemcpyDeviceToHost));
    // Each element is back in place, plus half the swaps.
    float plus = barriers ? ITERS_BARRIERS : ITERS / 2;
    for (size_t i = 0; i < in.size(); i++)
      if (out[i] != in[i] + plus) {
        fprintf(stderr, "bench_lds_swap: %s: element %zu is %g, expected %g\n",
                barriers ? "lds_swap_barriers" : "lds_swap", i, out[i], in[i] + plus);
        return 4;
      }
  }
  return 0;
}
