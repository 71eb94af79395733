// Lanes 0 and 63 of a wave read a shared total, then lane 63 resets it with
// no barrier between: the reset races with lane 0's read (line 24 writes,
// line 22 reads). The lanes run in lockstep (the shuffle), and lane 63, the
// last to reach the read, reads first: the writer is the interval's first
// reader, so the checks must keep a second reader or the race hides (it did
// before they kept one), also when that reader was the second reader of the
// interval before (line 20). Within one wave: a warning, exit 0.
// RUN: env LDSAN_OPTIONS=detect_races=1 %run %{exe} | FileCheck %s --implicit-check-not='ERROR: AddressSanitizer' --implicit-check-not='ldsan-emu: error:'
// RUN: env LDSAN_OPTIONS=detect_races=1:emu_fibers=1 %run %{exe} | FileCheck %s --implicit-check-not='ERROR: AddressSanitizer' --implicit-check-not='ldsan-emu: error:'
// CHECK: WARNING: ldsan: lds-data-race in kernel share_then_reset(int const*, int*): write-after-read
// CHECK: ldsan-test: stdout:
// CHECK: warn_race_reader_writes: PASSED
// CHECK: ldsan-test: exit 0
#include "common.h"

__global__ void share_then_reset(const int *in, int *out) {
  __shared__ int total;
  int t = threadIdx.x;
  bool reader = t == 0 || t == 63;
  if (t == 0) total = in[blockIdx.x];
  __syncthreads();
  int first = reader ? total : 0;  // an earlier interval: the same two readers
  __syncthreads();
  int v = reader ? total : t;
  v += __shfl_xor(v, 1);
  if (t == 63) total = 0;
  out[blockIdx.x * 64 + t] = v + first;
}

int main() {
  static int in[2] = {5, 7}, out[128];
  int *din, *dout;
  HIP_CHECK(hipMalloc(&din, sizeof in));
  HIP_CHECK(hipMalloc(&dout, sizeof out));
  HIP_CHECK(hipMemcpy(din, in, sizeof in, hipMemcpyHostToDevice));
  share_then_reset<<<2, 64>>>(din, dout);
  LAUNCH_CHECK();
  HIP_CHECK(hipMemcpy(out, dout, sizeof out, hipMemcpyDeviceToHost));
  for (int g = 0; g < 2; g++)
    for (int t = 0; t < 64; t++)
      if (out[g * 64 + t] != (t == 0 || t == 63 ? in[g] : t) + (t == 1 || t == 62 ? in[g] : t ^ 1) +
                                  (t == 0 || t == 63 ? in[g] : 0)) {
        printf("warn_race_reader_writes: out[%d] = %d\n", g * 64 + t, out[g * 64 + t]);
        return 1;
      }
  printf("warn_race_reader_writes: PASSED\n");
  return 0;
}
