// The LDS checks' inline path (retarget_lds_track.cpp) keeps what the core's
// __ldsan_emu_lds_track would. Three races whose first access takes the
// inline path in work-item loops (work-items run in index order there; the
// second access then calls the core, which finds the race in what the
// inline path kept); race_inline_paths.sh checks the reports:
// - wide: work-item 3 writes a 16-byte float4 (the line marked wide-write),
//   work-item 70 of another wave reads the last float of it (wide-read):
//   every word of the wide write must be kept;
// - first_read: work-item 3 reads a slot twice (first-read, second-read),
//   work-item 70 then writes it (late-write): the report names the first
//   read, as the core keeps the interval's first read;
// - tile2d: a 16x8 block, work-item (2,1) writes (cell-write), (1,5) reads
//   (cell-read) in the same interval: the work-items come from the loop
//   index (its waves run in lockstep: either may go first).
// - rewrite: work-item 3 writes a slot (slot-write) in every workgroup, in
//   workgroup 1 work-item 5 too, then work-item 9 reads it (slot-read): the
//   write is kept by the inline path in workgroup 0 and by the core (after
//   the write-after-write) in workgroup 1, with the same pc, so the
//   read-after-write of the two lines is one report (two before the core got
//   the inline path's pc); all in one wave: warnings.
// With `fixed` set, a barrier orders each pair: no report.
#include "common.h"
#include <string.h>

template <bool fixed>
__global__ void wide(const float *in, float *out) {
  __shared__ float4 tile[32];
  int t = threadIdx.x;
  if (t == 3) tile[5] = make_float4(in[0], in[1], in[2], in[3]);  // wide-write
  if (fixed) __syncthreads();
  float v = t == 70 ? ((float *)tile)[5 * 4 + 3] : 0.0f;  // wide-read
  out[t] = v;
}

template <bool fixed>
__global__ void first_read(const float *in, float *out) {
  __shared__ float slot[4];
  int t = threadIdx.x;
  if (t == 0) slot[1] = in[0];
  __syncthreads();
  float a = t == 3 ? slot[1] : 0.0f;  // first-read
  float b = t == 3 ? slot[1] * 2.0f : 0.0f;  // second-read
  if (fixed) __syncthreads();
  if (t == 70) slot[1] = 1.0f;  // late-write
  out[t] = a + b;
}

template <bool fixed>
__global__ void tile2d(const float *in, float *out) {
  __shared__ float cell[8];
  int t = threadIdx.y * blockDim.x + threadIdx.x;
  if (threadIdx.x == 2 && threadIdx.y == 1) cell[5] = in[0];  // cell-write
  if (fixed) __syncthreads();
  float v = threadIdx.x == 1 && threadIdx.y == 5 ? cell[5] : 0.0f;  // cell-read
  out[t] = v;
}

template <bool fixed>
__global__ void rewrite(const float *in, float *out) {
  __shared__ float slot;
  int t = threadIdx.x;
  if (t == 3 || (!fixed && blockIdx.x == 1 && t == 5)) slot = in[t];  // slot-write
  if (fixed) __syncthreads();
  float v = t == 9 ? slot : 0.0f;  // slot-read
  out[t] = v;
}

// race_inline_paths [fixed]: the three kernels, racy or fixed; checks what
// the readers read when fixed.
int main(int argc, char **argv) {
  bool fixed = argc > 1 && !strcmp(argv[1], "fixed");
  static float in[4] = {1, 2, 3, 4}, out[128];
  float *din, *dout;
  HIP_CHECK(hipMalloc(&din, sizeof in));
  HIP_CHECK(hipMalloc(&dout, sizeof out));
  HIP_CHECK(hipMemcpy(din, in, sizeof in, hipMemcpyHostToDevice));
  float want[4] = {4, 3, 1, 4}, got[4];
  for (int k = 0; k < 4; k++) {
    if (k == 0) fixed ? wide<true><<<1, 128>>>(din, dout) : wide<false><<<1, 128>>>(din, dout);
    if (k == 1) fixed ? first_read<true><<<1, 128>>>(din, dout) : first_read<false><<<1, 128>>>(din, dout);
    if (k == 2) fixed ? tile2d<true><<<1, dim3(16, 8)>>>(din, dout) : tile2d<false><<<1, dim3(16, 8)>>>(din, dout);
    if (k == 3) fixed ? rewrite<true><<<2, 64>>>(din, dout) : rewrite<false><<<2, 64>>>(din, dout);
    LAUNCH_CHECK();
    HIP_CHECK(hipMemcpy(out, dout, sizeof out, hipMemcpyDeviceToHost));
    got[k] = out[k == 0 ? 70 : k == 1 ? 3 : k == 2 ? 5 * 16 + 1 : 9];
  }
  for (int k = 0; k < 4 && fixed; k++)
    if (got[k] != want[k]) {
      fprintf(stderr, "race_inline_paths: kernel %d read %g, expected %g\n", k, got[k], want[k]);
      return 1;
    }
  printf("race_inline_paths: done\n");
  return 0;
}
