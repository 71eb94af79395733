// Fences that order the LDS accesses of one wave (instrument/WaveFences.h):
// each case exchanges values through LDS within a wave, once with the fence
// between the write and the read (case name alone: nothing to report) and
// once without it (case "-nosync": a race within one wave, a warning).
//   tile:  a cooperative-groups tile of 32 reduces through LDS, tile.sync()
//          between the steps (ROCm 5.2's tile.sync() is a fence alone);
//   block: neighbours exchange across __threadfence_block();
//   waves: lanes 64 apart (two waves) exchange across __threadfence_block():
//          a fence orders one wave only, so this is a race between waves
//          (an error) with or without it.
// Every case checks its result against the host. race_wave_fences.sh runs them.
#include "common.h"  // hip_runtime.h first: ROCm 5.2's cooperative groups header needs it
#include <hip/hip_cooperative_groups.h>
#include <string.h>

namespace cg = cooperative_groups;

#define WG 128

template <bool sync>
__global__ void tile(const int *in, int *out) {
  __shared__ int s[WG];
  auto t32 = cg::tiled_partition<32>(cg::this_thread_block());
  int t = threadIdx.x, base = t & ~31, r = t32.thread_rank();
  s[t] = in[blockIdx.x * WG + t];
  if (sync) t32.sync();
  for (int d = 16; d > 0; d >>= 1) {
    int v = r < d ? s[base + r + d] : 0;  // tile-read
    if (sync) t32.sync();
    if (r < d) s[t] += v;  // tile-write
    if (sync) t32.sync();
  }
  if (r == 0) out[blockIdx.x * WG + t / 32] = s[t];
}

template <bool sync>
__global__ void block(const int *in, int *out) {
  __shared__ int s[WG];
  int t = threadIdx.x;
  s[t] = in[blockIdx.x * WG + t];  // block-write
  if (sync) __threadfence_block();
  out[blockIdx.x * WG + t] = s[(t & ~63) + ((t + 1) & 63)];  // block-read
}

template <bool sync>
__global__ void waves(const int *in, int *out) {
  __shared__ int s[WG];
  int t = threadIdx.x;
  s[t] = in[blockIdx.x * WG + t];
  if (sync) __threadfence_block();
  out[blockIdx.x * WG + t] = s[t ^ 64];
}

int main(int argc, char **argv) {
  const char *c = argc > 1 ? argv[1] : "";
  const int groups = 4, n = groups * WG;
  int h[n], got[n], want[n];
  for (int i = 0; i < n; i++) h[i] = (i * 7) % 23;
  int *in, *out;
  HIP_CHECK(hipMalloc(&in, sizeof h));
  HIP_CHECK(hipMalloc(&out, sizeof got));
  HIP_CHECK(hipMemcpy(in, h, sizeof h, hipMemcpyHostToDevice));
  HIP_CHECK(hipMemset(out, 0, sizeof got));
  memset(want, 0, sizeof want);
  if (!strncmp(c, "tile", 4)) {
    for (int g = 0; g < groups; g++)
      for (int k = 0; k < WG / 32; k++) {
        int sum = 0;
        for (int i = 0; i < 32; i++) sum += h[g * WG + k * 32 + i];
        want[g * WG + k] = sum;
      }
    if (!strcmp(c, "tile")) tile<true><<<groups, WG>>>(in, out);
    else tile<false><<<groups, WG>>>(in, out);
  } else if (!strncmp(c, "block", 5)) {
    for (int i = 0; i < n; i++) want[i] = h[(i & ~63) + ((i + 1) & 63)];
    if (!strcmp(c, "block")) block<true><<<groups, WG>>>(in, out);
    else block<false><<<groups, WG>>>(in, out);
  } else if (!strncmp(c, "waves", 5)) {
    for (int i = 0; i < n; i++) want[i] = h[(i & ~(WG - 1)) + ((i % WG) ^ 64)];
    if (!strcmp(c, "waves")) waves<true><<<groups, WG>>>(in, out);
    else waves<false><<<groups, WG>>>(in, out);
  } else {
    fprintf(stderr, "race_wave_fences: unknown case '%s'\n", c);
    return 2;
  }
  LAUNCH_CHECK();
  HIP_CHECK(hipMemcpy(got, out, sizeof got, hipMemcpyDeviceToHost));
  for (int i = 0; i < n; i++)
    if (got[i] != want[i]) {
      printf("race_wave_fences %s: out[%d] = %d, want %d\n", c, i, got[i], want[i]);
      return 1;
    }
  printf("race_wave_fences %s: PASSED\n", c);
  return 0;
}
