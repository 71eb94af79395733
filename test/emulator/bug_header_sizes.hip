// Bug: in recover mode (halt_on_error=0) work-item 0 of every workgroup writes
// 56 and 72 bytes before its __shared__ array, into ldsan's block header: the
// chunk and block sizes, as if 1 TiB. Each underflow is reported, then happens.
// The workgroup's exit must not trust those sizes (it once poisoned shadow by
// them: terabytes, the process grew until the OOM killer took it, nothing
// printed): it gives the block back by the size the pool handed out, says the
// header was overwritten, and the program goes on.
// RUN: env LDSAN_OPTIONS=halt_on_error=0 %run %{exe} | FileCheck %s
// RUN: env LDSAN_OPTIONS=halt_on_error=0:emu_fibers=1 %run %{exe} | FileCheck %s
// RUN: env LDSAN_OPTIONS=halt_on_error=0 %run %{exe:lds-only} | FileCheck %s
// One report per workgroup that wrote over its own header, no more: the chunks
// go back repaired, and the workgroups that reuse them have nothing to say.
// RUN: env LDSAN_OPTIONS=halt_on_error=0:dedup=0:report_limit=0 %run %{exe} | FileCheck %s --check-prefix=EACH
// EACH-COUNT-64: ERROR: AddressSanitizer: lds-block-header-corrupted
// EACH-NOT: ERROR: AddressSanitizer: lds-block-header-corrupted
// CHECK: ERROR: AddressSanitizer: lds-buffer-underflow on
// CHECK: in the LDS of kernel sizes(long*, int)
// CHECK: ERROR: AddressSanitizer: lds-block-header-corrupted on address
// CHECK-NEXT: the header of LDS block 0x{{[0-9a-f]+}} of kernel sizes(long*, int) was overwritten: its sizes no longer match its chunk of {{[0-9]+}} bytes
// CHECK-NEXT: by thread (work-item) (0,0,0) lane 0 of workgroup
// CHECK: HINT: the header sits in the 64 bytes before the kernel's first LDS variable
// CHECK: ldsan-test: stdout:
// CHECK-NEXT: sizes: the program went on, out 63
// CHECK-NEXT: ldsan-test: exit 0
#include <hip/hip_runtime.h>
#include <cstdio>

__global__ void sizes(long *out, int i) {
  __shared__ long tile[64];
  tile[threadIdx.x] = threadIdx.x;
  __syncthreads();
  if (threadIdx.x == 0) {
    tile[i] = 1L << 40;      // BUG: i = -7, the header's chunk_size
    tile[i - 2] = 1L << 40;  // BUG: i - 2 = -9, its block_size
  }
  __syncthreads();
  if (blockIdx.x == 0 && threadIdx.x == 0) out[0] = tile[63];
}

int main() {
  long *out = nullptr, host = 0;
  if (hipMalloc(&out, sizeof(long)) != hipSuccess) return 3;
  hipLaunchKernelGGL(sizes, dim3(64), dim3(64), 0, 0, out, -7);
  hipDeviceSynchronize();
  hipMemcpy(&host, out, sizeof host, hipMemcpyDeviceToHost);
  std::printf("sizes: the program went on, out %ld\n", host);
  return 0;
}
