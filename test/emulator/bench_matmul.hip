// make bench: a tiled SGEMM as HIP users write it, C = A * B (N x N floats,
// N = argv[2], default 256), TILE x TILE __shared__ tiles of A and B per
// workgroup of TILE x TILE work-items, __syncthreads() between loading the
// tiles and computing with them, the inner loop reading a row of As and a
// column of Bs that other work-items of the workgroup read too. bench.sh
// times it with the LDS race and uninit checks against bounds checks only,
// and against HIP-CPU (the same source built with HIP-CPU's headers, when
// HIP_CPU_DIR is set): so the launch is hipLaunchKernelGGL, which HIP-CPU
// has (it has no triple-chevron syntax).
// Prints "matmul_ms" for each of argv[1] runs (default 3) after checking the
// result.
// The LDS checks find no error in it (run-time and compiled in).
// RUN: env LDSAN_OPTIONS=detect_races=1:detect_uninit=1 %run %{exe} 1 64 | FileCheck %s --check-prefix=CHECKED --implicit-check-not='ERROR: AddressSanitizer'
// RUN: env LDSAN_OPTIONS=detect_races=1:detect_uninit=1 %run %{exe:lds-only} 1 64 | FileCheck %s --check-prefix=CHECKED --implicit-check-not='ERROR: AddressSanitizer'
// RUN: %run %{exe:checks} 1 64 | FileCheck %s --check-prefix=CHECKED --implicit-check-not='ERROR: AddressSanitizer'
// CHECKED: ldsan-test: exit 0
#include <time.h>

#include <cmath>
#include <cstdio>
#include <vector>

#include "common.h"

template <int TILE>
__global__ void sgemm(const float *__restrict__ A, const float *__restrict__ B, float *__restrict__ C, int n) {
  __shared__ float As[TILE][TILE];
  __shared__ float Bs[TILE][TILE];
  int tx = threadIdx.x, ty = threadIdx.y;
  int row = blockIdx.y * TILE + ty, col = blockIdx.x * TILE + tx;
  float sum = 0.0f;
  for (int t = 0; t < n / TILE; ++t) {
    As[ty][tx] = A[row * n + t * TILE + tx];
    Bs[ty][tx] = B[(t * TILE + ty) * n + col];
    __syncthreads();
    for (int k = 0; k < TILE; ++k) sum += As[ty][k] * Bs[k][tx];
    __syncthreads();
  }
  C[row * n + col] = sum;
}

static double now_ms() {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

int main(int argc, char **argv) {
  constexpr int TILE = 16;
  int runs = argc > 1 ? atoi(argv[1]) : 3, n = argc > 2 ? atoi(argv[2]) : 256;
  if (runs < 1 || n < TILE || n % TILE) {
    fprintf(stderr, "bench_matmul: usage: bench_matmul [runs >= 1] [n, a multiple of %d]\n", TILE);
    return 2;
  }
  std::vector<float> a((size_t)n * n), b((size_t)n * n), c((size_t)n * n);
  for (size_t i = 0; i < a.size(); i++) a[i] = (float)((i * 13) % 7) - 3, b[i] = (float)((i * 5) % 9) - 4;
  float *da, *db, *dc;
  size_t bytes = a.size() * sizeof(float);
  HIP_CHECK(hipMalloc(&da, bytes));
  HIP_CHECK(hipMalloc(&db, bytes));
  HIP_CHECK(hipMalloc(&dc, bytes));
  HIP_CHECK(hipMemcpy(da, a.data(), bytes, hipMemcpyHostToDevice));
  HIP_CHECK(hipMemcpy(db, b.data(), bytes, hipMemcpyHostToDevice));
  for (int r = 0; r < runs; r++) {
    double t0 = now_ms();
    hipLaunchKernelGGL(sgemm<TILE>, dim3(n / TILE, n / TILE), dim3(TILE, TILE), 0, 0, da, db, dc, n);
    LAUNCH_CHECK();
    printf("matmul_ms %.3f\n", now_ms() - t0);
  }
  HIP_CHECK(hipMemcpy(c.data(), dc, bytes, hipMemcpyDeviceToHost));
  // A few rows against the host (exact: small integers).
  for (int i = 0; i < n; i += n / 4 + 1)
    for (int j = 0; j < n; j++) {
      float s = 0;
      for (int k = 0; k < n; k++) s += a[(size_t)i * n + k] * b[(size_t)k * n + j];
      if (c[(size_t)i * n + j] != s) {
        fprintf(stderr, "bench_matmul: C[%d][%d] is %g, expected %g\n", i, j, c[(size_t)i * n + j], s);
        return 1;
      }
    }
  HIP_CHECK(hipFree(da));
  HIP_CHECK(hipFree(db));
  HIP_CHECK(hipFree(dc));
  return 0;
}
