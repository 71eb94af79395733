// A run-time warning about a code object names it by its source file, not by
// the compile's temporary (the retarget tool's input, /tmp/ldsan-emu-XXXXXX/
// 0-image_name.bc, removed when ldsan-cc --emulate ends). The warning: an LDS
// backing store the host cannot allocate (AddressSanitizer refuses a 2 GiB
// allocation here: max_allocation_size_mb=1024), so the code object falls
// back to its built-in pool and still runs; in the emulator's own ASan build
// too, with the LDS checks reading the built-in pool's poisoned block headers.
// RUN: env LDSAN_OPTIONS=lds_pool_size=2G ASAN_OPTIONS=max_allocation_size_mb=1024:allocator_may_return_null=1 %run %{exe} | FileCheck %s --implicit-check-not=/ldsan-emu-
// RUN: env LDSAN_OPTIONS=lds_pool_size=2G:emu_fibers=1 ASAN_OPTIONS=max_allocation_size_mb=1024:allocator_may_return_null=1 %run %{exe} | FileCheck %s --implicit-check-not=/ldsan-emu-
// RUN: env LDSAN_OPTIONS=lds_pool_size=2G:detect_races=1 ASAN_OPTIONS=max_allocation_size_mb=1024:allocator_may_return_null=1 %run %{exe:sanitized} | FileCheck %s --implicit-check-not=/ldsan-emu-
// CHECK: ldsan: warning: cannot allocate the LDS backing store of 2147483648 bytes on cpu-emulator; {{([^ ]*/)?}}test/emulator/image_name.hip and every other code object there use their built-in
// CHECK: ldsan-test: stdout:
// CHECK: image_name: PASSED
// CHECK: ldsan-test: exit 0
#include "common.h"

__global__ void reverse(int *out) {
  __shared__ int s[64];
  s[threadIdx.x] = threadIdx.x;
  __syncthreads();
  out[threadIdx.x] = s[63 - threadIdx.x];
}

int main() {
  int *d, got[64], want[64];
  for (int i = 0; i < 64; i++) want[i] = 63 - i;
  HIP_CHECK(hipMalloc(&d, sizeof got));
  reverse<<<1, 64>>>(d);
  LAUNCH_CHECK();
  HIP_CHECK(hipMemcpy(got, d, sizeof got, hipMemcpyDeviceToHost));
  check_equal("reversed", got, want, 64);
  passed("image_name");
  return 0;
}
