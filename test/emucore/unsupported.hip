// emucore test kernel: uses an intrinsic the emulator cannot run (ds_swizzle).
#include <hip/hip_runtime.h>

extern "C" __global__ void shuffle(int *out) {
  out[threadIdx.x] = __builtin_amdgcn_ds_swizzle((int)threadIdx.x, 0x401f);
}
