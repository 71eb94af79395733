// Clean: cooperative groups as HIP code uses them: a block split into tiles
// of 16 and of 4 with tiled_partition; each tile reduces with shfl_down,
// broadcasts with shfl, ranks its threads (thread_rank), and syncs; the
// block syncs through its group handle. Results equal a host reference.
// RUN: %run %{exe} | FileCheck %s --implicit-check-not='ERROR: AddressSanitizer' --implicit-check-not='ldsan-emu: error:'
// RUN: env LDSAN_OPTIONS=emu_fibers=1 %run %{exe} | FileCheck %s --implicit-check-not='ERROR: AddressSanitizer' --implicit-check-not='ldsan-emu: error:'
// RUN: %run %{exe:lds-only+wave32} | FileCheck %s --implicit-check-not='ERROR: AddressSanitizer' --implicit-check-not='ldsan-emu: error:'
// RUN: env LDSAN_OPTIONS=emu_fibers=1 %run %{exe:lds-only+wave32} | FileCheck %s --implicit-check-not='ERROR: AddressSanitizer' --implicit-check-not='ldsan-emu: error:'
// CHECK: ldsan-test: stdout:
// CHECK: clean_tiled_partition: PASSED
// CHECK: ldsan-test: exit 0
#include "common.h"  // hip_runtime.h first: ROCm 5.2's cooperative groups header needs it
#include <hip/hip_cooperative_groups.h>

namespace cg = cooperative_groups;

#define WG 128

template <unsigned TILE>
__device__ int tile_sum(cg::thread_block_tile<TILE> tile, int v) {
  for (int d = TILE / 2; d > 0; d /= 2) v += tile.shfl_down(v, d);
  return tile.shfl(v, 0);  // every thread of the tile gets the tile's sum
}

__global__ void tiles(const int *in, int *out) {
  cg::thread_block block = cg::this_thread_block();
  __shared__ int partial[WG / 16];
  int t = block.thread_rank();
  int v = in[blockIdx.x * WG + t];
  cg::thread_block_tile<16> t16 = cg::tiled_partition<16>(block);
  cg::thread_block_tile<4> t4 = cg::tiled_partition<4>(block);
  int s16 = tile_sum(t16, v), s4 = tile_sum(t4, v);
  if (t16.thread_rank() == 0) partial[t / 16] = s16;
  t16.sync();
  block.sync();
  int total = 0;
  for (int i = 0; i < WG / 16; i++) total += partial[i];
  int *o = out + (blockIdx.x * WG + t) * 4;
  o[0] = s16;
  o[1] = s4;
  o[2] = (int)t4.thread_rank();
  o[3] = total;
}

int main() {
  const int groups = 3, n = groups * WG;
  static int in[n], out[n * 4], want[n * 4];
  for (int i = 0; i < n; i++) in[i] = (i * 31) % 17 - 8;
  for (int i = 0; i < n; i++) {
    int s16 = 0, s4 = 0, total = 0;
    for (int j = i / 16 * 16; j < i / 16 * 16 + 16; j++) s16 += in[j];
    for (int j = i / 4 * 4; j < i / 4 * 4 + 4; j++) s4 += in[j];
    for (int j = i / WG * WG; j < i / WG * WG + WG; j++) total += in[j];
    want[i * 4] = s16;
    want[i * 4 + 1] = s4;
    want[i * 4 + 2] = i % 4;
    want[i * 4 + 3] = total;
  }
  int *din, *dout;
  HIP_CHECK(hipMalloc(&din, sizeof in));
  HIP_CHECK(hipMalloc(&dout, sizeof out));
  HIP_CHECK(hipMemcpy(din, in, sizeof in, hipMemcpyHostToDevice));
  tiles<<<groups, WG>>>(din, dout);
  LAUNCH_CHECK();
  HIP_CHECK(hipMemcpy(out, dout, sizeof out, hipMemcpyDeviceToHost));
  check_equal("tile results", out, want, n * 4);
  passed("clean_tiled_partition");
  return 0;
}
