// Needleman-Wunsch global alignment as HIP users write it (after Rodinia's nw):
// the score matrix is filled in BLOCK x BLOCK tiles along anti-diagonals, each
// tile in __shared__ memory with its north/west halo, one kernel per half of
// the sweep; templates over the tile size and the scoring scheme; a kernel
// builds the substitution scores, one traces the alignment back. make bench
// builds it (test/bench/build_time.sh: ldsan-cc --emulate against a GPU
// build); run on the emulator it checks itself against the host.
#include <hip/hip_runtime.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#define HIP_CHECK(expr)                                                                          \
  do {                                                                                           \
    hipError_t e_ = (expr);                                                                      \
    if (e_ != hipSuccess) {                                                                      \
      std::fprintf(stderr, "%s:%d: %s: %s\n", __FILE__, __LINE__, #expr, hipGetErrorString(e_)); \
      std::exit(3);                                                                              \
    }                                                                                            \
  } while (0)

namespace nw {

// BLOSUM62 over the 24-letter alphabet, as the Rodinia benchmark uses it.
__constant__ int blosum62[24][24] = {
    {4, -1, -2, -2, 0, -1, -1, 0, -2, -1, -1, -1, -1, -2, -1, 1, 0, -3, -2, 0, -2, -1, 0, -4},
    {-1, 5, 0, -2, -3, 1, 0, -2, 0, -3, -2, 2, -1, -3, -2, -1, -1, -3, -2, -3, -1, 0, -1, -4},
    {-2, 0, 6, 1, -3, 0, 0, 0, 1, -3, -3, 0, -2, -3, -2, 1, 0, -4, -2, -3, 3, 0, -1, -4},
    {-2, -2, 1, 6, -3, 0, 2, -1, -1, -3, -4, -1, -3, -3, -1, 0, -1, -4, -3, -3, 4, 1, -1, -4},
    {0, -3, -3, -3, 9, -3, -4, -3, -3, -1, -1, -3, -1, -2, -3, -1, -1, -2, -2, -1, -3, -3, -2, -4},
    {-1, 1, 0, 0, -3, 5, 2, -2, 0, -3, -2, 1, 0, -3, -1, 0, -1, -2, -1, -2, 0, 3, -1, -4},
    {-1, 0, 0, 2, -4, 2, 5, -2, 0, -3, -3, 1, -2, -3, -1, 0, -1, -3, -2, -2, 1, 4, -1, -4},
    {0, -2, 0, -1, -3, -2, -2, 6, -2, -4, -4, -2, -3, -3, -2, 0, -2, -2, -3, -3, -1, -2, -1, -4},
    {-2, 0, 1, -1, -3, 0, 0, -2, 8, -3, -3, -1, -2, -1, -2, -1, -2, -2, 2, -3, 0, 0, -1, -4},
    {-1, -3, -3, -3, -1, -3, -3, -4, -3, 4, 2, -3, 1, 0, -3, -2, -1, -3, -1, 3, -3, -3, -1, -4},
    {-1, -2, -3, -4, -1, -2, -3, -4, -3, 2, 4, -2, 2, 0, -3, -2, -1, -2, -1, 1, -4, -3, -1, -4},
    {-1, 2, 0, -1, -3, 1, 1, -2, -1, -3, -2, 5, -1, -3, -1, 0, -1, -3, -2, -2, 0, 1, -1, -4},
    {-1, -1, -2, -3, -1, 0, -2, -3, -2, 1, 2, -1, 5, 0, -2, -1, -1, -1, -1, 1, -3, -1, -1, -4},
    {-2, -3, -3, -3, -2, -3, -3, -3, -1, 0, 0, -3, 0, 6, -4, -2, -2, 1, 3, -1, -3, -3, -1, -4},
    {-1, -2, -2, -1, -3, -1, -1, -2, -2, -3, -3, -1, -2, -4, 7, -1, -1, -4, -3, -2, -2, -1, -2, -4},
    {1, -1, 1, 0, -1, 0, 0, 0, -1, -2, -2, 0, -1, -2, -1, 4, 1, -3, -2, -2, 0, 0, 0, -4},
    {0, -1, 0, -1, -1, -1, -1, -2, -2, -1, -1, -1, -1, -2, -1, 1, 5, -2, -2, 0, -1, -1, 0, -4},
    {-3, -3, -4, -4, -2, -2, -3, -2, -2, -3, -2, -3, -1, 1, -4, -3, -2, 11, 2, -3, -4, -3, -2, -4},
    {-2, -2, -2, -3, -2, -1, -2, -3, 2, -1, -1, -2, -1, 3, -3, -2, -2, 2, 7, -1, -3, -2, -1, -4},
    {0, -3, -3, -3, -1, -2, -2, -3, -3, 3, 1, -2, 1, -1, -2, -2, 0, -3, -1, 4, -3, -2, -1, -4},
    {-2, -1, 3, 4, -3, 0, 1, -1, 0, -3, -4, 0, -3, -3, -2, 0, -1, -4, -3, -3, 4, 1, -1, -4},
    {-1, 0, 0, 1, -3, 3, 4, -2, 0, -3, -3, 1, -1, -3, -1, 0, -1, -3, -2, -2, 1, 4, -1, -4},
    {0, -1, -1, -1, -2, -1, -1, -1, -1, -1, -1, -1, -1, -1, -2, 0, 0, -2, -1, -1, -1, -1, -1, -4},
    {-4, -4, -4, -4, -4, -4, -4, -4, -4, -4, -4, -4, -4, -4, -4, -4, -4, -4, -4, -4, -4, -4, -4, 1}};

// Scoring schemes: a linear gap penalty and a substitution score.
struct Blosum {
  int gap;
  __device__ int subst(int a, int b) const { return blosum62[a][b]; }
  __host__ int subst_host(const int (*table)[24], int a, int b) const { return table[a][b]; }
};
struct MatchMismatch {
  int gap, match, mismatch;
  __device__ int subst(int a, int b) const { return a == b ? match : mismatch; }
  __host__ int subst_host(const int (*)[24], int a, int b) const { return a == b ? match : mismatch; }
};

template <typename T>
__device__ __forceinline__ T max3(T a, T b, T c) {
  return a > b ? (a > c ? a : c) : (b > c ? b : c);
}

// reference[i][j] = subst(seq_a[i], seq_b[j]) for the whole (n+1) x (n+1) matrix.
template <typename Score>
__global__ void build_reference(const int *seq_a, const int *seq_b, int *reference, int cols, Score s) {
  int j = blockIdx.x * blockDim.x + threadIdx.x;
  int i = blockIdx.y * blockDim.y + threadIdx.y;
  if (i >= cols || j >= cols) return;
  reference[i * cols + j] = (i == 0 || j == 0) ? 0 : s.subst(seq_a[i], seq_b[j]);
}

// First row and column: -gap * index.
__global__ void init_borders(int *score, int cols, int gap) {
  int k = blockIdx.x * blockDim.x + threadIdx.x;
  if (k >= cols) return;
  score[k] = -k * gap;
  score[k * cols] = -k * gap;
}

// One tile: load the halo and the reference scores into LDS, sweep the
// tile's anti-diagonals (one __syncthreads() each), write the tile back.
template <int BLOCK, typename Score>
__device__ void tile(int *score, const int *reference, int cols, int b_index_x, int b_index_y, Score s) {
  __shared__ int temp[BLOCK + 1][BLOCK + 1];
  __shared__ int ref[BLOCK][BLOCK];
  int tx = threadIdx.x;
  int index = cols * BLOCK * b_index_y + BLOCK * b_index_x + tx + (cols + 1);
  int index_n = cols * BLOCK * b_index_y + BLOCK * b_index_x + tx + 1;
  int index_w = cols * BLOCK * b_index_y + BLOCK * b_index_x + cols;
  int index_nw = cols * BLOCK * b_index_y + BLOCK * b_index_x;
  if (tx == 0) temp[tx][0] = score[index_nw];
  for (int ty = 0; ty < BLOCK; ty++) ref[ty][tx] = reference[index + cols * ty];
  __syncthreads();
  temp[tx + 1][0] = score[index_w + cols * tx];
  __syncthreads();
  temp[0][tx + 1] = score[index_n];
  __syncthreads();
  for (int m = 0; m < BLOCK; m++) {
    if (tx <= m) {
      int t_index_x = tx + 1;
      int t_index_y = m - tx + 1;
      temp[t_index_y][t_index_x] =
          max3(temp[t_index_y - 1][t_index_x - 1] + ref[t_index_y - 1][t_index_x - 1],
               temp[t_index_y][t_index_x - 1] - s.gap, temp[t_index_y - 1][t_index_x] - s.gap);
    }
    __syncthreads();
  }
  for (int m = BLOCK - 2; m >= 0; m--) {
    if (tx <= m) {
      int t_index_x = tx + BLOCK - m;
      int t_index_y = BLOCK - tx;
      temp[t_index_y][t_index_x] =
          max3(temp[t_index_y - 1][t_index_x - 1] + ref[t_index_y - 1][t_index_x - 1],
               temp[t_index_y][t_index_x - 1] - s.gap, temp[t_index_y - 1][t_index_x] - s.gap);
    }
    __syncthreads();
  }
  for (int ty = 0; ty < BLOCK; ty++) score[index + ty * cols] = temp[ty + 1][tx + 1];
}

// Upper-left half of the sweep: diagonal i of tiles.
template <int BLOCK, typename Score>
__global__ void needle_shared_1(int *score, const int *reference, int cols, int i, Score s) {
  int bx = blockIdx.x;
  tile<BLOCK>(score, reference, cols, bx, i - 1 - bx, s);
}

// Lower-right half of the sweep.
template <int BLOCK, typename Score>
__global__ void needle_shared_2(int *score, const int *reference, int cols, int block_width, int i, Score s) {
  int bx = blockIdx.x;
  tile<BLOCK>(score, reference, cols, bx + block_width - i, block_width - bx - 1, s);
}

// The best score of each row's last BLOCK cells, reduced in LDS (a check the
// host compares, and the usual second look at a finished matrix).
template <int BLOCK>
__global__ void row_best(const int *score, int cols, int *best) {
  __shared__ int part[BLOCK];
  int row = blockIdx.x + 1, tx = threadIdx.x;
  int v = -(1 << 30);
  for (int j = tx + 1; j < cols; j += BLOCK) v = max(v, score[row * cols + j]);
  part[tx] = v;
  __syncthreads();
  for (int w = BLOCK / 2; w > 0; w >>= 1) {
    if (tx < w) part[tx] = max(part[tx], part[tx + w]);
    __syncthreads();
  }
  if (tx == 0) best[row] = part[0];
}

// Trace back from the bottom-right corner, one work-item (as the benchmark's
// CPU part does; kept on the device to keep the matrix there).
template <typename Score>
__global__ void traceback(const int *score, const int *reference, int cols, Score s, int *path, int *length) {
  if (threadIdx.x != 0 || blockIdx.x != 0) return;
  int i = cols - 1, j = cols - 1, n = 0;
  while (i > 0 && j > 0) {
    int here = score[i * cols + j];
    int diag = score[(i - 1) * cols + j - 1] + reference[i * cols + j];
    int up = score[(i - 1) * cols + j] - s.gap;
    path[n++] = i * cols + j;
    if (here == diag) { i--; j--; }
    else if (here == up) i--;
    else j--;
  }
  *length = n;
}

}  // namespace nw

// Host reference of the whole matrix.
template <typename Score>
static std::vector<int> host_matrix(const std::vector<int> &a, const std::vector<int> &b, int cols, Score s,
                                    const int (*table)[24]) {
  std::vector<int> m(size_t(cols) * cols);
  for (int k = 0; k < cols; k++) m[k] = m[size_t(k) * cols] = -k * s.gap;
  for (int i = 1; i < cols; i++)
    for (int j = 1; j < cols; j++)
      m[size_t(i) * cols + j] = std::max({m[size_t(i - 1) * cols + j - 1] + s.subst_host(table, a[i], b[j]),
                                          m[size_t(i) * cols + j - 1] - s.gap, m[size_t(i - 1) * cols + j] - s.gap});
  return m;
}

template <int BLOCK, typename Score>
static int align(const char *what, int n, Score s, const int (*table)[24]) {
  const int cols = n + 1, block_width = n / BLOCK;
  std::vector<int> a(cols), b(cols);
  unsigned seed = 7u + BLOCK;
  for (int k = 1; k < cols; k++) {
    seed = seed * 1103515245u + 12345u;
    a[k] = (seed >> 16) % 24;
    seed = seed * 1103515245u + 12345u;
    b[k] = (seed >> 16) % 24;
  }
  size_t bytes = size_t(cols) * cols * sizeof(int);
  int *d_a, *d_b, *d_ref, *d_score, *d_best, *d_path, *d_len;
  HIP_CHECK(hipMalloc(&d_a, cols * sizeof(int)));
  HIP_CHECK(hipMalloc(&d_b, cols * sizeof(int)));
  HIP_CHECK(hipMalloc(&d_ref, bytes));
  HIP_CHECK(hipMalloc(&d_score, bytes));
  HIP_CHECK(hipMalloc(&d_best, cols * sizeof(int)));
  HIP_CHECK(hipMalloc(&d_path, 2 * cols * sizeof(int)));
  HIP_CHECK(hipMalloc(&d_len, sizeof(int)));
  HIP_CHECK(hipMemcpy(d_a, a.data(), cols * sizeof(int), hipMemcpyHostToDevice));
  HIP_CHECK(hipMemcpy(d_b, b.data(), cols * sizeof(int), hipMemcpyHostToDevice));
  dim3 ref_block(16, 16), ref_grid((cols + 15) / 16, (cols + 15) / 16);
  nw::build_reference<<<ref_grid, ref_block>>>(d_a, d_b, d_ref, cols, s);
  nw::init_borders<<<(cols + 255) / 256, 256>>>(d_score, cols, s.gap);
  HIP_CHECK(hipGetLastError());
  for (int i = 1; i <= block_width; i++)
    nw::needle_shared_1<BLOCK><<<i, BLOCK>>>(d_score, d_ref, cols, i, s);
  for (int i = block_width - 1; i >= 1; i--)
    nw::needle_shared_2<BLOCK><<<i, BLOCK>>>(d_score, d_ref, cols, block_width, i, s);
  nw::row_best<BLOCK><<<n, BLOCK>>>(d_score, cols, d_best);
  nw::traceback<<<1, 1>>>(d_score, d_ref, cols, s, d_path, d_len);
  HIP_CHECK(hipGetLastError());
  HIP_CHECK(hipDeviceSynchronize());
  std::vector<int> got(size_t(cols) * cols), best(cols);
  int len = 0;
  HIP_CHECK(hipMemcpy(got.data(), d_score, bytes, hipMemcpyDeviceToHost));
  HIP_CHECK(hipMemcpy(best.data(), d_best, cols * sizeof(int), hipMemcpyDeviceToHost));
  HIP_CHECK(hipMemcpy(&len, d_len, sizeof(int), hipMemcpyDeviceToHost));
  std::vector<int> want = host_matrix(a, b, cols, s, table);
  int bad = 0;
  for (size_t k = 0; k < want.size(); k++)
    if (got[k] != want[k] && bad++ < 3)
      std::fprintf(stderr, "%s: cell (%zu, %zu) is %d, expected %d\n", what, k / cols, k % cols, got[k], want[k]);
  for (int r = 1; r < cols; r++) {
    int w = *std::max_element(want.begin() + size_t(r) * cols + 1, want.begin() + size_t(r + 1) * cols);
    if (best[r] != w && bad++ < 3) std::fprintf(stderr, "%s: row %d best %d, expected %d\n", what, r, best[r], w);
  }
  if (len < n || len > 2 * n) {
    std::fprintf(stderr, "%s: traceback of %d steps for %d x %d\n", what, len, n, n);
    bad++;
  }
  for (int *p : {d_a, d_b, d_ref, d_score, d_best, d_path, d_len}) HIP_CHECK(hipFree(p));
  std::printf("%s: %d x %d, score %d, traceback %d steps%s\n", what, n, n, got.back(), len, bad ? " FAILED" : "");
  return bad;
}

int main(int argc, char **argv) {
  int n = argc > 1 ? std::atoi(argv[1]) : 256;
  if (n <= 0 || n % 32) {
    std::fprintf(stderr, "nw: the sequence length must be a positive multiple of 32, not %d\n", n);
    return 2;
  }
  static int table[24][24];
  HIP_CHECK(hipMemcpyFromSymbol(table, HIP_SYMBOL(nw::blosum62), sizeof table));
  int bad = align<16>("nw blosum62, 16x16 tiles", n, nw::Blosum{10}, table);
  bad += align<32>("nw match/mismatch, 32x32 tiles", n, nw::MatchMismatch{2, 1, -1}, table);
  std::puts(bad ? "nw: FAILED" : "nw: PASSED");
  return bad ? 1 : 0;
}
