// Clean: cross-lane operations under divergence, as the exec mask of the
// GPU makes them:
// - an `if` in which half the wave shuffles: the half exchanges among
//   itself; a shuffle from a lane outside the `if` reads 0 (ds_bpermute of a
//   disabled lane, CDNA3 ISA);
// - a ballot inside a branch sees only the lanes in that branch;
// - a loop whose trip count differs per lane, shuffling in every trip, then
//   a ballot after it: the lanes that left the loop early wait where it ends,
//   so the ballot after the loop sees the whole wave again.
// Every result equals a host model of the same exec masks.
// RUN: %run %{exe} | FileCheck %s --implicit-check-not='ERROR: AddressSanitizer' --implicit-check-not='ldsan-emu: error:'
// RUN: env LDSAN_OPTIONS=emu_fibers=1 %run %{exe} | FileCheck %s --implicit-check-not='ERROR: AddressSanitizer' --implicit-check-not='ldsan-emu: error:'
// CHECK: ldsan-test: stdout:
// CHECK: clean_divergent_shuffles: PASSED
// CHECK: ldsan-test: exit 0
// CFLAGS: -O2
#include "common.h"

#define WG 128
#define OUTS 5

__global__ void divergent(const int *in, unsigned long long *out) {
  int t = threadIdx.x, lane = t % 64;
  int v = in[blockIdx.x * WG + t];
  unsigned long long *o = out + (blockIdx.x * WG + t) * OUTS;
  unsigned long long half = 0, from_outside = 0, branch_ballot = 0;
  if (lane < 32) {
    half = (unsigned)__shfl_xor(v, 1);        // partner inside the half
    from_outside = (unsigned)__shfl(v, 40);   // lane 40 does not run this: 0
    branch_ballot = __ballot(v & 1);          // only lanes 0..31 can appear
  }
  int x = v, trips = lane % 5;
  unsigned long long inside = 0;
  for (int k = 0; k < trips; k++) {
    x += __shfl_xor(x, 1);
    inside |= __ballot(1);  // the lanes still in the loop
  }
  unsigned long long after = __ballot(1);
  o[0] = half;
  o[1] = from_outside;
  o[2] = branch_ballot;
  o[3] = (unsigned)x ^ (inside << 20);
  o[4] = after;
}

// Host model: lanes run trip k when k < lane % 5; a shuffle from a lane not
// running that trip reads 0.
static void model(const int *in, unsigned long long *want) {
  for (int w0 = 0; w0 < 2 * WG; w0 += 64) {
    int x[64];
    unsigned long long inside[64] = {0};
    for (int l = 0; l < 64; l++) x[l] = in[w0 + l];
    for (int k = 0; k < 4; k++) {
      unsigned long long active = 0;
      int nx[64];
      for (int l = 0; l < 64; l++)
        if (k < l % 5) active |= 1ull << l;
      for (int l = 0; l < 64; l++) {
        nx[l] = x[l];
        if (active >> l & 1) nx[l] = x[l] + (active >> (l ^ 1) & 1 ? x[l ^ 1] : 0);
      }
      for (int l = 0; l < 64; l++) {
        x[l] = nx[l];
        if (active >> l & 1) inside[l] |= active;
      }
    }
    unsigned long long odd_low = 0;
    for (int l = 0; l < 32; l++)
      if (in[w0 + l] & 1) odd_low |= 1ull << l;
    for (int l = 0; l < 64; l++) {
      unsigned long long *w = want + (size_t)(w0 + l) * OUTS;
      w[0] = l < 32 ? (unsigned)in[w0 + (l ^ 1)] : 0;
      w[1] = 0;
      w[2] = l < 32 ? odd_low : 0;
      w[3] = (unsigned)x[l] ^ (inside[l] << 20);
      w[4] = ~0ull;
    }
  }
}

int main() {
  const int n = 2 * WG;
  static int in[n];
  static unsigned long long out[n * OUTS], want[n * OUTS];
  for (int i = 0; i < n; i++) in[i] = (i * 2654435761u) % 1000;
  model(in, want);
  int *din;
  unsigned long long *dout;
  HIP_CHECK(hipMalloc(&din, sizeof in));
  HIP_CHECK(hipMalloc(&dout, sizeof out));
  HIP_CHECK(hipMemcpy(din, in, sizeof in, hipMemcpyHostToDevice));
  divergent<<<2, WG>>>(din, dout);
  LAUNCH_CHECK();
  HIP_CHECK(hipMemcpy(out, dout, sizeof out, hipMemcpyDeviceToHost));
  for (int i = 0; i < n * OUTS; i++)
    if (out[i] != want[i]) {
      fprintf(stderr, "work-item %d output %d is %#llx, expected %#llx\n", i / OUTS, i % OUTS, out[i], want[i]);
      return 4;
    }
  passed("clean_divergent_shuffles");
  return 0;
}
