// Kernels whose work-item loops check ASan's shadow once per loop
// (retarget_shadow_ranges.cpp) when built with -O2, each checked against a
// host reference: the intervals must be right for every access shape here
// (forward and backward strides, an inner loop over a 2-D tile, 1-, 2-, 8-
// and 16-byte accesses, a large array), and an access whose interval reaches a redzone
// only on a side no work-item takes (a guarded neighbour read) must run the
// checked loop without a false report. shadow_ranges.sh checks the
// retarget tool's count of such loops and runs this program.
#include "common.h"

#include <vector>

// Staging plus a tree reduction: every region is a one-dimensional loop.
template <int WG>
__global__ void stage_reduce(const float *in, float *out) {
  __shared__ float buf[WG];
  int t = threadIdx.x;
  buf[t] = in[blockIdx.x * WG + t];
  __syncthreads();
  for (int s = WG / 2; s > 0; s >>= 1) {
    if (t < s) buf[t] += buf[t + s];
    __syncthreads();
  }
  if (t == 0) out[blockIdx.x] = buf[0];
}

// A 2-D tile read backwards in an inner loop: the interval spans both loops.
template <int WG, int K>
__global__ void reversed_columns(const float *in, float *out) {
  __shared__ float tile[K][WG];
  int t = threadIdx.x;
  for (int k = 0; k < K; k++) tile[k][t] = in[(blockIdx.x * K + k) * WG + t];
  __syncthreads();
  float acc = 0;
  for (int k = 0; k < K; k++) acc += tile[k][WG - 1 - t] * (float)(k + 1);
  out[blockIdx.x * WG + t] = acc;
}

// Right neighbour, guarded: the unguarded interval would reach past buf.
template <int WG>
__global__ void guarded_neighbour(const int *in, int *out) {
  __shared__ int buf[WG];
  int t = threadIdx.x;
  buf[t] = in[blockIdx.x * WG + t];
  __syncthreads();
  int right = t + 1 < WG ? buf[t + 1] : 0;
  out[blockIdx.x * WG + t] = buf[t] - right;
}

// 16-byte accesses over a large array (48 KiB of LDS).
template <int WG, int PER>
__global__ void wide_copy(const float4 *in, float4 *out) {
  __shared__ float4 big[WG * PER];
  int t = threadIdx.x;
  for (int p = 0; p < PER; p++) big[p * WG + t] = in[(blockIdx.x * PER + p) * WG + t];
  __syncthreads();
  for (int p = 0; p < PER; p++) {
    float4 v = big[(PER - 1 - p) * WG + t];
    out[(blockIdx.x * PER + p) * WG + t] = make_float4(v.w, v.z, v.y, v.x);
  }
}

// Staging of 1-, 2- and 8-byte elements, read back reversed: loops the cleanup
// after versioning turns into vector code for each element size.
template <typename T, int WG>
__global__ void reverse_stage(const T *in, T *out, int shift) {
  __shared__ T buf[WG];
  int t = threadIdx.x;
  buf[t] = (T)(in[blockIdx.x * WG + t] + (T)shift);
  __syncthreads();
  out[blockIdx.x * WG + t] = buf[WG - 1 - t];
}

template <typename T>
static T *to_device(const std::vector<T> &h) {
  T *d;
  HIP_CHECK(hipMalloc(&d, h.size() * sizeof(T)));
  HIP_CHECK(hipMemcpy(d, h.data(), h.size() * sizeof(T), hipMemcpyHostToDevice));
  return d;
}

template <typename T>
static std::vector<T> from_device(const T *d, size_t n) {
  std::vector<T> h(n);
  HIP_CHECK(hipMemcpy(h.data(), d, n * sizeof(T), hipMemcpyDeviceToHost));
  HIP_CHECK(hipFree((void *)d));
  return h;
}

template <int WG>
static void run_stage_reduce(int groups) {
  std::vector<float> in(groups * WG), want(groups, 0.0f);
  for (size_t i = 0; i < in.size(); i++) in[i] = (float)(i % 13);
  for (int g = 0; g < groups; g++)
    for (int t = 0; t < WG; t++) want[g] += in[g * WG + t];
  float *din = to_device(in), *dout;
  HIP_CHECK(hipMalloc(&dout, groups * sizeof(float)));
  stage_reduce<WG><<<groups, WG>>>(din, dout);
  LAUNCH_CHECK();
  check_equal("stage_reduce", from_device(dout, groups).data(), want.data(), groups);
  HIP_CHECK(hipFree(din));
}

template <typename T, int WG>
static void run_reverse_stage(const char *name, int groups) {
  std::vector<T> in(groups * WG), want(groups * WG);
  for (size_t i = 0; i < in.size(); i++) in[i] = (T)((i * 37) % 101);
  for (int g = 0; g < groups; g++)
    for (int t = 0; t < WG; t++) want[g * WG + t] = (T)(in[g * WG + WG - 1 - t] + (T)3);
  T *din = to_device(in), *dout;
  HIP_CHECK(hipMalloc(&dout, in.size() * sizeof(T)));
  reverse_stage<T, WG><<<groups, WG>>>(din, dout, 3);
  LAUNCH_CHECK();
  std::vector<T> got = from_device(dout, in.size());
  int bad = 0;
  for (size_t i = 0; i < got.size(); i++)
    if (got[i] != want[i] && bad++ < 3)
      fprintf(stderr, "%s: element %zu is %g, expected %g\n", name, i, (double)got[i], (double)want[i]);
  if (bad) {
    fprintf(stderr, "%s: %d wrong elements\n", name, bad);
    exit(1);
  }
  HIP_CHECK(hipFree(din));
}

int main() {
  run_stage_reduce<256>(16);
  run_reverse_stage<signed char, 256>("reverse_stage<char>", 5);
  run_reverse_stage<short, 128>("reverse_stage<short>", 5);
  run_reverse_stage<double, 256>("reverse_stage<double>", 5);
  run_stage_reduce<64>(8);

  {
    const int WG = 128, K = 8, G = 4;
    std::vector<float> in(G * K * WG), want(G * WG, 0.0f);
    for (size_t i = 0; i < in.size(); i++) in[i] = (float)(i % 29) - 7.0f;
    for (int g = 0; g < G; g++)
      for (int t = 0; t < WG; t++)
        for (int k = 0; k < K; k++) want[g * WG + t] += in[(g * K + k) * WG + (WG - 1 - t)] * (float)(k + 1);
    float *din = to_device(in), *dout;
    HIP_CHECK(hipMalloc(&dout, G * WG * sizeof(float)));
    reversed_columns<WG, K><<<G, WG>>>(din, dout);
    LAUNCH_CHECK();
    check_equal("reversed_columns", from_device(dout, G * WG).data(), want.data(), G * WG);
    HIP_CHECK(hipFree(din));
  }
  {
    const int WG = 256, G = 3;
    std::vector<int> in(G * WG), want(G * WG);
    for (size_t i = 0; i < in.size(); i++) in[i] = (int)((i * 7919) % 1000);
    for (int g = 0; g < G; g++)
      for (int t = 0; t < WG; t++) want[g * WG + t] = in[g * WG + t] - (t + 1 < WG ? in[g * WG + t + 1] : 0);
    int *din = to_device(in), *dout;
    HIP_CHECK(hipMalloc(&dout, G * WG * sizeof(int)));
    guarded_neighbour<WG><<<G, WG>>>(din, dout);
    LAUNCH_CHECK();
    check_equal("guarded_neighbour", from_device(dout, G * WG).data(), want.data(), G * WG);
    HIP_CHECK(hipFree(din));
  }
  {
    const int WG = 256, PER = 12, G = 2, N = G * PER * WG;
    std::vector<float4> in(N);
    for (int i = 0; i < N; i++) in[i] = make_float4((float)i, (float)(i + 1), (float)(i + 2), (float)(i + 3));
    std::vector<float> want(4 * N);
    for (int g = 0; g < G; g++)
      for (int p = 0; p < PER; p++)
        for (int t = 0; t < WG; t++) {
          const float4 &v = in[(g * PER + (PER - 1 - p)) * WG + t];
          float *w = &want[4 * ((g * PER + p) * WG + t)];
          w[0] = v.w, w[1] = v.z, w[2] = v.y, w[3] = v.x;
        }
    float4 *din = to_device(in), *dout;
    HIP_CHECK(hipMalloc(&dout, N * sizeof(float4)));
    wide_copy<WG, PER><<<G, WG>>>(din, dout);
    LAUNCH_CHECK();
    std::vector<float4> got = from_device(dout, N);
    check_equal("wide_copy", (const float *)got.data(), want.data(), 4 * N);
    HIP_CHECK(hipFree(din));
  }
  passed("shadow_ranges");
  return 0;
}
