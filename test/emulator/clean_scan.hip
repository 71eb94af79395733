// Clean: Hillis-Steele inclusive scan of 512 ints per workgroup, double-buffered in LDS.
// RUN: %run %{exe} | FileCheck %s --implicit-check-not='ERROR: AddressSanitizer' --implicit-check-not='ldsan-emu: error:'
// RUN: env LDSAN_OPTIONS=emu_fibers=1 %run %{exe} | FileCheck %s --implicit-check-not='ERROR: AddressSanitizer' --implicit-check-not='ldsan-emu: error:'
// RUN: %run %{exe:lds-only} | FileCheck %s --implicit-check-not='ERROR: AddressSanitizer' --implicit-check-not='ldsan-emu: error:'
// RUN: env LDSAN_OPTIONS=emu_fibers=1 %run %{exe:lds-only} | FileCheck %s --implicit-check-not='ERROR: AddressSanitizer' --implicit-check-not='ldsan-emu: error:'
// RUN: %run %{exe:lds-only+wave32} | FileCheck %s --implicit-check-not='ERROR: AddressSanitizer' --implicit-check-not='ldsan-emu: error:'
// RUN: env LDSAN_OPTIONS=emu_fibers=1 %run %{exe:lds-only+wave32} | FileCheck %s --implicit-check-not='ERROR: AddressSanitizer' --implicit-check-not='ldsan-emu: error:'
// RUN: %run %{exe:sanitized} | FileCheck %s --implicit-check-not='ERROR: AddressSanitizer' --implicit-check-not='ldsan-emu: error:'
// RUN: env LDSAN_OPTIONS=emu_fibers=1 %run %{exe:sanitized} | FileCheck %s --implicit-check-not='ERROR: AddressSanitizer' --implicit-check-not='ldsan-emu: error:'
// CHECK: ldsan-test: stdout:
// CHECK: clean_scan: PASSED
// CHECK: ldsan-test: exit 0
// The LDS checks find no error in it: run-time (detect_races, detect_uninit) and
// compiled in (-fsanitize-lds=races,uninit), in full ASan, LDS-only and LDS-only for gfx1100.
// RUN: env LDSAN_OPTIONS=detect_races=1:detect_uninit=1 %run %{exe} | FileCheck %s --check-prefix=CHECKED --implicit-check-not='ERROR: AddressSanitizer'
// RUN: env LDSAN_OPTIONS=detect_races=1:detect_uninit=1 %run %{exe:lds-only} | FileCheck %s --check-prefix=CHECKED --implicit-check-not='ERROR: AddressSanitizer'
// RUN: env LDSAN_OPTIONS=detect_races=1:detect_uninit=1 %run %{exe:lds-only+wave32} | FileCheck %s --check-prefix=CHECKED --implicit-check-not='ERROR: AddressSanitizer'
// RUN: %run %{exe:checks} | FileCheck %s --check-prefix=CHECKED --implicit-check-not='ERROR: AddressSanitizer'
// RUN: %run %{exe:lds-only+checks} | FileCheck %s --check-prefix=CHECKED --implicit-check-not='ERROR: AddressSanitizer'
// RUN: %run %{exe:lds-only+wave32+checks} | FileCheck %s --check-prefix=CHECKED --implicit-check-not='ERROR: AddressSanitizer'
// CHECKED: ldsan-test: exit 0
#include "common.h"

#define N 512
__global__ void scan(const int *in, int *out) {
  __shared__ int buf[2][N];
  int t = threadIdx.x, base = blockIdx.x * N, cur = 0;
  buf[0][t] = in[base + t];
  __syncthreads();
  for (int off = 1; off < N; off <<= 1) {
    int v = buf[cur][t];
    if (t >= off) v += buf[cur][t - off];
    buf[1 - cur][t] = v;
    cur = 1 - cur;
    __syncthreads();
  }
  out[base + t] = buf[cur][t];
}

int main() {
  const int blocks = 6, total = blocks * N;
  static int h[total], got[total], want[total];
  for (int i = 0; i < total; i++) h[i] = (i * 7) % 11 - 5;
  for (int b = 0; b < blocks; b++)
    for (int i = 0, s = 0; i < N; i++) want[b * N + i] = s += h[b * N + i];
  int *din, *dout;
  HIP_CHECK(hipMalloc(&din, sizeof h));
  HIP_CHECK(hipMalloc(&dout, sizeof h));
  HIP_CHECK(hipMemcpy(din, h, sizeof h, hipMemcpyHostToDevice));
  hipLaunchKernelGGL(scan, dim3(blocks), dim3(N), 0, 0, din, dout);
  LAUNCH_CHECK();
  HIP_CHECK(hipMemcpy(got, dout, sizeof got, hipMemcpyDeviceToHost));
  check_equal("scan", got, want, total);
  passed("clean_scan");
  return 0;
}
