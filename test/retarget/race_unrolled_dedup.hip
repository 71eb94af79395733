// A tiled matrix product missing its second __syncthreads(): the next tile's
// stores race with the reads of the inner loop, which -O2 unrolls (TILE
// copies of each read, each its own pc). race_unrolled_dedup.sh checks that
// each race is one report (dedup by source location, not by pc) that counts
// the other work-items, and that the fixed kernel is silent and right.
#include "common.h"
#include <vector>

template <typename T, int TILE, bool fixed>
__global__ void matmul(const T *a, const T *b, T *c, int n) {
  __shared__ T as[TILE][TILE], bs[TILE][TILE];
  int row = blockIdx.y * TILE + threadIdx.y, col = blockIdx.x * TILE + threadIdx.x;
  T acc = 0;
  for (int k0 = 0; k0 < n; k0 += TILE) {
    as[threadIdx.y][threadIdx.x] = row < n && k0 + threadIdx.x < n ? a[row * n + k0 + threadIdx.x] : T(0);
    bs[threadIdx.y][threadIdx.x] = col < n && k0 + threadIdx.y < n ? b[(k0 + threadIdx.y) * n + col] : T(0);
    __syncthreads();
#pragma unroll
    for (int k = 0; k < TILE; k++) acc += as[threadIdx.y][k] * bs[k][threadIdx.x];
    if (fixed) __syncthreads();
  }
  if (row < n && col < n) c[row * n + col] = acc;
}

template <bool fixed>
static void run(int n) {
  const int T = 8;
  std::vector<double> a(n * n), b(n * n), c(n * n), want(n * n);
  for (int i = 0; i < n * n; i++) a[i] = i % 7, b[i] = i % 5;
  for (int i = 0; i < n; i++)
    for (int j = 0; j < n; j++) {
      double s = 0;
      for (int k = 0; k < n; k++) s += a[i * n + k] * b[k * n + j];
      want[i * n + j] = s;
    }
  double *da, *db, *dc;
  HIP_CHECK(hipMalloc(&da, n * n * sizeof(double)));
  HIP_CHECK(hipMalloc(&db, n * n * sizeof(double)));
  HIP_CHECK(hipMalloc(&dc, n * n * sizeof(double)));
  HIP_CHECK(hipMemcpy(da, a.data(), n * n * sizeof(double), hipMemcpyHostToDevice));
  HIP_CHECK(hipMemcpy(db, b.data(), n * n * sizeof(double), hipMemcpyHostToDevice));
  matmul<double, T, fixed><<<dim3((n + T - 1) / T, (n + T - 1) / T), dim3(T, T)>>>(da, db, dc, n);
  LAUNCH_CHECK();
  HIP_CHECK(hipMemcpy(c.data(), dc, n * n * sizeof(double), hipMemcpyDeviceToHost));
  if (fixed) check_equal("matmul", c.data(), want.data(), c.size());
  HIP_CHECK(hipFree(da));
  HIP_CHECK(hipFree(db));
  HIP_CHECK(hipFree(dc));
}

int main(int argc, char **argv) {
  if (argc > 1 && argv[1][0] == 'f') run<true>(30);
  else run<false>(30);
  passed("race_unrolled_dedup");
  return 0;
}
