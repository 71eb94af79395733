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

#include "../../include/ldsan/abi.h"
#include "core_internal.h"

#define EMU_API __attribute__((visibility("default")))

/* __ldsan_emu_s_barrier and __ldsan_emu_s_barrier_exit live in core_sched.c. */

/* s_sleep is how device code spins politely: let the other work-items run. */
EMU_API void __ldsan_emu_s_sleep(uint32_t n) { (void)n; ldsan_emu_yield(); }

EMU_API __attribute__((noreturn)) void __ldsan_emu_trap(void) { ldsan_emu_trap_current(); }

/* mbcnt.lo(mask, acc): acc + set bits of mask below this lane (lanes 0..31). */
EMU_API uint32_t __ldsan_emu_mbcnt_lo(uint32_t mask, uint32_t acc) {
  uint32_t lane = __ldsan_emu_tls.item->lane;
  uint32_t below = lane >= 32 ? mask : mask & ((1u << lane) - 1u);
  return acc + (uint32_t)__builtin_popcount(below);
}

/* mbcnt.hi(mask, acc): acc + set bits of mask for lanes 32..lane-1. */
EMU_API uint32_t __ldsan_emu_mbcnt_hi(uint32_t mask, uint32_t acc) {
  uint32_t lane = __ldsan_emu_tls.item->lane;
  if (lane < 32) return acc;
  return acc + (uint32_t)__builtin_popcount(mask & ((1u << (lane - 32)) - 1u));
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
EMU_API float __ldsan_emu_sin_f32(float x) { return sinf(x * 6.283185307f); } /* input in turns */
EMU_API float __ldsan_emu_cos_f32(float x) { return cosf(x * 6.283185307f); }
EMU_API float __ldsan_emu_fract_f32(float x) { return isinf(x) ? 0.0f : fminf(x - floorf(x), 0x1.fffffep-1f); }
EMU_API double __ldsan_emu_fract_f64(double x) { return isinf(x) ? 0.0 : fmin(x - floor(x), 0x1.fffffffffffffp-1); }
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
