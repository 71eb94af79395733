// Work-efficient (Blelloch) exclusive scan as HIP users write it: each
// workgroup scans 2 * BLOCK elements in __shared__ memory with padding against
// bank conflicts (an up-sweep and a down-sweep, a __syncthreads() per level),
// writes its total, the totals are scanned the same way, and a third kernel
// adds them back; templated over the element type and the workgroup size.
// make bench builds it (test/bench/build_time.sh); run on the emulator it
// checks itself against the host.
#include <hip/hip_runtime.h>

#include <cstdio>
#include <cstdlib>
#include <vector>

#define HIP_CHECK(expr)                                                                          \
  do {                                                                                           \
    hipError_t e_ = (expr);                                                                      \
    if (e_ != hipSuccess) {                                                                      \
      std::fprintf(stderr, "%s:%d: %s: %s\n", __FILE__, __LINE__, #expr, hipGetErrorString(e_)); \
      std::exit(3);                                                                              \
    }                                                                                            \
  } while (0)

#define LOG_BANKS 5
#define PAD(i) ((i) >> LOG_BANKS)

template <typename T, int BLOCK>
__global__ void scan_blocks(const T *in, T *out, T *sums, int n) {
  __shared__ T tmp[2 * BLOCK + PAD(2 * BLOCK)];
  int t = threadIdx.x;
  int base = blockIdx.x * 2 * BLOCK;
  int ai = t, bi = t + BLOCK;
  tmp[ai + PAD(ai)] = base + ai < n ? in[base + ai] : T(0);
  tmp[bi + PAD(bi)] = base + bi < n ? in[base + bi] : T(0);
  int offset = 1;
  for (int d = BLOCK; d > 0; d >>= 1) {  // up-sweep
    __syncthreads();
    if (t < d) {
      int a = offset * (2 * t + 1) - 1, b = offset * (2 * t + 2) - 1;
      tmp[b + PAD(b)] += tmp[a + PAD(a)];
    }
    offset <<= 1;
  }
  if (t == 0) {
    int last = 2 * BLOCK - 1;
    if (sums) sums[blockIdx.x] = tmp[last + PAD(last)];
    tmp[last + PAD(last)] = T(0);
  }
  for (int d = 1; d < 2 * BLOCK; d <<= 1) {  // down-sweep
    offset >>= 1;
    __syncthreads();
    if (t < d) {
      int a = offset * (2 * t + 1) - 1, b = offset * (2 * t + 2) - 1;
      T v = tmp[a + PAD(a)];
      tmp[a + PAD(a)] = tmp[b + PAD(b)];
      tmp[b + PAD(b)] += v;
    }
  }
  __syncthreads();
  if (base + ai < n) out[base + ai] = tmp[ai + PAD(ai)];
  if (base + bi < n) out[base + bi] = tmp[bi + PAD(bi)];
}

// out[i] += scanned block total of i's block.
template <typename T, int BLOCK>
__global__ void add_sums(T *out, const T *sums, int n) {
  __shared__ T add;
  if (threadIdx.x == 0) add = sums[blockIdx.x];
  __syncthreads();
  int base = blockIdx.x * 2 * BLOCK;
  for (int k = threadIdx.x; k < 2 * BLOCK; k += BLOCK)
    if (base + k < n) out[base + k] += add;
}

// Exclusive scan of n elements (n up to (2 * BLOCK)^2).
template <typename T, int BLOCK>
static void scan(const T *d_in, T *d_out, int n) {
  int groups = (n + 2 * BLOCK - 1) / (2 * BLOCK);
  T *d_sums, *d_sums_scanned;
  HIP_CHECK(hipMalloc(&d_sums, groups * sizeof(T)));
  HIP_CHECK(hipMalloc(&d_sums_scanned, groups * sizeof(T)));
  scan_blocks<T, BLOCK><<<groups, BLOCK>>>(d_in, d_out, d_sums, n);
  scan_blocks<T, BLOCK><<<1, BLOCK>>>(d_sums, d_sums_scanned, nullptr, groups);
  add_sums<T, BLOCK><<<groups, BLOCK>>>(d_out, d_sums_scanned, n);
  HIP_CHECK(hipGetLastError());
  HIP_CHECK(hipFree(d_sums));
  HIP_CHECK(hipFree(d_sums_scanned));
}

template <typename T, int BLOCK>
static int run(const char *what, int n) {
  std::vector<T> in(n), got(n), want(n);
  for (int i = 0; i < n; i++) in[i] = T((i * 37) % 19) - T(9);
  T s = T(0);
  for (int i = 0; i < n; i++) want[i] = s, s += in[i];
  T *d_in, *d_out;
  HIP_CHECK(hipMalloc(&d_in, n * sizeof(T)));
  HIP_CHECK(hipMalloc(&d_out, n * sizeof(T)));
  HIP_CHECK(hipMemcpy(d_in, in.data(), n * sizeof(T), hipMemcpyHostToDevice));
  scan<T, BLOCK>(d_in, d_out, n);
  HIP_CHECK(hipMemcpy(got.data(), d_out, n * sizeof(T), hipMemcpyDeviceToHost));
  HIP_CHECK(hipFree(d_in));
  HIP_CHECK(hipFree(d_out));
  for (int i = 0; i < n; i++)
    if (got[i] != want[i]) {
      std::fprintf(stderr, "%s: element %d is %g, expected %g\n", what, i, double(got[i]), double(want[i]));
      return 1;
    }
  std::printf("%s: %d elements\n", what, n);
  return 0;
}

int main() {
  int bad = run<int, 256>("scan int, 256 work-items", 100000);
  bad += run<float, 128>("scan float, 128 work-items", 50000);
  bad += run<long long, 64>("scan long long, 64 work-items", 12345);
  std::puts(bad ? "scan: FAILED" : "scan: PASSED");
  return bad;
}
