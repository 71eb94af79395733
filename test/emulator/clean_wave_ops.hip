// Wave-level operations (ballot, shuffle-down reduction) across two 64-wide
// waves per workgroup, unoptimized (the build's default here): every lane's
// sum and each wave's ballot equal a host reference.
// RUN: %run %{exe} | FileCheck %s --implicit-check-not='ERROR: AddressSanitizer' --implicit-check-not='ldsan-emu: error:'
// RUN: env LDSAN_OPTIONS=emu_fibers=1 %run %{exe} | FileCheck %s --implicit-check-not='ERROR: AddressSanitizer' --implicit-check-not='ldsan-emu: error:'
// RUN: %run %{exe:lds-only} | FileCheck %s --implicit-check-not='ERROR: AddressSanitizer' --implicit-check-not='ldsan-emu: error:'
// RUN: env LDSAN_OPTIONS=emu_fibers=1 %run %{exe:lds-only} | FileCheck %s --implicit-check-not='ERROR: AddressSanitizer' --implicit-check-not='ldsan-emu: error:'
// CHECK: ldsan-test: exit 0
#include "common.h"

__global__ void wave_ops(const int *in, int *sums, unsigned long long *masks) {
  __shared__ int wave_sum[2];
  int t = threadIdx.x, v = in[blockIdx.x * 128 + t];
  unsigned long long odd = __ballot(v & 1);
  for (int off = 32; off > 0; off >>= 1) v += __shfl_down(v, off);
  if (t % 64 == 0) {
    wave_sum[t / 64] = v;
    masks[blockIdx.x * 2 + t / 64] = odd;
  }
  __syncthreads();
  if (t == 0) sums[blockIdx.x] = wave_sum[0] + wave_sum[1];
}

int main() {
  const int blocks = 4;
  static int in[blocks * 128];
  int sums[blocks], want_sums[blocks] = {0};
  unsigned long long masks[blocks * 2], want_masks[blocks * 2] = {0};
  for (int i = 0; i < blocks * 128; i++) {
    in[i] = (i * 7919) % 101;
    want_sums[i / 128] += in[i];
    if (in[i] & 1) want_masks[i / 64] |= 1ull << (i % 64);
  }
  int *din, *dsums;
  unsigned long long *dmasks;
  HIP_CHECK(hipMalloc(&din, sizeof in));
  HIP_CHECK(hipMalloc(&dsums, sizeof sums));
  HIP_CHECK(hipMalloc(&dmasks, sizeof masks));
  HIP_CHECK(hipMemcpy(din, in, sizeof in, hipMemcpyHostToDevice));
  wave_ops<<<blocks, 128>>>(din, dsums, dmasks);
  LAUNCH_CHECK();
  HIP_CHECK(hipMemcpy(sums, dsums, sizeof sums, hipMemcpyDeviceToHost));
  HIP_CHECK(hipMemcpy(masks, dmasks, sizeof masks, hipMemcpyDeviceToHost));
  check_equal("sums", sums, want_sums, blocks);
  for (int i = 0; i < blocks * 2; i++)
    if (masks[i] != want_masks[i]) {
      fprintf(stderr, "ballot of wave %d is %#llx, expected %#llx\n", i, masks[i], want_masks[i]);
      return 4;
    }
  passed("clean_wave_ops");
  return 0;
}
