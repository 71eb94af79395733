/* ldsan emulator core: the __ldsan_emu_* functions retargeted device code
 * calls (intrinsics that are not inline TLS reads, memory intrinsics, and the
 * few device-library/ASan externals the device module may leave undefined).
 * Run on fibers of a worker; never call into host-ASan-intercepted libc
 * (memcpy etc.), so device memory traffic is never double-checked. */
#include <math.h>
#include <stdint.h>
#include <string.h>
#include <time.h>
#include <x86intrin.h>

#include "ldsan/abi.h"
#include "core_internal.h"
#include "core_wave_ops.h"


/* __ldsan_emu_s_barrier and __ldsan_emu_s_barrier_exit live in core_sched.c. */

/* s_sleep is how device code spins politely: let the other work-items run. */
EMU_API void __ldsan_emu_s_sleep(uint32_t n) { (void)n; ldsan_emu_yield(); }

EMU_API __attribute__((noreturn)) void __ldsan_emu_trap(void) { ldsan_emu_trap_current(); }

/* A cross-lane operation (core_wave_ops.h) at a site the retarget tool
 * ranked `rank`: the lane's result once its wave executed it. */
EMU_API uint64_t __ldsan_emu_wave_op(uint32_t op, uint64_t val, uint32_t arg, uint64_t rank) {
  return ldsan_emu_wave_arrive(op, val, arg, rank, (uintptr_t)__builtin_return_address(0), __builtin_frame_address(0));
}

/* A memory access of a lockstep kernel's own code: the wave's lanes make it
 * together (each lane's own stack is not shared and needs no wait). */
EMU_API void __ldsan_emu_wave_mem(const void *p, uint64_t rank) {
  if (!ldsan_emu_self->lockstep || ldsan_emu_is_private_addr(p)) return;
  ldsan_emu_wave_arrive(LDSAN_EMU_WAVE_SYNC, 0, 0, rank, (uintptr_t)__builtin_return_address(0),
                        __builtin_frame_address(0));
}

EMU_API uint64_t __ldsan_emu_s_getpc(void) { return (uint64_t)(uintptr_t)__builtin_return_address(0); }
EMU_API uint64_t __ldsan_emu_s_memtime(void) { return __rdtsc(); }
EMU_API uint64_t __ldsan_emu_s_memrealtime(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (uint64_t)ts.tv_sec * 100000000u + (uint64_t)ts.tv_nsec / 10u; /* 100 MHz, as on gfx9 */
}
EMU_API uint64_t __ldsan_emu_dispatch_id(void) { return (uint64_t)(uintptr_t)ldsan_emu_self->d; }

EMU_API int __ldsan_emu_is_private(const void *p) { return ldsan_emu_is_private_addr(p); }

/* OpenCL __atomic_work_item_fence(flags, order, scope) from older device libs.
 * x86 is TSO: only a seq_cst fence wider than the workgroup needs mfence;
 * workgroup fibers share one OS thread, so narrower ones are compiler fences. */
EMU_API void __ldsan_emu_atomic_work_item_fence(uint32_t flags, uint32_t order, uint32_t scope) {
  (void)flags;
  if (order == 5 && (scope == 2 || scope == 3)) __atomic_thread_fence(__ATOMIC_SEQ_CST);
  else __atomic_signal_fence(__ATOMIC_SEQ_CST);
}

/* ---- memory intrinsics: rep movs/stos, never the (interceptable) libc ---- */
EMU_API void __ldsan_emu_memcpy(void *d, const void *s, uint64_t n) {
  __asm__ volatile("rep movsb" : "+D"(d), "+S"(s), "+c"(n) : : "memory");
}
EMU_API void __ldsan_emu_memmove(void *d, const void *s, uint64_t n) {
  if ((uintptr_t)d <= (uintptr_t)s || (uintptr_t)d >= (uintptr_t)s + n) {
    __asm__ volatile("rep movsb" : "+D"(d), "+S"(s), "+c"(n) : : "memory");
    return;
  }
  uint8_t *de = (uint8_t *)d + n - 1;
  const uint8_t *se = (const uint8_t *)s + n - 1;
  __asm__ volatile("std\n\trep movsb\n\tcld" : "+D"(de), "+S"(se), "+c"(n) : : "memory");
}
EMU_API void __ldsan_emu_memset(void *d, uint32_t v, uint64_t n) {
  __asm__ volatile("rep stosb" : "+D"(d), "+c"(n) : "a"(v) : "memory");
}

/* ---- ASan module hooks the device code may leave undefined --------------- */
EMU_API void __ldsan_emu_asan_init(void) {}
EMU_API void __ldsan_emu_asan_version_mismatch_check_v8(void) {}
EMU_API void __ldsan_emu_asan_handle_no_return(void) {}

/* LLVM's __asan_global: beg, size, size_with_redzone, name, module, dyn-init,
 * location, odr indicator (8 x 64 bits in the amdgcn/x86-64 layout). */
typedef struct emu_asan_global { uint64_t beg, size, size_with_redzone, rest[5]; } emu_asan_global;

static void emu_poison_globals(const emu_asan_global *g, uint64_t n, int poison) {
  for (uint64_t i = 0; i < n; i++) {
    uint64_t beg = g[i].beg + g[i].size, end = g[i].beg + g[i].size_with_redzone;
    uint8_t *sh = (uint8_t *)(uintptr_t)((beg >> LDSAN_SHADOW_SCALE) + LDSAN_SHADOW_OFFSET);
    if (beg & 7) *sh++ = poison ? (uint8_t)(beg & 7) : 0, beg = (beg + 7) & ~7ull;
    for (; beg < end; beg += 8) *sh++ = poison ? 0xf9 : 0; /* global redzone */
  }
}
EMU_API void __ldsan_emu_asan_register_globals(uint64_t g, uint64_t n) {
  emu_poison_globals((const emu_asan_global *)(uintptr_t)g, n, 1);
}
EMU_API void __ldsan_emu_asan_unregister_globals(uint64_t g, uint64_t n) {
  emu_poison_globals((const emu_asan_global *)(uintptr_t)g, n, 0);
}
EMU_API void __ldsan_emu_asan_register_elf_globals(uint64_t flag, uint64_t start, uint64_t stop) {
  if (!start || stop <= start) return;
  uint64_t *done = (uint64_t *)(uintptr_t)flag;
  if (done && *done) return;
  emu_poison_globals((const emu_asan_global *)(uintptr_t)start, (stop - start) / sizeof(emu_asan_global), 1);
  if (done) *done = 1;
}
EMU_API void __ldsan_emu_asan_unregister_elf_globals(uint64_t flag, uint64_t start, uint64_t stop) {
  (void)flag, (void)start, (void)stop; /* device globals live as long as the process */
}

/* ---- amdgcn math intrinsics the device libraries use --------------------- */
EMU_API float __ldsan_emu_rcp_f32(float x) { return 1.0f / x; }
EMU_API double __ldsan_emu_rcp_f64(double x) { return 1.0 / x; }
EMU_API float __ldsan_emu_rsq_f32(float x) { return 1.0f / sqrtf(x); }
EMU_API double __ldsan_emu_rsq_f64(double x) { return 1.0 / sqrt(x); }
EMU_API float __ldsan_emu_sqrt_f32(float x) { return sqrtf(x); }
EMU_API double __ldsan_emu_sqrt_f64(double x) { return sqrt(x); }
EMU_API float __ldsan_emu_exp2_f32(float x) { return exp2f(x); }
EMU_API float __ldsan_emu_log_f32(float x) { return log2f(x); }          /* v_log_f32 is log2 */
/* v_sin/v_cos_f32: the input is in turns (radians / 2pi); the whole turns go
 * first (exact in float), the rest is evaluated in double. */
EMU_API float __ldsan_emu_sin_f32(float x) { return isinf(x) ? x - x : (float)sin(6.283185307179586 * (double)(x - truncf(x))); }
EMU_API float __ldsan_emu_cos_f32(float x) { return isinf(x) ? x - x : (float)cos(6.283185307179586 * (double)(x - truncf(x))); }
/* v_fract: x + -floor(x), at most the largest value below 1 (so -tiny gives
 * 0x1.fffffep-1, not 1); NaN for NaN and for +-inf (inf - inf). */
EMU_API float __ldsan_emu_fract_f32(float x) { return isfinite(x) ? fminf(x - floorf(x), 0x1.fffffep-1f) : x - x; }
EMU_API double __ldsan_emu_fract_f64(double x) { return isfinite(x) ? fmin(x - floor(x), 0x1.fffffffffffffp-1) : x - x; }
EMU_API float __ldsan_emu_frexp_mant_f32(float x) { int e; return isfinite(x) ? frexpf(x, &e) : x; }
EMU_API double __ldsan_emu_frexp_mant_f64(double x) { int e; return isfinite(x) ? frexp(x, &e) : x; }
EMU_API int32_t __ldsan_emu_frexp_exp_i32_f32(float x) { int e = 0; if (isfinite(x)) frexpf(x, &e); return e; }
EMU_API int32_t __ldsan_emu_frexp_exp_i32_f64(double x) { int e = 0; if (isfinite(x)) frexp(x, &e); return e; }
EMU_API float __ldsan_emu_fmed3_f32(float a, float b, float c) { return fmaxf(fminf(a, b), fminf(fmaxf(a, b), c)); }

/* v_cmp_class mask bits: 0 sNaN, 1 qNaN, 2 -inf, 3 -normal, 4 -subnormal,
 * 5 -0, 6 +0, 7 +subnormal, 8 +normal, 9 +inf. */
static int emu_class(double x, int is_snan, uint32_t mask) {
  int bit, neg = signbit(x) != 0;
  switch (fpclassify(x)) {
  case FP_NAN: bit = is_snan ? 0 : 1; break;
  case FP_INFINITE: bit = neg ? 2 : 9; break;
  case FP_NORMAL: bit = neg ? 3 : 8; break;
  case FP_SUBNORMAL: bit = neg ? 4 : 7; break;
  default: bit = neg ? 5 : 6; break;
  }
  return (mask >> bit) & 1;
}
EMU_API int __ldsan_emu_class_f32(float x, uint32_t mask) {
  uint32_t u;
  memcpy(&u, &x, 4);
  return isnan(x) ? emu_class(x, !(u & 0x400000), mask) : (fpclassify(x) == FP_SUBNORMAL ? ((mask >> (signbit(x) ? 4 : 7)) & 1) : emu_class(x, 0, mask));
}
EMU_API int __ldsan_emu_class_f64(double x, uint32_t mask) {
  uint64_t u;
  memcpy(&u, &x, 8);
  return emu_class(x, isnan(x) && !(u & (1ull << 51)), mask);
}

/* ---- half precision (v_*_f16) ----------------------------------------------
 * Computed in float and rounded once to half: float holds every half exactly,
 * and the float results are far more accurate than the f16 instructions'. */
EMU_API _Float16 __ldsan_emu_rcp_f16(_Float16 x) { return (_Float16)(1.0f / (float)x); }
EMU_API _Float16 __ldsan_emu_rsq_f16(_Float16 x) { return (_Float16)(1.0f / sqrtf((float)x)); }
EMU_API _Float16 __ldsan_emu_sqrt_f16(_Float16 x) { return (_Float16)sqrtf((float)x); }
EMU_API _Float16 __ldsan_emu_fract_f16(_Float16 x) {
  float f = (float)x;
  return isfinite(f) ? (_Float16)fminf(f - floorf(f), 0x1.ffcp-1f) : (_Float16)(f - f);
}
EMU_API _Float16 __ldsan_emu_frexp_mant_f16(_Float16 x) { int e; return isfinite((float)x) ? (_Float16)frexpf((float)x, &e) : x; }
EMU_API int16_t __ldsan_emu_frexp_exp_i16_f16(_Float16 x) {
  int e = 0;
  if (isfinite((float)x)) frexpf((float)x, &e);
  return (int16_t)e;
}
EMU_API int __ldsan_emu_class_f16(_Float16 x, uint32_t mask) {
  uint16_t u;
  memcpy(&u, &x, 2);
  int neg = u >> 15, bit;
  uint16_t mag = u & 0x7fff;
  if (mag > 0x7c00) bit = (u & 0x200) ? 1 : 0;           /* qNaN : sNaN */
  else if (mag == 0x7c00) bit = neg ? 2 : 9;
  else if (mag >= 0x400) bit = neg ? 3 : 8;
  else if (mag) bit = neg ? 4 : 7;
  else bit = neg ? 5 : 6;
  return (mask >> bit) & 1;
}

/* v_trig_preop_f64(x, segment): 53 bits of 2/pi for Payne-Hanek reduction.
 * With 2/pi = 0.b1 b2 b3 ... (binary, 1201 bits kept by the hardware, later
 * bits 0) and shift = 53 * segment (+ exponent(x) - 1077 when x's biased
 * exponent exceeds 1077), the result is the integer b(shift+1)..b(shift+53)
 * scaled by 2^(-53 - shift), or by 2^(-53 - shift + 128) when x's biased
 * exponent is at least 1968 (the caller scales such x down by 2^-128). */
static const uint64_t emu_two_over_pi[19] = { /* floor(2^1201 * 2/pi) << 15 */
    0xa2f9836e4e441529ull, 0xfc2757d1f534ddc0ull, 0xdb6295993c439041ull, 0xfe5163abdebbc561ull,
    0xb7246e3a424dd2e0ull, 0x06492eea09d1921cull, 0xfe1deb1cb129a73eull, 0xe88235f52ebb4484ull,
    0xe99c7026b45f7e41ull, 0x3991d639835339f4ull, 0x9c845f8bbdf9283bull, 0x1ff897ffde05980full,
    0xef2f118b5a0a6d1full, 0x6d367ecf27cb09b7ull, 0x4f463f669e5fea2dull, 0x7527bac7ebe5f17bull,
    0x3d0739f78a5292eaull, 0x6bfb5fb11f8d5d08ull, 0x56033046fc7b0000ull};
static unsigned emu_two_over_pi_bit(uint32_t k) { /* b_k, k >= 1 */
  if (k > 1201) return 0;
  return (unsigned)(emu_two_over_pi[(k - 1) / 64] >> (63 - (k - 1) % 64)) & 1u;
}
EMU_API double __ldsan_emu_trig_preop_f64(double x, uint32_t segment) {
  uint64_t u;
  memcpy(&u, &x, 8);
  uint32_t exponent = (uint32_t)(u >> 52) & 0x7ff;
  uint32_t shift = (segment & 31u) * 53u + (exponent > 1077 ? exponent - 1077 : 0);
  uint64_t bits = 0;
  for (uint32_t k = shift + 1; k <= shift + 53; k++) bits = bits << 1 | emu_two_over_pi_bit(k);
  int scale = -53 - (int)shift + (exponent >= 1968 ? 128 : 0);
  return ldexp((double)bits, scale);
}

/* v_dot2_f32_f16 (llvm.amdgcn.fdot2; __ockl_fdot2, hip_fp16.h's amd_mixed_dot):
 * a.x * b.x + a.y * b.y + c. The products of halves are exact in float; the
 * sum is formed in double and rounded once. clamp: the result clamped to [0, 1]. */
/* The device code passes each <2 x half> in an SSE register, widened (lanes 0
 * and 1 hold x and y), as C passes a 16-byte vector; a C 4-byte vector would
 * be an integer register. */
typedef _Float16 emu_half2 __attribute__((ext_vector_type(8)));
EMU_API float __ldsan_emu_fdot2(emu_half2 a, emu_half2 b, float c, uint32_t clamp /* an i1: bit 0 only */) {
  float r = (float)((double)((float)a[0] * (float)b[0]) + (double)((float)a[1] * (float)b[1]) + (double)c);
  if (clamp & 1) r = isnan(r) ? 0.0f : fminf(fmaxf(r, 0.0f), 1.0f);
  return r;
}
