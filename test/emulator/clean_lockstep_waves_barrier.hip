// Clean: the waves of one workgroup at different cross-lane operations and
// at a barrier at the same time, as lockstep work-item loops schedule them:
// wave w runs w + 1 rounds of an xor-shuffle step while the waves that
// finished theirs already wait at __syncthreads (which must not open before
// the last wave's shuffles are done); after it, each wave reads another
// wave's total through LDS and passes it down one lane with __shfl_down.
// Results against a host model of the same steps.
// RUN: %run %{exe} | FileCheck %s --implicit-check-not='ERROR: AddressSanitizer' --implicit-check-not='ldsan-emu: error:'
// RUN: env LDSAN_OPTIONS=emu_fibers=1 %run %{exe} | FileCheck %s --implicit-check-not='ERROR: AddressSanitizer' --implicit-check-not='ldsan-emu: error:'
// CHECK: ldsan-test: stdout:
// CHECK: clean_lockstep_waves_barrier: PASSED
// CHECK: ldsan-test: exit 0
// CFLAGS: -O2
#include "common.h"

#define WG 256
#define WAVES (WG / 64)
#define GROUPS 3

__global__ void staggered(const int *in, int *out) {
  __shared__ int total[WAVES];
  int t = threadIdx.x, lane = t % 64, wave = t / 64;
  int v = in[blockIdx.x * WG + t];
  for (int r = 0; r <= wave; r++) v += __shfl_xor(v, 1 << r);
  if (lane == 0) total[wave] = v;
  __syncthreads();
  int other = total[(wave + 1) % WAVES];
  out[(blockIdx.x * WG + t) * 2] = v;
  out[(blockIdx.x * WG + t) * 2 + 1] = __shfl_down(other + lane, 1);
}

static void model(const int *in, int *want) {
  for (int g = 0; g < GROUPS; g++) {
    int v[WG], total[WAVES];
    for (int t = 0; t < WG; t++) v[t] = in[g * WG + t];
    for (int w = 0; w < WAVES; w++) {
      int *x = v + w * 64;
      for (int r = 0; r <= w; r++) {
        int nx[64];
        for (int l = 0; l < 64; l++) nx[l] = x[l] + x[l ^ (1 << r)];
        for (int l = 0; l < 64; l++) x[l] = nx[l];
      }
      total[w] = x[0];
    }
    for (int t = 0; t < WG; t++) {
      int lane = t % 64, other = total[(t / 64 + 1) % WAVES];
      want[(g * WG + t) * 2] = v[t];
      want[(g * WG + t) * 2 + 1] = other + (lane < 63 ? lane + 1 : lane);  // lane 63: its own value
    }
  }
}

int main() {
  const int n = GROUPS * WG;
  static int in[n], out[2 * n], want[2 * n];
  for (int i = 0; i < n; i++) in[i] = (int)((i * 2654435761u) % 97);
  model(in, want);
  int *din, *dout;
  HIP_CHECK(hipMalloc(&din, sizeof in));
  HIP_CHECK(hipMalloc(&dout, sizeof out));
  HIP_CHECK(hipMemcpy(din, in, sizeof in, hipMemcpyHostToDevice));
  staggered<<<GROUPS, WG>>>(din, dout);
  LAUNCH_CHECK();
  HIP_CHECK(hipMemcpy(out, dout, sizeof out, hipMemcpyDeviceToHost));
  for (int i = 0; i < 2 * n; i++)
    if (out[i] != want[i]) {
      fprintf(stderr, "work-item %d output %d is %d, expected %d\n", i / 2, i % 2, out[i], want[i]);
      return 4;
    }
  passed("clean_lockstep_waves_barrier");
  return 0;
}
