// Clean: a cooperative kernel with grid-wide barriers, as HIP code writes
// it: the grid is sized with hipOccupancyMaxActiveBlocksPerMultiprocessor x
// multiProcessorCount and launched with hipLaunchCooperativeKernel; each
// workgroup sums its slice through LDS and publishes it, grid.sync(), then
// every workgroup reads all the partial sums (of the other workgroups too)
// for the total, grid.sync() again, and a second round reuses the buffer.
// Results equal a host reference. A grid larger than the device can hold
// fails with hipErrorCooperativeLaunchTooLarge, as on a GPU.
// RUN: %run %{exe} | FileCheck %s --implicit-check-not='ERROR: AddressSanitizer'
// RUN: env LDSAN_OPTIONS=emu_fibers=1 %run %{exe} | FileCheck %s --implicit-check-not='ERROR: AddressSanitizer'
// RUN: %run %{exe:lds-only+wave32} | FileCheck %s --implicit-check-not='ERROR: AddressSanitizer'
// RUN: env LDSAN_OPTIONS=emu_fibers=1 %run %{exe:lds-only+wave32} | FileCheck %s --implicit-check-not='ERROR: AddressSanitizer'
// CHECK-NOT: ldsan-emu: error:
// CHECK: ldsan-emu: error:{{.*}}does not fit the emulated device
// CHECK: ldsan-test: stdout:
// CHECK: clean_grid_sync: PASSED
// CHECK: ldsan-test: exit 0
#include "common.h"  // hip_runtime.h first: ROCm 5.2's cooperative groups header needs it
#include <hip/hip_cooperative_groups.h>
#include <vector>

namespace cg = cooperative_groups;

#define WG 128

__global__ void two_rounds(const int *in, int *partial, int *out, int n_per_group) {
  cg::grid_group grid = cg::this_grid();
  __shared__ int sums[WG];
  int t = threadIdx.x, g = blockIdx.x, groups = gridDim.x;
  for (int round = 0; round < 2; round++) {
    int s = 0;
    for (int i = t; i < n_per_group; i += WG) s += in[g * n_per_group + i] * (round + 1);
    sums[t] = s;
    __syncthreads();
    for (int k = WG / 2; k > 0; k /= 2) {
      if (t < k) sums[t] += sums[t + k];
      __syncthreads();
    }
    if (t == 0) partial[g] = sums[0];
    grid.sync();  // every workgroup's partial sum is visible
    int total = 0;
    for (int j = 0; j < groups; j++) total += partial[j];
    if (t == 0) out[round * groups + g] = total;
    grid.sync();  // nobody overwrites partial[] before everybody read it
  }
}

int main() {
  int per_cu = 0, cus = 0, coop = 0;
  HIP_CHECK(hipOccupancyMaxActiveBlocksPerMultiprocessor(&per_cu, two_rounds, WG, 0));
  HIP_CHECK(hipDeviceGetAttribute(&cus, hipDeviceAttributeMultiprocessorCount, 0));
  HIP_CHECK(hipDeviceGetAttribute(&coop, hipDeviceAttributeCooperativeLaunch, 0));
  if (!coop) { fprintf(stderr, "device says it cannot launch cooperative kernels\n"); return 4; }
  const int groups = per_cu * cus, n_per_group = 1000, n = groups * n_per_group;
  std::vector<int> in(n), out(2 * groups), want(2 * groups);
  long long total = 0;
  for (int i = 0; i < n; i++) total += in[i] = i % 13 - 6;
  for (int r = 0; r < 2; r++)
    for (int g = 0; g < groups; g++) want[r * groups + g] = (int)(total * (r + 1));
  int *din, *dpartial, *dout;
  HIP_CHECK(hipMalloc(&din, n * sizeof(int)));
  HIP_CHECK(hipMalloc(&dpartial, groups * sizeof(int)));
  HIP_CHECK(hipMalloc(&dout, 2 * groups * sizeof(int)));
  HIP_CHECK(hipMemcpy(din, in.data(), n * sizeof(int), hipMemcpyHostToDevice));
  int npg = n_per_group;
  void *args[] = {&din, &dpartial, &dout, &npg};
  HIP_CHECK(hipLaunchCooperativeKernel((const void *)two_rounds, dim3(groups), dim3(WG), args, 0, 0));
  HIP_CHECK(hipDeviceSynchronize());
  HIP_CHECK(hipMemcpy(out.data(), dout, 2 * groups * sizeof(int), hipMemcpyDeviceToHost));
  check_equal("totals", out.data(), want.data(), 2 * groups);
  hipError_t e = hipLaunchCooperativeKernel((const void *)two_rounds, dim3(groups + 1), dim3(WG), args, 0, 0);
  if (e != hipErrorCooperativeLaunchTooLarge) {
    fprintf(stderr, "a grid of %d workgroups launched cooperatively: %s, expected hipErrorCooperativeLaunchTooLarge\n",
            groups + 1, hipGetErrorName(e));
    return 4;
  }
  (void)hipGetLastError();
  printf("%d workgroups in one cooperative grid\n", groups);
  passed("clean_grid_sync");
  return 0;
}
