// emulator core test kernel: uses an intrinsic the emulator cannot run (s_getreg of a hardware register).
#include <hip/hip_runtime.h>

extern "C" __global__ void shuffle(int *out) {
  out[threadIdx.x] = (int)__builtin_amdgcn_s_getreg(0xf804) /* HW_ID */;
}
