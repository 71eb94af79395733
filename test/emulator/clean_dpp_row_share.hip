// Clean: the DPP controls gfx9's table lacks, run on the target that has
// them: row_newbcast:N on gfx90a (0x150 + N) and row_share:N on RDNA (the
// same encoding), "every lane of a row reads lane N of its row"; row_xmask:M
// on RDNA (0x160 + M), "lane n reads lane (n & 15) ^ M of its row" (LLVM's
// AMDGPUModifierSyntax.rst). A row maximum built from them, as a
// wave-level library would, and each control alone; every result equals a
// host reference. Its RUN lines run it for gfx90a and, LDS-only, for
// gfx1100 (wave32).
// RUN: %run %{exe} | FileCheck %s --implicit-check-not='ERROR: AddressSanitizer' --implicit-check-not='ldsan-emu: error:'
// RUN: env LDSAN_OPTIONS=emu_fibers=1 %run %{exe} | FileCheck %s --implicit-check-not='ERROR: AddressSanitizer' --implicit-check-not='ldsan-emu: error:'
// RUN: %run %{exe:lds-only+wave32} | FileCheck %s --implicit-check-not='ERROR: AddressSanitizer' --implicit-check-not='ldsan-emu: error:'
// RUN: env LDSAN_OPTIONS=emu_fibers=1 %run %{exe:lds-only+wave32} | FileCheck %s --implicit-check-not='ERROR: AddressSanitizer' --implicit-check-not='ldsan-emu: error:'
// CHECK: ldsan-test: stdout:
// CHECK: clean_dpp_row_share: PASSED
// CHECK: ldsan-test: exit 0
// CFLAGS: -O2
#include "common.h"

#include <string.h>

#define WG 128
#define OUTS 3

#if defined(__gfx1010__) || defined(__gfx1030__) || defined(__gfx1100__) || defined(__gfx1101__) || \
    defined(__gfx1102__) || defined(__gfx1200__) || defined(__gfx1201__)
#define RDNA 1
#endif

// A maximum over each row of 16 lanes, in every lane of the row: of the
// whole row in four xmask steps on RDNA; on gfx90a of the row's lanes 1-15
// (row_newbcast:1-15), fetched one lane at a time.
__device__ int row_max(int v) {
#ifdef RDNA
  v = max(v, __builtin_amdgcn_update_dpp(0, v, 0x161, 0xf, 0xf, false));  // row_xmask:1
  v = max(v, __builtin_amdgcn_update_dpp(0, v, 0x162, 0xf, 0xf, false));  // row_xmask:2
  v = max(v, __builtin_amdgcn_update_dpp(0, v, 0x164, 0xf, 0xf, false));  // row_xmask:4
  v = max(v, __builtin_amdgcn_update_dpp(0, v, 0x168, 0xf, 0xf, false));  // row_xmask:8
  return v;
#else
  int m = __builtin_amdgcn_update_dpp(0, v, 0x151, 0xf, 0xf, false);  // row_newbcast:1
#define NEWBCAST(k) m = max(m, __builtin_amdgcn_update_dpp(0, v, 0x150 + k, 0xf, 0xf, false))
  NEWBCAST(2); NEWBCAST(3); NEWBCAST(4); NEWBCAST(5); NEWBCAST(6); NEWBCAST(7); NEWBCAST(8);
  NEWBCAST(9); NEWBCAST(10); NEWBCAST(11); NEWBCAST(12); NEWBCAST(13); NEWBCAST(14); NEWBCAST(15);
#undef NEWBCAST
  return m;
#endif
}

__global__ void lanes(const int *in, int *out) {
  int t = threadIdx.x;
  int v = in[blockIdx.x * WG + t];
  int *o = out + (blockIdx.x * WG + t) * OUTS;
  o[0] = __builtin_amdgcn_update_dpp(0, v, 0x156, 0xf, 0xf, false);  // row_newbcast:6 / row_share:6
  o[1] = row_max(v);
#ifdef RDNA
  o[2] = __builtin_amdgcn_update_dpp(0, v, 0x16b, 0xf, 0xf, false);  // row_xmask:11
#else
  o[2] = __builtin_amdgcn_update_dpp(0, v, 0x15f, 0xf, 0xf, false);  // row_newbcast:15
#endif
}

int main() {
  hipDeviceProp_t prop;
  HIP_CHECK(hipGetDeviceProperties(&prop, 0));
  int rdna = strncmp(prop.gcnArchName, "gfx1", 4) == 0;
  const int n = 2 * WG;
  static int in[n], out[n * OUTS], want[n * OUTS];
  for (int i = 0; i < n; i++) in[i] = (i * 37) % 101 - 50;
  for (int i = 0; i < n; i++) {
    int row = i & ~15, l = i & 15, m = in[row + 1];
    for (int j = rdna ? row : row + 1; j < row + 16; j++) m = in[j] > m ? in[j] : m;
    int *x = want + i * OUTS;
    x[0] = in[row + 6];
    x[1] = m;
    x[2] = rdna ? in[row + (l ^ 11)] : in[row + 15];
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
      fprintf(stderr, "%s: work-item %d output %d is %d, expected %d\n", prop.gcnArchName, i / OUTS, i % OUTS, out[i],
              want[i]);
      return 4;
    }
  passed("clean_dpp_row_share");
  return 0;
}
