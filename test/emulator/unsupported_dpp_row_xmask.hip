// DPP row_xmask (dpp_ctrl 0x160-0x16f) exists from gfx10 on; built for gfx90a
// the emulator refuses it at build time, naming the control, the target and
// where the kernel uses it,
// rather than running a move the GPU would not make (gfx90a has row_newbcast
// at 0x150-0x15f, clean_dpp_row_share.hip).
// RUN: cd %repo && not %ldsan-cc --emulate -O2 test/emulator/unsupported_dpp_row_xmask.hip -o %t 2>&1 | FileCheck %s
// CHECK: error: test/emulator/unsupported_dpp_row_xmask.hip:[[@LINE+6]]: llvm.amdgcn.update.dpp.i32 with dpp_ctrl 0x165 on a 32-bit value is not supported by the CPU emulator for gfx90a:xnack+
// CHECK-SAME: (in function 'xmask(int*)')
#include "common.h"

__global__ void xmask(int *out) {
  int v = (int)threadIdx.x;
  out[threadIdx.x] = __builtin_amdgcn_update_dpp(0, v, 0x165, 0xf, 0xf, false);  // row_xmask:5
}

int main() {
  int *d;
  HIP_CHECK(hipMalloc(&d, 64 * sizeof(int)));
  xmask<<<1, 64>>>(d);
  LAUNCH_CHECK();
  return 0;
}
