/* ldsan own shadow: where the shadow of the LDS pool lives in an LDS-only
 * image (ldsan-cc -fsanitize=lds). Such a program has no AddressSanitizer, so
 * nothing maps ASan's shadow (0x7FFF8000 + addr/8) on the device; ldsan keeps
 * the shadow of its own pool instead, at (addr >> 3) + this offset: the one the
 * host wrote into the device state with the store it allocated, else that of
 * the built-in pool's shadow below. Only the LDS-only runtime
 * (ldsan-rt-lds.bc, built with LDSAN_OWN_SHADOW) contains this file; its
 * target layer maps the shadow through it, and the plugin makes the kernels'
 * inline checks use it too (instrument/LdsOnly.cpp). Its flat-access entry
 * point is flat_lds_access.c's. */
#include "entry_points.h"
#include "runtime.h"

/* One shadow byte per 8 bytes of the built-in pool (which is page-aligned,
 * so its shadow offset below is a multiple of 16 as abi.h asks). */
LDSAN_EXPORT __attribute__((aligned(64))) LDSAN_GLOBAL uint8_t
    __ldsan_builtin_pool_shadow[LDSAN_BUILTIN_POOL_SIZE >> LDSAN_SHADOW_SCALE];

LDSAN_EXPORT uint64_t __ldsan_own_shadow_offset(void) {
  uint64_t offset = __ldsan_state()->shadow_offset;
  if (offset) return offset;
  return (uint64_t)(uintptr_t)__ldsan_builtin_pool_shadow -
         ((uint64_t)(uintptr_t)__ldsan_builtin_pool >> LDSAN_SHADOW_SCALE);
}
