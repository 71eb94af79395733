// Clean: 1-D 7-point stencil with the halo (radius 3) staged in LDS.
// RUN: %run %{exe} | FileCheck %s --implicit-check-not='ERROR: AddressSanitizer' --implicit-check-not='ldsan-emu: error:'
// RUN: env LDSAN_OPTIONS=emu_fibers=1 %run %{exe} | FileCheck %s --implicit-check-not='ERROR: AddressSanitizer' --implicit-check-not='ldsan-emu: error:'
// RUN: %run %{exe:lds-only+wave32} | FileCheck %s --implicit-check-not='ERROR: AddressSanitizer' --implicit-check-not='ldsan-emu: error:'
// RUN: env LDSAN_OPTIONS=emu_fibers=1 %run %{exe:lds-only+wave32} | FileCheck %s --implicit-check-not='ERROR: AddressSanitizer' --implicit-check-not='ldsan-emu: error:'
// CHECK: ldsan-test: stdout:
// CHECK: clean_stencil: PASSED
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

#define R 3
#define B 128
__global__ void stencil(const float *in, float *out, int n) {
  __shared__ float s[B + 2 * R];
  int g = blockIdx.x * B + threadIdx.x, l = threadIdx.x + R;
  s[l] = g < n ? in[g] : 0;
  if (threadIdx.x < R) {
    s[l - R] = g - R >= 0 ? in[g - R] : 0;
    s[l + B] = g + B < n ? in[g + B] : 0;
  }
  __syncthreads();
  float acc = 0;
  for (int o = -R; o <= R; o++) acc += (float)(R + 1 - abs(o)) * s[l + o];
  if (g < n) out[g] = acc;
}

int main() {
  const int n = 1000;
  static float in[n], out[n], want[n];
  for (int i = 0; i < n; i++) in[i] = (float)((i * 37) % 23);
  for (int i = 0; i < n; i++) {
    float acc = 0;
    for (int o = -R; o <= R; o++) acc += (float)(R + 1 - abs(o)) * (i + o >= 0 && i + o < n ? in[i + o] : 0);
    want[i] = acc;
  }
  float *din, *dout;
  HIP_CHECK(hipMalloc(&din, sizeof in));
  HIP_CHECK(hipMalloc(&dout, sizeof out));
  HIP_CHECK(hipMemcpy(din, in, sizeof in, hipMemcpyHostToDevice));
  stencil<<<(n + B - 1) / B, B>>>(din, dout, n);
  LAUNCH_CHECK();
  HIP_CHECK(hipMemcpy(out, dout, sizeof out, hipMemcpyDeviceToHost));
  check_equal("stencil", out, want, n, 1e-6);
  passed("clean_stencil");
  return 0;
}
