// Separable convolution as HIP users write it (after the CUDA samples'
// convolutionSeparable): a row kernel and a column kernel, each staging a
// tile with its halo in __shared__ memory, the filter in __constant__ memory,
// templated over the radius and the work-items' result steps. make bench
// builds it (test/bench/build_time.sh); run on the emulator it checks itself
// against the host.
#include <hip/hip_runtime.h>

#include <cmath>
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

#define MAX_RADIUS 8
__constant__ float filter[2 * MAX_RADIUS + 1];

// Rows: a workgroup of BX x BY work-items produces BX * STEPS results per row,
// loading HALO_STEPS (>= R / BX, rounded up) blocks of halo on each side.
template <int R, int BX, int BY, int STEPS, int HALO_STEPS>
__global__ void rows(float *dst, const float *src, int w, int h, int pitch) {
  __shared__ float tile[BY][(STEPS + 2 * HALO_STEPS) * BX];
  const int x0 = (blockIdx.x * STEPS - HALO_STEPS) * BX + threadIdx.x;
  const int y = blockIdx.y * BY + threadIdx.y;
  const float *in = src + y * pitch;
  // Rows past the image stage zeros: every work-item reaches the barrier.
#pragma unroll
  for (int i = 0; i < STEPS + 2 * HALO_STEPS; i++) {
    int x = x0 + i * BX;
    tile[threadIdx.y][threadIdx.x + i * BX] = (y < h && x >= 0 && x < w) ? in[x] : 0.0f;
  }
  __syncthreads();
#pragma unroll
  for (int i = HALO_STEPS; i < HALO_STEPS + STEPS; i++) {
    float sum = 0.0f;
#pragma unroll
    for (int j = -R; j <= R; j++) sum += filter[R - j] * tile[threadIdx.y][threadIdx.x + i * BX + j];
    int x = x0 + i * BX;
    if (y < h && x < w) dst[y * pitch + x] = sum;
  }
}

// Columns: the same along y, BX x BY work-items, BY * STEPS results per column.
template <int R, int BX, int BY, int STEPS, int HALO_STEPS>
__global__ void columns(float *dst, const float *src, int w, int h, int pitch) {
  __shared__ float tile[BX][(STEPS + 2 * HALO_STEPS) * BY + 1];
  const int x = blockIdx.x * BX + threadIdx.x;
  const int y0 = (blockIdx.y * STEPS - HALO_STEPS) * BY + threadIdx.y;
#pragma unroll
  for (int i = 0; i < STEPS + 2 * HALO_STEPS; i++) {
    int y = y0 + i * BY;
    tile[threadIdx.x][threadIdx.y + i * BY] = (x < w && y >= 0 && y < h) ? src[y * pitch + x] : 0.0f;
  }
  __syncthreads();
#pragma unroll
  for (int i = HALO_STEPS; i < HALO_STEPS + STEPS; i++) {
    float sum = 0.0f;
#pragma unroll
    for (int j = -R; j <= R; j++) sum += filter[R - j] * tile[threadIdx.x][threadIdx.y + i * BY + j];
    int y = y0 + i * BY;
    if (x < w && y < h) dst[y * pitch + x] = sum;
  }
}

// dst = columns(rows(src)) with a filter of radius R.
template <int R>
static void convolve(float *d_dst, float *d_tmp, const float *d_src, int w, int h) {
  constexpr int RBX = 16, RBY = 4, RSTEPS = 8, RHALO = (R + RBX - 1) / RBX;
  constexpr int CBX = 16, CBY = 8, CSTEPS = 8, CHALO = (R + CBY - 1) / CBY;
  dim3 rgrid((w + RBX * RSTEPS - 1) / (RBX * RSTEPS), (h + RBY - 1) / RBY);
  rows<R, RBX, RBY, RSTEPS, RHALO><<<rgrid, dim3(RBX, RBY)>>>(d_tmp, d_src, w, h, w);
  dim3 cgrid((w + CBX - 1) / CBX, (h + CBY * CSTEPS - 1) / (CBY * CSTEPS));
  columns<R, CBX, CBY, CSTEPS, CHALO><<<cgrid, dim3(CBX, CBY)>>>(d_dst, d_tmp, w, h, w);
  HIP_CHECK(hipGetLastError());
}

template <int R>
static int run(int w, int h) {
  std::vector<float> f(2 * R + 1), src(size_t(w) * h), got(src.size()), tmp(src.size()), want(src.size());
  float norm = 0;
  for (int k = 0; k <= 2 * R; k++) norm += f[k] = std::exp(-float((k - R) * (k - R)) / (2.0f * R));
  for (float &v : f) v /= norm;
  for (size_t k = 0; k < src.size(); k++) src[k] = float((k * 2654435761u) >> 24) / 255.0f;
  for (int y = 0; y < h; y++)
    for (int x = 0; x < w; x++) {
      float s = 0;
      for (int j = -R; j <= R; j++) s += (x + j >= 0 && x + j < w) ? f[R - j] * src[size_t(y) * w + x + j] : 0.0f;
      tmp[size_t(y) * w + x] = s;
    }
  for (int y = 0; y < h; y++)
    for (int x = 0; x < w; x++) {
      float s = 0;
      for (int j = -R; j <= R; j++) s += (y + j >= 0 && y + j < h) ? f[R - j] * tmp[size_t(y + j) * w + x] : 0.0f;
      want[size_t(y) * w + x] = s;
    }
  HIP_CHECK(hipMemcpyToSymbol(HIP_SYMBOL(filter), f.data(), f.size() * sizeof(float)));
  float *d_src, *d_tmp, *d_dst;
  size_t bytes = src.size() * sizeof(float);
  HIP_CHECK(hipMalloc(&d_src, bytes));
  HIP_CHECK(hipMalloc(&d_tmp, bytes));
  HIP_CHECK(hipMalloc(&d_dst, bytes));
  HIP_CHECK(hipMemcpy(d_src, src.data(), bytes, hipMemcpyHostToDevice));
  convolve<R>(d_dst, d_tmp, d_src, w, h);
  HIP_CHECK(hipMemcpy(got.data(), d_dst, bytes, hipMemcpyDeviceToHost));
  HIP_CHECK(hipFree(d_src));
  HIP_CHECK(hipFree(d_tmp));
  HIP_CHECK(hipFree(d_dst));
  for (size_t k = 0; k < got.size(); k++)
    if (std::fabs(got[k] - want[k]) > 1e-4f) {
      std::fprintf(stderr, "sepconv radius %d: pixel (%zu, %zu) is %g, expected %g\n", R, k % w, k / w, got[k],
                   want[k]);
      return 1;
    }
  std::printf("sepconv radius %d: %d x %d\n", R, w, h);
  return 0;
}

int main() {
  int bad = run<3>(300, 200);
  bad += run<8>(256, 130);
  std::puts(bad ? "sepconv: FAILED" : "sepconv: PASSED");
  return bad;
}
