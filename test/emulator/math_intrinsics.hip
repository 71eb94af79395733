// The amdgcn math intrinsics the emulator implements for the device libraries,
// called directly through clang's builtins, against their CDNA ISA definitions
// (exact expected values): v_trig_preop_f64 (53-bit pieces of 2/pi, with the
// exponent shift and the 2^128 rescale of huge arguments), the f16 class, frexp,
// fract, rsq and sqrt, v_fract_f32 at -tiny, inf and NaN, v_dot2_f32_f16 with
// and without clamp.
// RUN: %run %{exe} | FileCheck %s --implicit-check-not='ERROR: AddressSanitizer' --implicit-check-not='ldsan-emu: error:'
// RUN: env LDSAN_OPTIONS=emu_fibers=1 %run %{exe} | FileCheck %s --implicit-check-not='ERROR: AddressSanitizer' --implicit-check-not='ldsan-emu: error:'
// CHECK: ldsan-test: stdout:
// CHECK: math_intrinsics: all 36 checks passed
// CHECK: ldsan-test: exit 0
#include <hip/hip_runtime.h>

#include <cmath>
#include <cstdio>
#include <cstring>

typedef _Float16 half2_t __attribute__((ext_vector_type(2)));

__global__ void intrinsics(const double *d, const _Float16 *h, const float *f, double *out) {
  int i = threadIdx.x;  // 0..3
  out[i * 9 + 0] = __builtin_amdgcn_trig_preop(d[i], i == 3 ? 0 : i);
  out[i * 9 + 1] = __builtin_amdgcn_classh(h[i], 0x3c0) ? 1.0 : 0.0;  // +0, +subnormal, +normal, +inf
  out[i * 9 + 2] = (double)__builtin_amdgcn_frexp_exph(h[i]);
  out[i * 9 + 3] = (double)__builtin_amdgcn_frexp_manth(h[i]);
  out[i * 9 + 4] = (double)__builtin_amdgcn_fracth(h[i]);
  out[i * 9 + 5] = (double)__builtin_amdgcn_rsqh(h[i]);
  out[i * 9 + 6] = (double)__builtin_amdgcn_sqrth(h[i]);
  out[i * 9 + 7] = (double)__builtin_amdgcn_fractf(f[i]);
  half2_t a = {h[i], (_Float16)0.5f}, b = {(_Float16)2.0f, (_Float16)0.25f};
  out[i * 9 + 8] = (double)((i & 1) ? __builtin_amdgcn_fdot2(a, b, 0.125f, true) : __builtin_amdgcn_fdot2(a, b, 0.125f, false));
}

static int checks = 0, failures = 0;
static void expect(const char *what, int i, double got, double want) {
  checks++;
  if (got == want || (std::isnan(got) && std::isnan(want))) return;
  failures++;
  printf("MISMATCH %s[%d]: got %a, want %a\n", what, i, got, want);
}

int main() {
  const double d[4] = {1.0, 1.0, 1e300, std::ldexp(1.0, 1000)};
  const _Float16 h[4] = {(_Float16)-0.0f, (_Float16)6.5f, (_Float16)-0.75f, (_Float16)0x1.1p-20f /* subnormal */};
  const float f[4] = {-1e-9f, INFINITY, NAN, 2.25f};
  double *dd, *dout;
  _Float16 *dh;
  float *df;
  double out[36];
  if (hipMalloc(&dd, sizeof d) || hipMalloc(&dh, sizeof h) || hipMalloc(&df, sizeof f) || hipMalloc(&dout, sizeof out) ||
      hipMemcpy(dd, d, sizeof d, hipMemcpyHostToDevice) || hipMemcpy(dh, h, sizeof h, hipMemcpyHostToDevice) ||
      hipMemcpy(df, f, sizeof f, hipMemcpyHostToDevice))
    return 2;
  hipLaunchKernelGGL(intrinsics, dim3(1), dim3(4), 0, 0, dd, dh, df, dout);
  if (hipMemcpy(out, dout, sizeof out, hipMemcpyDeviceToHost)) return 2;

  // 2/pi = 0.a2f9836e4e441529fc2757d1f534ddc0db629599... (hex): bits 1-53, 54-106, ...
  const double preop[4] = {0x1.45f306dc9c882p-1, 0x1.4a7f09d5f47d4p-54,
                           0x1.ef14a525d4d7fp-921,   // 1e300, segment 2: shifted by 942, rescaled by 2^128
                           0x1.516ba93dd63f5p-819};  // 2^1000, segment 0: shifted by 946, rescaled
  const double cls[4] = {0, 1, 0, 1};
  const double fexp[4] = {0, 3, 0, -19};
  const double fmant[4] = {-0.0, 0.8125, -0.75, 0x1.1p-1};
  const double fract[4] = {0, 0.5, 0.25, 0x1.1p-20};
  const double rsq[4] = {-INFINITY, (double)(_Float16)(1 / std::sqrt(6.5f)), NAN, (double)(_Float16)(1 / std::sqrt(0x1.1p-20f))};
  const double sq[4] = {-0.0, (double)(_Float16)std::sqrt(6.5f), NAN, (double)(_Float16)std::sqrt(0x1.1p-20f)};
  const double fractf[4] = {0x1.fffffep-1, NAN, NAN, 0.25};
  // h * 2 + 0.5 * 0.25 + 0.125; odd work-items clamp to [0, 1]
  const double dot[4] = {0.25, 1.0, -1.25, 0x1.1p-19 + 0.25};
  for (int i = 0; i < 4; i++) {
    expect("trig_preop", i, out[i * 9 + 0], preop[i]);
    expect("class.f16", i, out[i * 9 + 1], cls[i]);
    expect("frexp.exp.f16", i, out[i * 9 + 2], fexp[i]);
    expect("frexp.mant.f16", i, out[i * 9 + 3], fmant[i]);
    expect("fract.f16", i, out[i * 9 + 4], fract[i]);
    expect("rsq.f16", i, out[i * 9 + 5], rsq[i]);
    expect("sqrt.f16", i, out[i * 9 + 6], sq[i]);
    expect("fract.f32", i, out[i * 9 + 7], fractf[i]);
    expect("fdot2", i, out[i * 9 + 8], dot[i]);
  }
  if (!std::signbit(out[0 * 9 + 3]) || !std::signbit(out[0 * 9 + 6])) {
    failures++;
    printf("MISMATCH signs: frexp.mant(-0) and sqrt(-0) must be -0\n");
  }
  if (failures) {
    printf("math_intrinsics: %d of %d checks failed\n", failures, checks);
    return 1;
  }
  printf("math_intrinsics: all %d checks passed\n", checks);
  return 0;
}
