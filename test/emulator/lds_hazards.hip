// The LDS checks' suite: kernels with a planted missing barrier, uninitialized
// read or divergent barrier, each next to its fixed twin, written the way the
// bugs happen in real code. `./lds_hazards <case>` runs one case on a few
// workgroups and checks nothing itself: test/emulator/lds_checks.sh checks what
// the run-time checks (LDSAN_OPTIONS=detect_races=1:detect_uninit=1) and the
// compiled-in ones (-fsanitize-lds=races,uninit) report, unoptimized, in full
// ASan, in the LDS-only mode and in the LDS-only mode for gfx1100 (wave32).
// RUN: cd %repo && test/emulator/lds_checks.sh runtime 64 %{exe:O0}
// RUN: cd %repo && test/emulator/lds_checks.sh runtime 64 %{exe:lds-only+O0}
// RUN: cd %repo && test/emulator/lds_checks.sh runtime 32 %{exe:lds-only+wave32+O0}
// RUN: cd %repo && test/emulator/lds_checks.sh device 64 %{exe:checks+O0}
// RUN: cd %repo && test/emulator/lds_checks.sh device 64 %{exe:lds-only+checks+O0}
// RUN: cd %repo && test/emulator/lds_checks.sh device 32 %{exe:lds-only+wave32+checks+O0}
// A bad list of checks is refused with the words to use.
// RUN: cd %repo && not %ldsan-cc --emulate -fsanitize-lds=race test/emulator/lds_hazards.hip -o %t 2>&1 | FileCheck %s
// RUN: cd %repo && not %ldsan-cc --emulate -fsanitize=lds -fsanitize-lds=race test/emulator/lds_hazards.hip -o %t 2>&1 | FileCheck %s
// RUN: cd %repo && not %ldsan-cc --emulate -fsanitize=lds --offload-arch=gfx1100 -fsanitize-lds=race test/emulator/lds_hazards.hip -o %t 2>&1 | FileCheck %s
// CHECK: unknown LDS check 'race'
#include "common.h"
#include <string.h>

#define WG 256

// Tree reduction; `fixed` keeps the barrier after each step.
template <bool fixed>
__global__ void reduce(const int *in, int *out) {
  __shared__ int buf[WG];
  int t = threadIdx.x;
  buf[t] = in[blockIdx.x * WG + t];
  __syncthreads();
  for (int s = WG / 2; s > 0; s >>= 1) {
    if (t < s) buf[t] += buf[t + s];
    if (fixed) __syncthreads();  // BUG when missing: the next step reads what another wave just wrote
  }
  if (t == 0) out[blockIdx.x] = buf[0];
}

// 16x16 tile transpose.
template <bool fixed>
__global__ void transpose(const int *in, int *out) {
  __shared__ int tile[16][17];
  int x = threadIdx.x % 16, y = threadIdx.x / 16;
  tile[y][x] = in[blockIdx.x * 256 + y * 16 + x];
  if (fixed) __syncthreads();  // BUG when missing
  out[blockIdx.x * 256 + y * 16 + x] = tile[x][y];
}

// Histogram of 16 bins.
template <bool fixed>
__global__ void histogram(const int *in, int *out) {
  __shared__ int bins[16];
  int t = threadIdx.x;
  if (t < 16) bins[t] = 0;
  __syncthreads();
  int b = in[blockIdx.x * WG + t] & 15;
  if (fixed) atomicAdd(&bins[b], 1);
  else bins[b] += 1;  // BUG: work-items of different waves update one bin
  __syncthreads();
  if (t < 16) out[blockIdx.x * 16 + t] = bins[t];
}

// A staged loop over tiles with one barrier per iteration too few.
template <bool fixed>
__global__ void staged(const int *in, int *out) {
  __shared__ int tile[WG];
  int t = threadIdx.x, acc = 0;
  for (int k = 0; k < 4; k++) {
    tile[t] = in[(blockIdx.x * 4 + k) * WG + t];  // BUG when unfixed: overwrites what others still read
    __syncthreads();
    acc += tile[(t + 64) % WG];
    if (fixed) __syncthreads();
  }
  out[blockIdx.x * WG + t] = acc;
}

// Neighbours within one wave exchange through LDS with no barrier.
template <bool fixed>
__global__ void wave_exchange(const int *in, int *out) {
  __shared__ int s[WG];
  int t = threadIdx.x;
  s[t] = in[blockIdx.x * WG + t];
  if (fixed) __syncthreads();
  out[blockIdx.x * WG + t] = s[(t & ~63) + ((t + 1) & 63)];  // same wave: a warning, not an error
}

// The same exchange ordered by a wave barrier (the compiler moves no LDS
// access across it; the wave issues its LDS accesses in order): correct on a
// 64-lane wave; on wave32 the neighbour of lane 31 is in the next wave, where
// the wave barrier orders nothing: a race between waves.
__global__ void wave_exchange_synced(const int *in, int *out) {
  __shared__ int s[WG];
  int t = threadIdx.x;
  s[t] = in[blockIdx.x * WG + t];
  __builtin_amdgcn_wave_barrier();
  out[blockIdx.x * WG + t] = s[(t & ~63) + ((t + 1) & 63)];
}

// 3-point stencil whose halo is not loaded.
template <bool fixed>
__global__ void stencil(const int *in, int *out, int n) {
  __shared__ int tile[WG + 2];
  int t = threadIdx.x, g = blockIdx.x * WG + t;
  tile[t + 1] = in[g];
  if (fixed && t == 0) tile[0] = g > 0 ? in[g - 1] : 0;
  if (fixed && t == WG - 1) tile[WG + 1] = g + 1 < n ? in[g + 1] : 0;
  __syncthreads();
  out[g] = tile[t] + tile[t + 1] + tile[t + 2];  // BUG when unfixed: tile[0] and tile[WG+1] never written
}

// Dynamic LDS only half filled.
template <bool fixed>
__global__ void dynamic_half(const int *in, int *out) {
  extern __shared__ int dyn[];
  int t = threadIdx.x;
  if (fixed || t % 2 == 0) dyn[t] = in[blockIdx.x * WG + t];  // BUG when unfixed: odd slots stay unwritten
  __syncthreads();
  out[blockIdx.x * WG + t] = dyn[WG - 1 - t];
}

// Inclusive Hillis-Steele scan; the unfixed one reads and writes in one interval.
template <bool fixed>
__global__ void scan(const int *in, int *out) {
  __shared__ int s[WG];
  int t = threadIdx.x;
  s[t] = in[blockIdx.x * WG + t];
  __syncthreads();
  for (int d = 1; d < WG; d <<= 1) {
    int v = t >= d ? s[t - d] : 0;
    if (fixed) __syncthreads();  // BUG when missing: work-item t + d may read s[t] after it changed
    s[t] += v;
    __syncthreads();
  }
  out[blockIdx.x * WG + t] = s[t];
}

// The last tile of an array that is not a multiple of WG: the unfixed kernel
// loads only the valid elements, then every work-item reads its mirror.
template <bool fixed>
__global__ void partial_tile(const int *in, int *out, int n) {
  __shared__ int tile[WG];
  int t = threadIdx.x, g = blockIdx.x * WG + t;
  if (g < n) tile[t] = in[g];
  else if (fixed) tile[t] = 0;  // BUG when missing: the tail of the last tile is never written
  __syncthreads();
  if (g < n) out[g] = tile[WG - 1 - t];
}

// A barrier inside a condition that splits the waves of a workgroup.
template <bool fixed>
__global__ void split_barrier(const int *in, int *out) {
  __shared__ int s[WG];
  int t = threadIdx.x;
  s[t] = in[blockIdx.x * WG + t];
  if (fixed) {
    __syncthreads();
  } else if (t < WG / 2) {
    __syncthreads();  // BUG: the first half waits here, the second half at the other barrier
  } else {
    __syncthreads();
  }
  out[blockIdx.x * WG + t] = s[WG - 1 - t];
}

// The same within each wave: odd and even lanes take different arms, each
// with a __syncthreads().
template <bool fixed>
__global__ void split_lanes(const int *in, int *out) {
  __shared__ int s[WG];
  int t = threadIdx.x;
  s[t] = in[blockIdx.x * WG + t];
  if (fixed) {
    __syncthreads();
  } else if (t % 2) {
    __syncthreads();  // BUG: odd lanes wait here, even lanes of the same wave at the other barrier
  } else {
    __syncthreads();
  }
  out[blockIdx.x * WG + t] = s[WG - 1 - t];
}

// A barrier in a loop whose trip count differs between the lanes of one wave
// (1 to 4): the wave passes it four times, lanes that left the loop masked
// off, so the barrier releases the wrong work-items. Fixed: every lane makes
// the same four trips and only the work is skipped.
template <bool fixed>
__global__ void loop_lanes(const int *in, int *out) {
  __shared__ int s[WG];
  int t = threadIdx.x, trips = 1 + t % 4;
  s[t] = in[blockIdx.x * WG + t];
  for (int i = 0; i < (fixed ? 4 : trips); i++) {
    __syncthreads();  // BUG (not fixed): lanes of one wave pass it 1 to 4 times
    if (i < trips) out[blockIdx.x * WG + t] += s[(t + i) % WG];
  }
  __syncthreads();
  out[blockIdx.x * WG + t] += s[WG - 1 - t];
}

// Work-items past n return before the barrier: the ones that go on do not
// wait for them (a warning: this works on AMD GPUs, but their LDS writes are missing).
template <bool fixed>
__global__ void early_exit(const int *in, int *out, int n) {
  __shared__ int s[WG];
  int t = threadIdx.x, g = blockIdx.x * WG + t;
  if (!fixed && g >= n) return;
  s[t] = g < n ? in[g] : 0;
  __syncthreads();
  if (g < n) out[g] = s[t] + s[t ^ 1];
}

int main(int argc, char **argv) {
  const char *c = argc > 1 ? argv[1] : "";
  const int groups = 2, n = groups * WG * 4;
  int *in, *out;
  HIP_CHECK(hipMalloc(&in, n * sizeof(int)));
  HIP_CHECK(hipMalloc(&out, n * sizeof(int)));
  HIP_CHECK(hipMemset(in, 1, n * sizeof(int)));
#define CASE(name, launch)                 \
  if (!strcmp(c, name)) {                  \
    launch;                                \
    LAUNCH_CHECK();                        \
    printf("%s: ran\n", name);            \
    return 0;                              \
  }
  CASE("reduce", (reduce<false><<<groups, WG>>>(in, out)))
  CASE("reduce-fixed", (reduce<true><<<groups, WG>>>(in, out)))
  CASE("transpose", (transpose<false><<<groups, 256>>>(in, out)))
  CASE("transpose-fixed", (transpose<true><<<groups, 256>>>(in, out)))
  CASE("histogram", (histogram<false><<<groups, WG>>>(in, out)))
  CASE("histogram-fixed", (histogram<true><<<groups, WG>>>(in, out)))
  CASE("staged", (staged<false><<<groups, WG>>>(in, out)))
  CASE("staged-fixed", (staged<true><<<groups, WG>>>(in, out)))
  CASE("wave-exchange", (wave_exchange<false><<<groups, WG>>>(in, out)))
  CASE("wave-exchange-fixed", (wave_exchange<true><<<groups, WG>>>(in, out)))
  CASE("wave-exchange-synced", (wave_exchange_synced<<<groups, WG>>>(in, out)))
  CASE("stencil", (stencil<false><<<groups, WG>>>(in, out, groups * WG)))
  CASE("stencil-fixed", (stencil<true><<<groups, WG>>>(in, out, groups * WG)))
  CASE("dynamic", (dynamic_half<false><<<groups, WG, WG * sizeof(int)>>>(in, out)))
  CASE("dynamic-fixed", (dynamic_half<true><<<groups, WG, WG * sizeof(int)>>>(in, out)))
  CASE("scan", (scan<false><<<groups, WG>>>(in, out)))
  CASE("scan-fixed", (scan<true><<<groups, WG>>>(in, out)))
  CASE("partial-tile", (partial_tile<false><<<groups, WG>>>(in, out, groups * WG - 100)))
  CASE("partial-tile-fixed", (partial_tile<true><<<groups, WG>>>(in, out, groups * WG - 100)))
  CASE("split-barrier", (split_barrier<false><<<groups, WG>>>(in, out)))
  CASE("split-barrier-fixed", (split_barrier<true><<<groups, WG>>>(in, out)))
  CASE("split-lanes", (split_lanes<false><<<groups, WG>>>(in, out)))
  CASE("split-lanes-fixed", (split_lanes<true><<<groups, WG>>>(in, out)))
  CASE("loop-lanes", (loop_lanes<false><<<groups, WG>>>(in, out)))
  CASE("loop-lanes-fixed", (loop_lanes<true><<<groups, WG>>>(in, out)))
  // n - 20: the last wave of the last workgroup keeps only some of its lanes.
  CASE("early-exit-lanes", (early_exit<false><<<groups, WG>>>(in, out, groups * WG - 20)))
  CASE("early-exit", (early_exit<false><<<groups, WG>>>(in, out, groups * WG - 100)))
  CASE("early-exit-fixed", (early_exit<true><<<groups, WG>>>(in, out, groups * WG - 100)))
  fprintf(stderr, "lds_hazards: unknown case '%s'\n", c);
  return 2;
}
