// A kernel that works only because a wave's lanes run in lockstep: each
// lane writes its LDS slot and at once reads its neighbour's, with no
// barrier between. Under LDSAN_OPTIONS=report_wave_sync=1 the result is still
// the GPU's and a warning names the variable, both lanes and both lines; its
// barrier-correct twin, clean_wave_sync_twin.hip, gets none.
// RUN: env LDSAN_OPTIONS=report_wave_sync=1 %run %{exe} | FileCheck %s --implicit-check-not='ERROR: AddressSanitizer' --implicit-check-not='ldsan-emu: error:'
// RUN: env LDSAN_OPTIONS=report_wave_sync=1:emu_fibers=1 %run %{exe} | FileCheck %s --implicit-check-not='ERROR: AddressSanitizer' --implicit-check-not='ldsan-emu: error:'
// CHECK: WARNING: ldsan: wave-sync-dependence in kernel neighbours(int const*, int*): lane 0 reads LDS that lane 1 of its wave wrote, with no barrier or wave barrier between
// CHECK: ldsan-test: stdout:
// CHECK: warn_wave_sync: PASSED
// CHECK: ldsan-test: exit 0
// The warning field by field, unoptimized: one per pair of lines.
// RUN: env LDSAN_OPTIONS=report_wave_sync=1 %run %{exe:O0} | FileCheck %s --check-prefix=FIELDS
// FIELDS: WARNING: ldsan: wave-sync-dependence in kernel neighbours(int const*, int*): lane 0 reads LDS that lane 1 of its wave wrote
// FIELDS-NEXT: READ of size 4 at
// FIELDS-NEXT: in neighbours(int const*, int*) test/emulator/warn_wave_sync.hip:[[@LINE+18]]
// FIELDS-NEXT: previous WRITE of size 4 at
// FIELDS-NEXT: in neighbours(int const*, int*) test/emulator/warn_wave_sync.hip:[[@LINE+15]]
// FIELDS: inside of LDS variable 'slots' of size 512
// FIELDS: SUMMARY: ldsan: wave-sync-dependence test/emulator/warn_wave_sync.hip:[[@LINE+14]]
// FIELDS-NOT: wave-sync-dependence
// FIELDS: ldsan-test: stdout:
// FIELDS-NEXT: warn_wave_sync: PASSED
// FIELDS-NEXT: ldsan-test: exit 0
// Nothing without the option.
// RUN: %run %{exe:O0} | FileCheck %s --check-prefix=FIELDS-OFF --implicit-check-not=wave-sync-dependence
// FIELDS-OFF: ldsan-test: exit 0
#include "common.h"

__global__ void neighbours(const int *in, int *out) {
  __shared__ int slots[128];
  int t = threadIdx.x, base = t & ~63;
  slots[t] = in[blockIdx.x * 128 + t];
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
  passed("warn_wave_sync");
  return 0;
}
