// Bug: a workgroup publishes a pointer into its __shared__ array through global
// memory, and a later kernel writes through it after that workgroup exited. The
// block went to ldsan's quarantine (poisoned, header intact), so the write is
// reported as lds-use-after-workgroup-exit naming the variable, its kernel and
// the workgroup that owned it.
// RUN: %run %{exe} | FileCheck %s
// RUN: env LDSAN_OPTIONS=emu_fibers=1 %run %{exe} | FileCheck %s
// RUN: %run %{exe:lds-only} | FileCheck %s
// RUN: env LDSAN_OPTIONS=emu_fibers=1 %run %{exe:lds-only} | FileCheck %s
// RUN: %run %{exe:lds-only+wave32} | FileCheck %s
// RUN: env LDSAN_OPTIONS=emu_fibers=1 %run %{exe:lds-only+wave32} | FileCheck %s
// RUN: env LDSAN_OPTIONS=report_format=json %run %{exe} | FileCheck %s --check-prefix=JSON
// RUN: env LDSAN_OPTIONS=report_format=json %run %{exe:lds-only} | FileCheck %s --check-prefix=JSON
// RUN: env LDSAN_OPTIONS=report_format=json %run %{exe:lds-only+wave32} | FileCheck %s --check-prefix=JSON
// CHECK-NOT: ERROR: AddressSanitizer
// CHECK: ERROR: AddressSanitizer: lds-use-after-workgroup-exit on
// CHECK: {{^}}WRITE of size 4 at{{.*}} in kernel poke
// CHECK: {{^0x[0-9a-f]+ }}{{.*}}is located 20 bytes inside of LDS variable 'tile' of size 256
// CHECK: of workgroup (0,0,0) of kernel stash(int**), which has exited
// CHECK: SUMMARY: AddressSanitizer: lds-use-after-workgroup-exit
// CHECK: ldsan-test: exit 1
// JSON-NOT: {"ldsan_report"
// JSON: {"ldsan_report":1,
// JSON-SAME: "type":"lds-use-after-workgroup-exit"
// JSON-SAME: "kernel":"poke
// JSON-SAME: "access":"write","size":4,
#include <hip/hip_runtime.h>
#include <cstdio>

__global__ void stash(int **out) {
  __shared__ int tile[64];
  tile[threadIdx.x] = (int)threadIdx.x;
  __syncthreads();
  if (blockIdx.x == 0 && threadIdx.x == 0) *out = &tile[5];  // escapes the workgroup
}

__global__ void poke(int **p) {
  __shared__ int mine[64];
  mine[threadIdx.x] = 1;
  __syncthreads();
  if (threadIdx.x == 0) **p = mine[1];  // BUG: the workgroup that owned *p has exited
}

int main() {
  int **d = nullptr;
  if (hipMalloc(&d, sizeof *d) != hipSuccess) return 3;
  hipLaunchKernelGGL(stash, dim3(1), dim3(64), 0, 0, d);
  hipDeviceSynchronize();
  hipLaunchKernelGGL(poke, dim3(1), dim3(64), 0, 0, d);
  hipDeviceSynchronize();
  std::printf("done\n");
  return 0;
}
