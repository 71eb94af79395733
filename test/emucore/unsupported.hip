// emucore test kernel: uses an intrinsic the emulator cannot run (ds_bpermute).
#include <hip/hip_runtime.h>

extern "C" __global__ void shuffle(int *out) {
  out[threadIdx.x] = __builtin_amdgcn_ds_bpermute((int)(threadIdx.x ^ 1) * 4, (int)threadIdx.x);
}
