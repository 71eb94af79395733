// Group functions that go on from region to region themselves
// (retarget/retarget_chain.cpp, LDSAN_EMU_GROUP_CHAIN): kernels whose
// work-items all meet at every barrier, a 2-D workgroup, barriers in a loop
// (back to the core once per iteration, which then takes the parity of its
// next pass from the work-items' states: the chained barriers flipped it more
// often than its own passes), a workgroup size that is not a multiple of the
// wave. (Work-items that return between barriers are a barrier divergence,
// which the LDS checks report: test/emulator/core/barrier.hip has them.) Each result is compared with a host
// reference; prints "chain_regions: PASSED".
#include <hip/hip_runtime.h>

#include <cstdio>
#include <cstdlib>
#include <vector>

#define CHECK_HIP(x)                                                                      \
  do {                                                                                    \
    hipError_t e_ = (x);                                                                  \
    if (e_ != hipSuccess) {                                                               \
      std::fprintf(stderr, "%s:%d: %s\n", __FILE__, __LINE__, hipGetErrorString(e_));     \
      std::exit(1);                                                                       \
    }                                                                                     \
  } while (0)

template <typename T, int N> __global__ void block_sum(const T *in, T *out) {
  __shared__ T s[N];
  int t = threadIdx.x;
  s[t] = in[blockIdx.x * N + t];
  __syncthreads();
  for (int k = N / 2; k > 0; k >>= 1) {
    if (t < k) s[t] += s[t + k];
    __syncthreads();
  }
  if (t == 0) out[blockIdx.x] = s[0];
}

template <int TILE> __global__ void transpose(const float *in, float *out, int n) {
  __shared__ float tile[TILE][TILE + 1];
  int x = blockIdx.x * TILE + threadIdx.x, y = blockIdx.y * TILE + threadIdx.y;
  tile[threadIdx.y][threadIdx.x] = in[y * n + x];
  __syncthreads();
  x = blockIdx.y * TILE + threadIdx.x;
  y = blockIdx.x * TILE + threadIdx.y;
  out[y * n + x] = tile[threadIdx.x][threadIdx.y];
}

// Barriers in a loop: each iteration's second barrier leads back to an
// earlier region.
template <int N> __global__ void smooth(float *data, int iters) {
  __shared__ float s[N];
  int t = threadIdx.x;
  float v = data[blockIdx.x * N + t];
  for (int i = 0; i < iters; ++i) {
    s[t] = v;
    __syncthreads();
    v = (s[(t + N - 1) % N] + s[t] + s[(t + 1) % N]) / 3.0f;
    __syncthreads();
  }
  data[blockIdx.x * N + t] = v;
}

static int failures;
static void expect(bool ok, const char *what, int i) {
  if (!ok && failures++ < 10) std::fprintf(stderr, "chain_regions: %s wrong at %d\n", what, i);
}

static void run_block_sum() {
  const int N = 256, G = 64;
  std::vector<int> in(N * G), out(G);
  for (int i = 0; i < N * G; i++) in[i] = (i * 37) % 101 - 50;
  int *din, *dout;
  CHECK_HIP(hipMalloc(&din, in.size() * sizeof(int)));
  CHECK_HIP(hipMalloc(&dout, out.size() * sizeof(int)));
  CHECK_HIP(hipMemcpy(din, in.data(), in.size() * sizeof(int), hipMemcpyHostToDevice));
  block_sum<int, N><<<G, N>>>(din, dout);
  CHECK_HIP(hipGetLastError());
  CHECK_HIP(hipMemcpy(out.data(), dout, out.size() * sizeof(int), hipMemcpyDeviceToHost));
  for (int g = 0; g < G; g++) {
    int want = 0;
    for (int t = 0; t < N; t++) want += in[g * N + t];
    expect(out[g] == want, "block_sum", g);
  }
  CHECK_HIP(hipFree(din));
  CHECK_HIP(hipFree(dout));
}

static void run_transpose() {
  const int T = 16, n = 64;
  std::vector<float> in(n * n), out(n * n);
  for (int i = 0; i < n * n; i++) in[i] = (float)i;
  float *din, *dout;
  CHECK_HIP(hipMalloc(&din, in.size() * sizeof(float)));
  CHECK_HIP(hipMalloc(&dout, out.size() * sizeof(float)));
  CHECK_HIP(hipMemcpy(din, in.data(), in.size() * sizeof(float), hipMemcpyHostToDevice));
  transpose<T><<<dim3(n / T, n / T), dim3(T, T)>>>(din, dout, n);
  CHECK_HIP(hipGetLastError());
  CHECK_HIP(hipMemcpy(out.data(), dout, out.size() * sizeof(float), hipMemcpyDeviceToHost));
  for (int y = 0; y < n; y++)
    for (int x = 0; x < n; x++) expect(out[y * n + x] == in[x * n + y], "transpose", y * n + x);
  CHECK_HIP(hipFree(din));
  CHECK_HIP(hipFree(dout));
}

static void run_smooth() {
  const int N = 96, G = 5, iters = 7; // 96: a wave and a half
  std::vector<float> data(N * G), want(N * G);
  for (int i = 0; i < N * G; i++) data[i] = want[i] = (float)((i * 13) % 29);
  for (int g = 0; g < G; g++)
    for (int i = 0; i < iters; i++) {
      std::vector<float> s(want.begin() + g * N, want.begin() + (g + 1) * N);
      for (int t = 0; t < N; t++) want[g * N + t] = (s[(t + N - 1) % N] + s[t] + s[(t + 1) % N]) / 3.0f;
    }
  float *d;
  CHECK_HIP(hipMalloc(&d, data.size() * sizeof(float)));
  CHECK_HIP(hipMemcpy(d, data.data(), data.size() * sizeof(float), hipMemcpyHostToDevice));
  smooth<N><<<G, N>>>(d, iters);
  CHECK_HIP(hipGetLastError());
  CHECK_HIP(hipMemcpy(data.data(), d, data.size() * sizeof(float), hipMemcpyDeviceToHost));
  for (int i = 0; i < N * G; i++) expect(data[i] == want[i], "smooth", i);
  CHECK_HIP(hipFree(d));
}

int main() {
  run_block_sum();
  run_transpose();
  run_smooth();
  if (failures) return 1;
  std::printf("chain_regions: PASSED\n");
  return 0;
}
