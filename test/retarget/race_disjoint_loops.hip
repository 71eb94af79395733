// The LDS checks decided once per work-item loop (retarget_lds_disjoint.cpp,
// core_lds_disjoint.c): a loop whose accesses no two work-items share skips
// the records' comparisons; any other loop checks every access. Built with
// -O2 (the pass runs on optimized loops); race_disjoint_loops.sh checks the
// reports. Each kernel is a one-dimensional workgroup of 256 whose accesses
// are affine in threadIdx.x, so the loops are described by spans and the
// core's answer decides; <false> plants a bug the fast path would hide if
// the answer were wrong, <true> is the fixed kernel:
// - tree: staging + tree reduction, all disjoint loops; its tree levels
//   read what the staging loop wrote on the fast path (with detect_uninit,
//   a write there must still be kept). Always fixed.
// - shift: every work-item reads its right neighbour's slot, then writes its
//   own (write-after-read between neighbours; fixed: a barrier between).
// - pair: every work-item writes slots t + 1, then t (write-after-write of
//   neighbours; fixed: 2t + 1 and 2t). In this order lanes run one after
//   another give the GPU's answer; t first, then t + 1, they would not, and
//   the kernel would run in lockstep.
// - halo: only the first half is staged, then everyone reads its own slot:
//   the reads of the second half are uninitialized.
// - window: each work-item writes `reps` (a run-time count: a real inner
//   loop, not unrolled) consecutive words from 2 * t: the windows of
//   neighbours overlap (write-after-write); fixed: from 4 * t, for t < 64.
// - mirror: buf[WG - 1 - t] read, then buf[t] written (write-after-read
//   between work-items of different waves).
// The racy kernels have no load after a store in one interval, nor a store
// that meets a higher lane's earlier access (such kernels run in lockstep
// waves, whose loops this does not decide).
#include "common.h"
#include <string.h>

#define WG 256

__global__ void tree(const float *in, float *out) {
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

template <bool fixed>
__global__ void shift(const float *in, float *out) {
  __shared__ float buf[2 * WG];
  int t = threadIdx.x;
  buf[t] = in[blockIdx.x * WG + t];
  buf[WG + t] = 0.0f;
  __syncthreads();
  float right = buf[t + 1];  // shift-read
  if (fixed) __syncthreads();
  buf[t] = right;  // shift-write
  __syncthreads();
  out[blockIdx.x * WG + t] = buf[t];
}

template <bool fixed>
__global__ void pair(const float *in, float *out) {
  __shared__ float buf[2 * WG + 1];
  int t = threadIdx.x;
  int at = fixed ? 2 * t : t;
  buf[at + 1] = -in[blockIdx.x * WG + t];  // pair-second
  buf[at] = in[blockIdx.x * WG + t];  // pair-first
  __syncthreads();
  out[blockIdx.x * WG + t] = fixed ? buf[2 * t] + buf[2 * t + 1] : buf[t];
}

template <bool fixed>
__global__ void halo(const float *in, float *out) {
  __shared__ float buf[WG];
  int t = threadIdx.x;
  if (fixed || t < WG / 2) buf[t] = in[blockIdx.x * WG + t];
  __syncthreads();
  out[blockIdx.x * WG + t] = buf[t];  // halo-read
}

template <bool fixed>
__global__ void window(const float *in, float *out, int reps) {
  __shared__ float buf[4 * WG + 8];  // room for every work-item's window: the loop is decided once
  int t = threadIdx.x;
  int stride = fixed ? 4 : 2;
  if (t < (fixed ? WG / 4 : WG / 2))
#pragma clang loop unroll(disable) vectorize(disable)
    for (int j = 0; j < reps; j++) buf[stride * t + j] = in[blockIdx.x * WG + t] + j;  // window-write
  __syncthreads();
  out[blockIdx.x * WG + t] = buf[t];
}

template <bool fixed>
__global__ void mirror(const float *in, float *out) {
  __shared__ float buf[WG];
  int t = threadIdx.x;
  buf[t] = in[blockIdx.x * WG + t];
  __syncthreads();
  float v = buf[WG - 1 - t];  // mirror-read
  if (fixed) __syncthreads();
  buf[t] = v;  // mirror-write
  __syncthreads();
  out[blockIdx.x * WG + t] = buf[t];
}

// race_disjoint_loops [fixed]: the kernels, racy or fixed; the fixed ones'
// results are checked against the host.
int main(int argc, char **argv) {
  bool fixed = argc > 1 && !strcmp(argv[1], "fixed");
  const int groups = 4, n = groups * WG, reps = 4;
  float *in = (float *)malloc(n * sizeof(float)), *out = (float *)malloc(n * sizeof(float));
  float *want = (float *)malloc(n * sizeof(float));
  for (int i = 0; i < n; i++) in[i] = (float)(i % 13);
  float *din, *dout;
  HIP_CHECK(hipMalloc(&din, n * sizeof(float)));
  HIP_CHECK(hipMalloc(&dout, n * sizeof(float)));
  HIP_CHECK(hipMemcpy(din, in, n * sizeof(float), hipMemcpyHostToDevice));

  tree<<<groups, WG>>>(din, dout);
  LAUNCH_CHECK();
  HIP_CHECK(hipMemcpy(out, dout, groups * sizeof(float), hipMemcpyDeviceToHost));
  for (int g = 0; g < groups; g++) {
    want[g] = 0;
    for (int t = 0; t < WG; t++) want[g] += in[g * WG + t];
  }
  check_equal("tree", out, want, groups);

  fixed ? shift<true><<<groups, WG>>>(din, dout) : shift<false><<<groups, WG>>>(din, dout);
  LAUNCH_CHECK();
  HIP_CHECK(hipMemcpy(out, dout, n * sizeof(float), hipMemcpyDeviceToHost));
  for (int g = 0; g < groups; g++)
    for (int i = 0; i < WG; i++) want[g * WG + i] = i + 1 < WG ? in[g * WG + i + 1] : 0.0f;
  if (fixed) check_equal("shift", out, want, n);

  fixed ? pair<true><<<groups, WG>>>(din, dout) : pair<false><<<groups, WG>>>(din, dout);
  LAUNCH_CHECK();
  HIP_CHECK(hipMemcpy(out, dout, n * sizeof(float), hipMemcpyDeviceToHost));
  for (int i = 0; i < n; i++) want[i] = 0.0f;
  if (fixed) check_equal("pair", out, want, n);

  fixed ? halo<true><<<groups, WG>>>(din, dout) : halo<false><<<groups, WG>>>(din, dout);
  LAUNCH_CHECK();
  HIP_CHECK(hipMemcpy(out, dout, n * sizeof(float), hipMemcpyDeviceToHost));
  if (fixed) check_equal("halo", out, in, n);

  fixed ? window<true><<<groups, WG>>>(din, dout, reps) : window<false><<<groups, WG>>>(din, dout, reps);
  LAUNCH_CHECK();
  HIP_CHECK(hipMemcpy(out, dout, n * sizeof(float), hipMemcpyDeviceToHost));
  for (int g = 0; g < groups; g++)
    for (int i = 0; i < WG; i++) want[g * WG + i] = in[g * WG + i / 4] + i % 4;
  if (fixed) check_equal("window", out, want, n);

  fixed ? mirror<true><<<groups, WG>>>(din, dout) : mirror<false><<<groups, WG>>>(din, dout);
  LAUNCH_CHECK();
  HIP_CHECK(hipMemcpy(out, dout, n * sizeof(float), hipMemcpyDeviceToHost));
  for (int g = 0; g < groups; g++)
    for (int i = 0; i < WG; i++) want[g * WG + i] = in[g * WG + WG - 1 - i];
  if (fixed) check_equal("mirror", out, want, n);

  free(in);
  free(out);
  free(want);
  passed("race_disjoint_loops");
  return 0;
}
