// Clean: several LDS variables of odd sizes and alignments, each filled to its
// last byte and read back by another work-item.
// RUN: %run %{exe} | FileCheck %s --implicit-check-not='ERROR: AddressSanitizer' --implicit-check-not='ldsan-emu: error:'
// RUN: env LDSAN_OPTIONS=emu_fibers=1 %run %{exe} | FileCheck %s --implicit-check-not='ERROR: AddressSanitizer' --implicit-check-not='ldsan-emu: error:'
// RUN: %run %{exe:lds-only+wave32} | FileCheck %s --implicit-check-not='ERROR: AddressSanitizer' --implicit-check-not='ldsan-emu: error:'
// RUN: env LDSAN_OPTIONS=emu_fibers=1 %run %{exe:lds-only+wave32} | FileCheck %s --implicit-check-not='ERROR: AddressSanitizer' --implicit-check-not='ldsan-emu: error:'
// CHECK: ldsan-test: stdout:
// CHECK: clean_odd_vars: PASSED
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

struct rgb { unsigned char r, g, b; };
__global__ void odd(int *out) {
  __shared__ char c3[3];
  __shared__ short s7[7];
  __shared__ double d5[5];
  __shared__ rgb p11[11];
  __shared__ char one[1];
  __shared__ int i33[33];
  int t = threadIdx.x;
  if (t < 3) c3[t] = (char)(t + 1);
  if (t < 7) s7[t] = (short)(t * 100);
  if (t < 5) d5[t] = t * 0.5;
  if (t < 11) p11[t] = rgb{(unsigned char)t, (unsigned char)(2 * t), (unsigned char)(3 * t)};
  if (t == 0) one[0] = 42;
  if (t < 33) i33[t] = t * t;
  __syncthreads();
  int u = 32 - t;  // read what another work-item wrote
  int v = i33[u];
  if (u < 3) v += c3[u];
  if (u < 7) v += s7[u];
  if (u < 5) v += (int)(d5[u] * 2);
  if (u < 11) v += p11[u].r + p11[u].g + p11[u].b;
  out[t] = v + one[0];
}

int main() {
  int got[33], want[33];
  for (int t = 0; t < 33; t++) {
    int u = 32 - t, v = u * u;
    if (u < 3) v += u + 1;
    if (u < 7) v += u * 100;
    if (u < 5) v += u;
    if (u < 11) v += 6 * u;
    want[t] = v + 42;
  }
  int *d;
  HIP_CHECK(hipMalloc(&d, sizeof got));
  odd<<<3, 33>>>(d);
  LAUNCH_CHECK();
  HIP_CHECK(hipMemcpy(got, d, sizeof got, hipMemcpyDeviceToHost));
  check_equal("odd", got, want, 33);
  passed("clean_odd_vars");
  return 0;
}
