// Clean: tiled matrix multiply C = A (M x K) * B (K x N) with 16x16 LDS tiles,
// sizes not multiples of the tile, 2-D grid.
// RUN: %run %{exe} | FileCheck %s --implicit-check-not='ERROR: AddressSanitizer' --implicit-check-not='ldsan-emu: error:'
// RUN: env LDSAN_OPTIONS=emu_fibers=1 %run %{exe} | FileCheck %s --implicit-check-not='ERROR: AddressSanitizer' --implicit-check-not='ldsan-emu: error:'
// RUN: %run %{exe:lds-only} | FileCheck %s --implicit-check-not='ERROR: AddressSanitizer' --implicit-check-not='ldsan-emu: error:'
// RUN: env LDSAN_OPTIONS=emu_fibers=1 %run %{exe:lds-only} | FileCheck %s --implicit-check-not='ERROR: AddressSanitizer' --implicit-check-not='ldsan-emu: error:'
// RUN: %run %{exe:lds-only+wave32} | FileCheck %s --implicit-check-not='ERROR: AddressSanitizer' --implicit-check-not='ldsan-emu: error:'
// RUN: env LDSAN_OPTIONS=emu_fibers=1 %run %{exe:lds-only+wave32} | FileCheck %s --implicit-check-not='ERROR: AddressSanitizer' --implicit-check-not='ldsan-emu: error:'
// CHECK: ldsan-test: stdout:
// CHECK: clean_matmul: PASSED
// CHECK: ldsan-test: exit 0
// The LDS checks find no error in it: run-time (detect_races, detect_uninit) and
// compiled in (-fsanitize-lds=races,uninit), in full ASan, LDS-only and LDS-only for gfx1100.
// RUN: env LDSAN_OPTIONS=detect_races=1:detect_uninit=1 %run %{exe} | FileCheck %s --check-prefix=CHECKED --implicit-check-not='ERROR: AddressSanitizer'
// RUN: env LDSAN_OPTIONS=detect_races=1:detect_uninit=1 %run %{exe:lds-only} | FileCheck %s --check-prefix=CHECKED --implicit-check-not='ERROR: AddressSanitizer'
// RUN: env LDSAN_OPTIONS=detect_races=1:detect_uninit=1 %run %{exe:lds-only+wave32} | FileCheck %s --check-prefix=CHECKED --implicit-check-not='ERROR: AddressSanitizer'
// RUN: %run %{exe:checks} | FileCheck %s --check-prefix=CHECKED --implicit-check-not='ERROR: AddressSanitizer'
// RUN: %run %{exe:lds-only+checks} | FileCheck %s --check-prefix=CHECKED --implicit-check-not='ERROR: AddressSanitizer'
// RUN: %run %{exe:lds-only+wave32+checks} | FileCheck %s --check-prefix=CHECKED --implicit-check-not='ERROR: AddressSanitizer'
// CHECKED: ldsan-test: exit 0
#include "common.h"

#define T 16
__global__ void matmul(const float *a, const float *b, float *c, int m, int k, int n) {
  __shared__ float ta[T][T], tb[T][T];
  int tx = threadIdx.x, ty = threadIdx.y;
  int row = blockIdx.y * T + ty, col = blockIdx.x * T + tx;
  float acc = 0;
  for (int k0 = 0; k0 < k; k0 += T) {
    ta[ty][tx] = row < m && k0 + tx < k ? a[row * k + k0 + tx] : 0;
    tb[ty][tx] = col < n && k0 + ty < k ? b[(k0 + ty) * n + col] : 0;
    __syncthreads();
    for (int i = 0; i < T; i++) acc += ta[ty][i] * tb[i][tx];
    __syncthreads();
  }
  if (row < m && col < n) c[row * n + col] = acc;
}

int main() {
  const int m = 70, k = 45, n = 83;
  static float a[m * k], b[k * n], c[m * n], want[m * n];
  for (int i = 0; i < m * k; i++) a[i] = (float)((i * 13) % 7) - 3;
  for (int i = 0; i < k * n; i++) b[i] = (float)((i * 5) % 9) - 4;
  for (int i = 0; i < m; i++)
    for (int j = 0; j < n; j++) {
      float s = 0;
      for (int x = 0; x < k; x++) s += a[i * k + x] * b[x * n + j];
      want[i * n + j] = s;
    }
  float *da, *db, *dc;
  HIP_CHECK(hipMalloc(&da, sizeof a));
  HIP_CHECK(hipMalloc(&db, sizeof b));
  HIP_CHECK(hipMalloc(&dc, sizeof c));
  HIP_CHECK(hipMemcpy(da, a, sizeof a, hipMemcpyHostToDevice));
  HIP_CHECK(hipMemcpy(db, b, sizeof b, hipMemcpyHostToDevice));
  matmul<<<dim3((n + T - 1) / T, (m + T - 1) / T), dim3(T, T)>>>(da, db, dc, m, k, n);
  LAUNCH_CHECK();
  HIP_CHECK(hipMemcpy(c, dc, sizeof c, hipMemcpyDeviceToHost));
  check_equal("C", c, want, m * n, 1e-5);
  passed("clean_matmul");
  return 0;
}
