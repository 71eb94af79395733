// A sanitized kernel asks for no dynamic stack: the 1 KiB probe kernel's code
// object says .amdhsa_uses_dynamic_stack 0 with a fixed stack of 0 bytes, so
// the HIP runtime gives its dispatches no scratch (with the flag set it sizes
// each dispatch's scratch at its default stack, 1 KiB per lane). The plugin
// marks every function that cannot recurse norecurse (instrument/Runtime.cpp);
// a kernel that does recurse keeps the flag.
// RUN: %ldsan-cc -O2 --offload-arch=gfx90a:xnack+ --offload-device-only -S %s -o - | FileCheck %s
// RUN: %ldsan-cc -O2 --offload-arch=gfx942:xnack+ --offload-device-only -S %s -o - | FileCheck %s
// RUN: %ldsan-cc -O2 -fsanitize=lds --offload-arch=gfx90a --offload-device-only -S %s -o - | FileCheck %s
// RUN: %ldsan-cc -O2 -fsanitize=lds --offload-arch=gfx1100 --offload-device-only -S %s -o - | FileCheck %s
// CHECK-LABEL: .amdhsa_kernel _Z5probePi
// CHECK: .amdhsa_private_segment_fixed_size 0
// CHECK: .amdhsa_uses_dynamic_stack 0
// CHECK-LABEL: .amdhsa_kernel _Z7recursePii
// CHECK: .amdhsa_uses_dynamic_stack 1
#include <hip/hip_runtime.h>

__global__ void probe(int *out) {
  __shared__ int tile[256];
  tile[threadIdx.x] = (int)threadIdx.x;
  __syncthreads();
  out[threadIdx.x] = tile[255 - threadIdx.x];
}

__device__ __noinline__ int fib(int n) { return n < 2 ? n : fib(n - 1) + fib(n - 2); }

__global__ void recurse(int *out, int n) {
  __shared__ int tile[64];
  tile[threadIdx.x % 64] = fib(n);
  __syncthreads();
  out[threadIdx.x] = tile[63 - threadIdx.x % 64];
}
