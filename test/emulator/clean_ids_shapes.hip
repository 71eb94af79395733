// Clean: work-item ids read after barriers, in workgroups of every shape. A
// one-dimensional workgroup's loops take threadIdx from the loop index
// (LDSAN_EMU_GROUP_ONE_D): (1,64,1), (8,4,2) and (64,4,1) must not, and a tree
// reduction guarded by threadIdx.x < s must sum the same in all of them.
// RUN: %run %{exe} | FileCheck %s --implicit-check-not='ERROR: AddressSanitizer' --implicit-check-not='ldsan-emu: error:'
// RUN: env LDSAN_OPTIONS=emu_fibers=1 %run %{exe} | FileCheck %s --implicit-check-not='ERROR: AddressSanitizer' --implicit-check-not='ldsan-emu: error:'
// CHECK: ldsan-test: stdout:
// CHECK: clean_ids_shapes: PASSED
// CHECK: ldsan-test: exit 0
#include "common.h"
#include <vector>

__global__ void shapes(unsigned *ids, unsigned *sums) {
  __shared__ unsigned buf[256];
  unsigned n = blockDim.x * blockDim.y * blockDim.z;
  unsigned t = threadIdx.x + blockDim.x * (threadIdx.y + blockDim.y * threadIdx.z);
  buf[t] = t + 1;
  __syncthreads();
  for (unsigned s = n / 2; s > 0; s >>= 1) {
    if (t < s) buf[t] += buf[t + s];
    __syncthreads();
  }
  // The ids again, in the region after the last barrier.
  unsigned g = blockIdx.x * n + t;
  ids[3 * g] = threadIdx.x;
  ids[3 * g + 1] = threadIdx.y;
  ids[3 * g + 2] = threadIdx.z;
  if (threadIdx.x == 0 && threadIdx.y == 0 && threadIdx.z == 0) sums[blockIdx.x] = buf[0];
}

static int run(dim3 block, int groups) {
  unsigned n = block.x * block.y * block.z, total = n * groups;
  std::vector<unsigned> ids(3 * total), sums(groups), want_ids(3 * total);
  for (unsigned g = 0; g < (unsigned)groups; g++)
    for (unsigned t = 0; t < n; t++) {
      unsigned *w = &want_ids[3 * (g * n + t)];
      w[0] = t % block.x;
      w[1] = t / block.x % block.y;
      w[2] = t / (block.x * block.y);
    }
  unsigned *dids, *dsums;
  HIP_CHECK(hipMalloc(&dids, ids.size() * sizeof(unsigned)));
  HIP_CHECK(hipMalloc(&dsums, sums.size() * sizeof(unsigned)));
  shapes<<<groups, block>>>(dids, dsums);
  LAUNCH_CHECK();
  HIP_CHECK(hipMemcpy(ids.data(), dids, ids.size() * sizeof(unsigned), hipMemcpyDeviceToHost));
  HIP_CHECK(hipMemcpy(sums.data(), dsums, sums.size() * sizeof(unsigned), hipMemcpyDeviceToHost));
  HIP_CHECK(hipFree(dids));
  HIP_CHECK(hipFree(dsums));
  check_equal("ids", ids.data(), want_ids.data(), (int)ids.size());
  for (int g = 0; g < groups; g++)
    if (sums[g] != n * (n + 1) / 2) {
      fprintf(stderr, "clean_ids_shapes: block (%u,%u,%u) group %d: sum %u, expected %u\n", block.x, block.y, block.z,
              g, sums[g], n * (n + 1) / 2);
      return 1;
    }
  return 0;
}

int main() {
  const dim3 blocks[] = {dim3(256), dim3(64), dim3(1, 64), dim3(8, 4, 2), dim3(64, 4), dim3(2, 1, 32)};
  for (const dim3 &b : blocks)
    if (run(b, 3)) return 1;
  passed("clean_ids_shapes");
  return 0;
}
