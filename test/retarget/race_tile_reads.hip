// The LDS checks on a tiled SGEMM as HIP users write it (16 x 16 work-items,
// __shared__ tiles As and Bs, __syncthreads() between loading and using
// them): its inner loop reads a row of As and a column of Bs that other
// work-items read too, which the checks decide once per work-item loop
// (retarget_lds_disjoint.cpp: the work-items' ids bounded by the
// workgroup's size; core_lds_disjoint.c: no write among the reads, and the
// tiles written). race_tile_reads.sh checks the reports; the planted bugs
// are in that same loop, so the core must say no to them:
// - Plant::none: the clean kernel; C is checked.
// - Plant::late_write: in the compute phase, after its reads, the last row
//   of work-items writes Bs[0][tx], which the work-items of the other rows
//   (other waves) read in the same phase: a write-after-read.
// - Plant::short_load: the load phase leaves column TILE - 1 of As
//   unwritten, which the compute phase reads: uninitialized reads.
// race_tile_reads [fixed]: fixed runs the clean kernel only.
#include <cstring>
#include <vector>

#include "common.h"

enum class Plant { none, late_write, short_load };

template <int TILE, Plant P>
__global__ void tiled_sgemm(const float *A, const float *B, float *C, int n) {
  __shared__ float As[TILE][TILE];
  __shared__ float Bs[TILE][TILE];
  int tx = threadIdx.x, ty = threadIdx.y;
  int row = blockIdx.y * TILE + ty, col = blockIdx.x * TILE + tx;
  float sum = 0.0f;
  for (int t = 0; t < n / TILE; ++t) {
    if (P != Plant::short_load || tx < TILE - 1) As[ty][tx] = A[row * n + t * TILE + tx];
    Bs[ty][tx] = B[(t * TILE + ty) * n + col];
    __syncthreads();
    for (int k = 0; k < TILE; ++k) sum += As[ty][k] * Bs[k][tx];  // tile-reads
    if (P == Plant::late_write && ty == TILE - 1) Bs[0][tx] = sum;  // late-write
    __syncthreads();
  }
  C[row * n + col] = sum;
}

template <Plant P>
static void run(const std::vector<float> &a, const std::vector<float> &b, std::vector<float> &c, int n) {
  constexpr int TILE = 16;
  size_t bytes = a.size() * sizeof(float);
  float *da, *db, *dc;
  HIP_CHECK(hipMalloc(&da, bytes));
  HIP_CHECK(hipMalloc(&db, bytes));
  HIP_CHECK(hipMalloc(&dc, bytes));
  HIP_CHECK(hipMemcpy(da, a.data(), bytes, hipMemcpyHostToDevice));
  HIP_CHECK(hipMemcpy(db, b.data(), bytes, hipMemcpyHostToDevice));
  tiled_sgemm<TILE, P><<<dim3(n / TILE, n / TILE), dim3(TILE, TILE)>>>(da, db, dc, n);
  LAUNCH_CHECK();
  HIP_CHECK(hipMemcpy(c.data(), dc, bytes, hipMemcpyDeviceToHost));
  HIP_CHECK(hipFree(da));
  HIP_CHECK(hipFree(db));
  HIP_CHECK(hipFree(dc));
}

int main(int argc, char **argv) {
  bool fixed = argc > 1 && !strcmp(argv[1], "fixed");
  const int n = 64;
  std::vector<float> a(n * n), b(n * n), c(n * n), want(n * n);
  for (int i = 0; i < n * n; i++) a[i] = (float)((i * 13) % 7) - 3, b[i] = (float)((i * 5) % 9) - 4;
  for (int i = 0; i < n; i++)
    for (int j = 0; j < n; j++) {
      float s = 0;
      for (int k = 0; k < n; k++) s += a[i * n + k] * b[k * n + j];
      want[i * n + j] = s;
    }
  run<Plant::none>(a, b, c, n);
  check_equal("C", c.data(), want.data(), c.size());
  if (!fixed) {
    run<Plant::late_write>(a, b, c, n);
    run<Plant::short_load>(a, b, c, n);
  }
  passed("race_tile_reads");
  return 0;
}
