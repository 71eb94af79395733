// Clean: stream compaction with wave votes, as HIP code writes it: each wave
// counts its kept elements with __ballot and __popcll, one lane reserves the
// wave's room with one atomicAdd, __shfl broadcasts the offset, and each
// kept lane finds its slot from the bits of the ballot below it. Also
// __any/__all on the same predicate. The kept values (sorted, since waves
// reserve in any order), the counts and the votes equal a host reference.
// RUN: %run %{exe} | FileCheck %s --implicit-check-not='ERROR: AddressSanitizer' --implicit-check-not='ldsan-emu: error:'
// RUN: env LDSAN_OPTIONS=emu_fibers=1 %run %{exe} | FileCheck %s --implicit-check-not='ERROR: AddressSanitizer' --implicit-check-not='ldsan-emu: error:'
// CHECK: ldsan-test: stdout:
// CHECK: clean_ballot_compaction: PASSED
// CHECK: ldsan-test: exit 0
// CFLAGS: -O2
#include <algorithm>
#include <vector>
#include "common.h"

#define WG 256

__global__ void compact(const int *in, int n, int *out, unsigned *count, int *votes) {
  int i = blockIdx.x * WG + threadIdx.x, lane = threadIdx.x % 64;
  int v = i < n ? in[i] : 0;
  bool keep = i < n && v % 3 == 0;
  unsigned long long mask = __ballot(keep);
  int wave_count = __popcll(mask);
  unsigned base = 0;
  if (lane == 0 && wave_count) base = atomicAdd(count, (unsigned)wave_count);
  base = __shfl((int)base, 0);
  int below = __popcll(mask & ((1ull << lane) - 1));
  if (keep) out[base + below] = v;
  int vote = (__any(keep) ? 1 : 0) | (__all(i < n) ? 2 : 0);  // all lanes vote, then one stores
  if (lane == 0) votes[i / 64] = vote;
}

int main() {
  const int n = 5000, groups = (n + WG - 1) / WG, waves = groups * WG / 64;
  std::vector<int> in(n), want, votes_want(waves);
  for (int i = 0; i < n; i++) in[i] = (i * 7919) % 1000;
  for (int w = 0; w < waves; w++) {
    bool any = false, all = true;
    for (int i = w * 64; i < w * 64 + 64; i++) {
      any |= i < n && in[i] % 3 == 0;
      all &= i < n;
    }
    votes_want[w] = (any ? 1 : 0) | (all ? 2 : 0);
  }
  for (int v : in)
    if (v % 3 == 0) want.push_back(v);
  int *din, *dout, *dvotes;
  unsigned *dcount, count = 0;
  HIP_CHECK(hipMalloc(&din, n * sizeof(int)));
  HIP_CHECK(hipMalloc(&dout, n * sizeof(int)));
  HIP_CHECK(hipMalloc(&dvotes, waves * sizeof(int)));
  HIP_CHECK(hipMalloc(&dcount, sizeof count));
  HIP_CHECK(hipMemcpy(din, in.data(), n * sizeof(int), hipMemcpyHostToDevice));
  HIP_CHECK(hipMemcpy(dcount, &count, sizeof count, hipMemcpyHostToDevice));
  compact<<<groups, WG>>>(din, n, dout, dcount, dvotes);
  LAUNCH_CHECK();
  HIP_CHECK(hipMemcpy(&count, dcount, sizeof count, hipMemcpyDeviceToHost));
  if (count != want.size()) {
    fprintf(stderr, "kept %u elements, expected %zu\n", count, want.size());
    return 4;
  }
  std::vector<int> out(count), votes(waves);
  HIP_CHECK(hipMemcpy(out.data(), dout, count * sizeof(int), hipMemcpyDeviceToHost));
  HIP_CHECK(hipMemcpy(votes.data(), dvotes, waves * sizeof(int), hipMemcpyDeviceToHost));
  std::sort(out.begin(), out.end());
  std::sort(want.begin(), want.end());
  check_equal("kept values", out.data(), want.data(), count);
  check_equal("votes", votes.data(), votes_want.data(), waves);
  passed("clean_ballot_compaction");
  return 0;
}
