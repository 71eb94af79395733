// Clean: DPP moves and ds_swizzle, as wave-level libraries write them.
// A wave's inclusive prefix sum the way LLVM's atomic optimizer builds it
// for gfx9: row_shr 1, 2, 4, 8 with an old value of 0 (the identity), then
// row_bcast15 into rows 1 and 3 (row_mask 0xa) and row_bcast31 into rows 2
// and 3 (row_mask 0xc). Also a quad_perm swap, row_mirror, and ds_swizzle
// in bit-mask mode (swap neighbours; lane 0 of each half-wave to all) and
// quad mode (reverse each quad). Every result equals a host reference
// written from the ISA's definitions.
// RUN: %run %{exe} | FileCheck %s --implicit-check-not='ERROR: AddressSanitizer' --implicit-check-not='ldsan-emu: error:'
// RUN: env LDSAN_OPTIONS=emu_fibers=1 %run %{exe} | FileCheck %s --implicit-check-not='ERROR: AddressSanitizer' --implicit-check-not='ldsan-emu: error:'
// CHECK: ldsan-test: stdout:
// CHECK: clean_dpp_swizzle: PASSED
// CHECK: ldsan-test: exit 0
// CFLAGS: -O2
#include "common.h"

#define WG 128
#define OUTS 6

__device__ int dpp_scan(int v) {
  v += __builtin_amdgcn_update_dpp(0, v, 0x111, 0xf, 0xf, false);  // row_shr:1
  v += __builtin_amdgcn_update_dpp(0, v, 0x112, 0xf, 0xf, false);  // row_shr:2
  v += __builtin_amdgcn_update_dpp(0, v, 0x114, 0xf, 0xf, false);  // row_shr:4
  v += __builtin_amdgcn_update_dpp(0, v, 0x118, 0xf, 0xf, false);  // row_shr:8
  v += __builtin_amdgcn_update_dpp(0, v, 0x142, 0xa, 0xf, false);  // row_bcast:15
  v += __builtin_amdgcn_update_dpp(0, v, 0x143, 0xc, 0xf, false);  // row_bcast:31
  return v;
}

__global__ void lanes(const int *in, int *out) {
  int t = threadIdx.x;
  int v = in[blockIdx.x * WG + t];
  int *o = out + (blockIdx.x * WG + t) * OUTS;
  o[0] = dpp_scan(v);
  o[1] = __builtin_amdgcn_update_dpp(0, v, 0xb1, 0xf, 0xf, false);  // quad_perm [1,0,3,2]
  o[2] = __builtin_amdgcn_update_dpp(0, v, 0x140, 0xf, 0xf, false); // row_mirror
  o[3] = __builtin_amdgcn_ds_swizzle(v, 0x041f);                    // bit mode: xor 1
  o[4] = __builtin_amdgcn_ds_swizzle(v, 0x0000);                    // bit mode: lane 0 of each 32
  o[5] = __builtin_amdgcn_ds_swizzle(v, 0x801b);                    // quad mode: 3,2,1,0
}

int main() {
  const int n = 2 * WG;
  static int in[n], out[n * OUTS], want[n * OUTS];
  for (int i = 0; i < n; i++) in[i] = (i * 37) % 11 - 5;
  for (int i = 0; i < n; i++) {
    int w = i & ~63, l = i & 63, q = i & ~3, prefix = 0;
    for (int j = w; j <= i; j++) prefix += in[j];
    int *x = want + i * OUTS;
    x[0] = prefix;
    x[1] = in[q + ((l & 3) ^ 1)];
    x[2] = in[(i & ~15) + 15 - (l & 15)];
    x[3] = in[i ^ 1];
    x[4] = in[i & ~31];
    x[5] = in[q + 3 - (l & 3)];
  }
  int *din, *dout;
  HIP_CHECK(hipMalloc(&din, sizeof in));
  HIP_CHECK(hipMalloc(&dout, sizeof out));
  HIP_CHECK(hipMemcpy(din, in, sizeof in, hipMemcpyHostToDevice));
  lanes<<<2, WG>>>(din, dout);
  LAUNCH_CHECK();
  HIP_CHECK(hipMemcpy(out, dout, sizeof out, hipMemcpyDeviceToHost));
  for (int i = 0; i < n * OUTS; i++)
    if (out[i] != want[i]) {
      fprintf(stderr, "work-item %d output %d is %d, expected %d\n", i / OUTS, i % OUTS, out[i], want[i]);
      return 4;
    }
  passed("clean_dpp_swizzle");
  return 0;
}
