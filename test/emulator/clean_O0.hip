// Clean, unoptimized (-O0): the device module keeps every function, also the
// device-library ones nothing calls (__ockl_hsa_signal_* use s.sendmsg) and
// the unused ones below, which use an intrinsic the emulator cannot run
// (ds.bpermute). Only code a kernel can reach must be supported: the build must
// succeed and the kernel run correctly. Reached code here: a non-inlined
// helper, functions called through a __device__ function-pointer table
// (a global initializer) and through a pointer chosen in the kernel, ocml math.
// RUN: %run %{exe} | FileCheck %s --implicit-check-not='ERROR: AddressSanitizer' --implicit-check-not='ldsan-emu: error:'
// RUN: env LDSAN_OPTIONS=emu_fibers=1 %run %{exe} | FileCheck %s --implicit-check-not='ERROR: AddressSanitizer' --implicit-check-not='ldsan-emu: error:'
// RUN: %run %{exe:lds-only} | FileCheck %s --implicit-check-not='ERROR: AddressSanitizer' --implicit-check-not='ldsan-emu: error:'
// RUN: env LDSAN_OPTIONS=emu_fibers=1 %run %{exe:lds-only} | FileCheck %s --implicit-check-not='ERROR: AddressSanitizer' --implicit-check-not='ldsan-emu: error:'
// RUN: %run %{exe:lds-only+wave32} | FileCheck %s --implicit-check-not='ERROR: AddressSanitizer' --implicit-check-not='ldsan-emu: error:'
// RUN: env LDSAN_OPTIONS=emu_fibers=1 %run %{exe:lds-only+wave32} | FileCheck %s --implicit-check-not='ERROR: AddressSanitizer' --implicit-check-not='ldsan-emu: error:'
// CHECK: ldsan-test: stdout:
// CHECK: clean_O0: PASSED
// CHECK: ldsan-test: exit 0
// CFLAGS: -O0
#include "common.h"

// Never called: one with a caller (itself never called), one without.
__device__ __noinline__ int unused_shuffle(int v, int lane) { return __builtin_amdgcn_ds_bpermute(lane * 4, v); }
__device__ __noinline__ int unused_caller(int v) { return unused_shuffle(v, 1) + 1; }
__device__ __noinline__ int unused_leaf(int v) { return __builtin_amdgcn_ds_bpermute(0, v) * 2; }

__device__ __noinline__ int twice(int v) { return 2 * v; }
__device__ __noinline__ int plus_one(int v) { return v + 1; }
__device__ __noinline__ int minus_three(int v) { return v - 3; }
__device__ int (*const table[2])(int) = {twice, plus_one};

__device__ __noinline__ void store_root(float *lds, int t) { lds[t] = sqrtf((float)(t * t)); }

__global__ void o0_kernel(int *out, float *roots) {
  __shared__ int sum[64];
  __shared__ float root[64];
  int t = threadIdx.x;
  int (*pick)(int) = t & 1 ? minus_three : twice;
  sum[t] = table[t & 1](t) + pick(t);
  store_root(root, t);
  __syncthreads();
  for (int s = 32; s > 0; s >>= 1) {
    if (t < s) sum[t] += sum[t + s];
    __syncthreads();
  }
  if (t == 0) out[blockIdx.x] = sum[0] + (int)blockIdx.x;
  roots[blockIdx.x * 64 + t] = root[63 - t];
}

int main() {
  const int blocks = 3;
  int got[blocks], want[blocks];
  float roots[blocks * 64], want_roots[blocks * 64];
  int s = 0;
  for (int t = 0; t < 64; t++) s += (t & 1 ? t + 1 : 2 * t) + (t & 1 ? t - 3 : 2 * t);
  for (int b = 0; b < blocks; b++) {
    want[b] = s + b;
    for (int t = 0; t < 64; t++) want_roots[b * 64 + t] = (float)(63 - t);
  }
  int *d;
  float *dr;
  HIP_CHECK(hipMalloc(&d, sizeof got));
  HIP_CHECK(hipMalloc(&dr, sizeof roots));
  o0_kernel<<<blocks, 64>>>(d, dr);
  LAUNCH_CHECK();
  HIP_CHECK(hipMemcpy(got, d, sizeof got, hipMemcpyDeviceToHost));
  HIP_CHECK(hipMemcpy(roots, dr, sizeof roots, hipMemcpyDeviceToHost));
  check_equal("sums", got, want, blocks);
  check_equal("roots", roots, want_roots, blocks * 64);
  passed("clean_O0");
  return 0;
}
