// Clean: wave-level code written for any wave size, as portable HIP code is:
// warpSize, __lane_id(), __ballot, __shfl_xor and a __shfl_down reduction per
// wave, the wave's partial sums combined through LDS. Run for a wave64 target
// (the default) and for gfx1100 in the LDS-only mode (wave32),
// the results equal a host reference computed with the device's warpSize
// (hipDeviceProp_t), and the kernel's own warpSize agrees with it.
// RUN: %run %{exe} | FileCheck %s --implicit-check-not='ERROR: AddressSanitizer' --implicit-check-not='ldsan-emu: error:'
// RUN: env LDSAN_OPTIONS=emu_fibers=1 %run %{exe} | FileCheck %s --implicit-check-not='ERROR: AddressSanitizer' --implicit-check-not='ldsan-emu: error:'
// RUN: %run %{exe:lds-only+wave32} | FileCheck %s --check-prefix=WAVE32 --implicit-check-not='ERROR: AddressSanitizer' --implicit-check-not='ldsan-emu: error:'
// RUN: env LDSAN_OPTIONS=emu_fibers=1 %run %{exe:lds-only+wave32} | FileCheck %s --check-prefix=WAVE32 --implicit-check-not='ERROR: AddressSanitizer' --implicit-check-not='ldsan-emu: error:'
// CHECK: ldsan-test: stdout:
// CHECK: warpSize 64 arch gfx90a:xnack+
// CHECK: clean_wave_generic: PASSED
// CHECK: ldsan-test: exit 0
// WAVE32: ldsan-test: stdout:
// WAVE32: warpSize 32 arch gfx1100
// WAVE32: clean_wave_generic: PASSED
// WAVE32: ldsan-test: exit 0
#include <vector>
#include "common.h"

#define WG 256

__global__ void waves(const int *in, int *sums, int *lanes, unsigned long long *odd_masks, int *swapped, int *ws) {
  __shared__ int partial[WG / 32];  // one per wave (32 waves at most per workgroup of 256)
  int t = threadIdx.x, i = blockIdx.x * WG + t, lane = __lane_id(), wave = t / warpSize;
  int v = in[i];
  unsigned long long odd = __ballot(v & 1);
  swapped[i] = __shfl_xor(v, 1);
  lanes[i] = lane;
  for (int d = warpSize / 2; d > 0; d /= 2) v += __shfl_down(v, d);
  if (lane == 0) {
    partial[wave] = v;
    odd_masks[i / warpSize] = odd;
  }
  __syncthreads();
  if (t == 0) {
    int s = 0;
    for (int w = 0; w < WG / warpSize; w++) s += partial[w];
    sums[blockIdx.x] = s;
    if (blockIdx.x == 0) *ws = warpSize;
  }
}

int main() {
  const int groups = 8, n = groups * WG;
  hipDeviceProp_t prop;
  HIP_CHECK(hipGetDeviceProperties(&prop, 0));
  const int W = prop.warpSize;
  std::vector<int> in(n), sums_want(groups, 0), lanes_want(n), swapped_want(n);
  std::vector<unsigned long long> odd_want(n / W, 0);
  for (int i = 0; i < n; i++) {
    in[i] = (i * 37 + 11) % 101;
    sums_want[i / WG] += in[i];
    lanes_want[i] = i % W;
    if (in[i] & 1) odd_want[i / W] |= 1ull << (i % W);
  }
  for (int i = 0; i < n; i++) swapped_want[i] = in[i ^ 1];
  int *din, *dsums, *dlanes, *dswapped, *dws, ws = 0;
  unsigned long long *dodd;
  HIP_CHECK(hipMalloc(&din, n * sizeof(int)));
  HIP_CHECK(hipMalloc(&dsums, groups * sizeof(int)));
  HIP_CHECK(hipMalloc(&dlanes, n * sizeof(int)));
  HIP_CHECK(hipMalloc(&dswapped, n * sizeof(int)));
  HIP_CHECK(hipMalloc(&dws, sizeof(int)));
  HIP_CHECK(hipMalloc(&dodd, n / W * sizeof(unsigned long long)));
  HIP_CHECK(hipMemcpy(din, in.data(), n * sizeof(int), hipMemcpyHostToDevice));
  waves<<<groups, WG>>>(din, dsums, dlanes, dodd, dswapped, dws);
  LAUNCH_CHECK();
  std::vector<int> sums(groups), lanes(n), swapped(n);
  std::vector<unsigned long long> odd(n / W);
  HIP_CHECK(hipMemcpy(sums.data(), dsums, groups * sizeof(int), hipMemcpyDeviceToHost));
  HIP_CHECK(hipMemcpy(lanes.data(), dlanes, n * sizeof(int), hipMemcpyDeviceToHost));
  HIP_CHECK(hipMemcpy(swapped.data(), dswapped, n * sizeof(int), hipMemcpyDeviceToHost));
  HIP_CHECK(hipMemcpy(odd.data(), dodd, n / W * sizeof(unsigned long long), hipMemcpyDeviceToHost));
  HIP_CHECK(hipMemcpy(&ws, dws, sizeof ws, hipMemcpyDeviceToHost));
  if (ws != W) {
    fprintf(stderr, "the kernel's warpSize is %d, the device's %d\n", ws, W);
    return 4;
  }
  check_equal("sums", sums.data(), sums_want.data(), groups);
  check_equal("lanes", lanes.data(), lanes_want.data(), n);
  check_equal("shfl_xor", swapped.data(), swapped_want.data(), n);
  check_equal("ballot", odd.data(), odd_want.data(), n / W);
  printf("warpSize %d arch %s\n", W, prop.gcnArchName);
  printf("clean_wave_generic: PASSED\n");
  return 0;
}
