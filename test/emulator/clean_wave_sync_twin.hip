// The barrier-correct twin of warn_wave_sync.hip: the same exchange with
// __syncthreads() between the write and the read. Under
// LDSAN_OPTIONS=report_wave_sync=1 there is no warning and the same result.
// RUN: env LDSAN_OPTIONS=report_wave_sync=1 %run %{exe} | FileCheck %s --implicit-check-not='ERROR: AddressSanitizer' --implicit-check-not='ldsan-emu: error:' --implicit-check-not=wave-sync-dependence
// RUN: env LDSAN_OPTIONS=report_wave_sync=1:emu_fibers=1 %run %{exe} | FileCheck %s --implicit-check-not='ERROR: AddressSanitizer' --implicit-check-not='ldsan-emu: error:' --implicit-check-not=wave-sync-dependence
// RUN: env LDSAN_OPTIONS=report_wave_sync=1 %run %{exe:lds-only+wave32} | FileCheck %s --implicit-check-not='ERROR: AddressSanitizer' --implicit-check-not='ldsan-emu: error:' --implicit-check-not=wave-sync-dependence
// RUN: env LDSAN_OPTIONS=report_wave_sync=1:emu_fibers=1 %run %{exe:lds-only+wave32} | FileCheck %s --implicit-check-not='ERROR: AddressSanitizer' --implicit-check-not='ldsan-emu: error:' --implicit-check-not=wave-sync-dependence
// CHECK: ldsan-test: stdout:
// CHECK: clean_wave_sync_twin: PASSED
// CHECK: ldsan-test: exit 0
// RUN: env LDSAN_OPTIONS=report_wave_sync=1 %run %{exe:O0} | FileCheck %s --implicit-check-not='ERROR: AddressSanitizer' --implicit-check-not='ldsan-emu: error:' --implicit-check-not=wave-sync-dependence
#include "common.h"

__global__ void neighbours(const int *in, int *out) {
  __shared__ volatile int slots[128];  // volatile: the kernel still runs its waves in lockstep
  int t = threadIdx.x, base = t & ~63;
  slots[t] = in[blockIdx.x * 128 + t];
  __syncthreads();
  out[blockIdx.x * 128 + t] = slots[base + ((t + 1) & 63)];
}

int main() {
  static int in[256], out[256], want[256];
  for (int i = 0; i < 256; i++) in[i] = i * 3;
  for (int i = 0; i < 256; i++) want[i] = in[(i & ~63) + ((i + 1) & 63)];
  int *din, *dout;
  HIP_CHECK(hipMalloc(&din, sizeof in));
  HIP_CHECK(hipMalloc(&dout, sizeof out));
  HIP_CHECK(hipMemcpy(din, in, sizeof in, hipMemcpyHostToDevice));
  neighbours<<<2, 128>>>(din, dout);
  LAUNCH_CHECK();
  HIP_CHECK(hipMemcpy(out, dout, sizeof out, hipMemcpyDeviceToHost));
  check_equal("neighbours", out, want, 256);
  passed("clean_wave_sync_twin");
  return 0;
}
