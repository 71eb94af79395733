/* The check the work-item loops make once for a whole loop instead of once
 * per access (retarget_shadow_ranges.cpp): whether the shadow says every
 * byte of [first, end) is addressable. first and end are multiples of the
 * shadow granule.
 * __ldsan_emu_shadow_clean reads ASan's shadow (full-ASan images): an
 * interval outside the application memory of ASan's x86-64 mapping (or
 * crossing its gap) is "not clean", so the loop runs with its per-access
 * checks, which report it.
 * __ldsan_emu_own_shadow_clean reads an LDS-only image's own shadow
 * ((addr >> 3) + offset, device/own_shadow.c): only an interval inside the
 * LDS store the host gave the image (its device state's pool) can be clean,
 * and only when offset is the one the host wrote there (not the built-in
 * pool's fallback).
 * In both, an interval longer than EMU_SHADOW_SCAN_MAX (a sparse access
 * whose interval spans far more than it touches: scanning would cost more
 * than the checks it saves) is "not clean". */
#include <stdint.h>

#include "core_internal.h"

#define EMU_LOW_MEM_END 0x7fff8000ull     /* [0, this): low application memory */
#define EMU_HIGH_MEM_BEG 0x10007fff8000ull /* [this, EMU_HIGH_MEM_END): high */
#define EMU_HIGH_MEM_END 0x800000000000ull /* 47-bit user space */
#define EMU_SHADOW_SCAN_MAX (1ull << 20)   /* bytes of application memory */

/* Whether shadow bytes [s, e) are all 0. */
__attribute__((no_sanitize("address"))) static int shadow_zero(const uint8_t *s, const uint8_t *e) {
  typedef uint64_t __attribute__((may_alias, aligned(1))) shadow_word;
  uint64_t any = 0;
  for (; s + 8 <= e; s += 8) any |= *(const shadow_word *)s;
  for (; s < e; s++) any |= *s;
  return any == 0;
}

__attribute__((no_sanitize("address"))) EMU_API int __ldsan_emu_shadow_clean(uint64_t first, uint64_t end) {
  if (end <= first || end - first > EMU_SHADOW_SCAN_MAX ||
      !(end <= EMU_LOW_MEM_END || (first >= EMU_HIGH_MEM_BEG && end <= EMU_HIGH_MEM_END)))
    return 0;
  return shadow_zero((const uint8_t *)(uintptr_t)((first >> LDSAN_SHADOW_SCALE) + LDSAN_SHADOW_OFFSET),
                     (const uint8_t *)(uintptr_t)((end >> LDSAN_SHADOW_SCALE) + LDSAN_SHADOW_OFFSET));
}

__attribute__((no_sanitize("address"))) EMU_API int __ldsan_emu_own_shadow_clean(uint64_t first, uint64_t end,
                                                                                uint64_t offset,
                                                                                const ldsan_device_state *state) {
  uint64_t base = state->pool_base, size = state->pool_size;
  if (end <= first || end - first > EMU_SHADOW_SCAN_MAX || !state->shadow_offset || offset != state->shadow_offset ||
      first < base || end - base > size)
    return 0;
  return shadow_zero((const uint8_t *)(uintptr_t)((first >> LDSAN_SHADOW_SCALE) + offset),
                     (const uint8_t *)(uintptr_t)((end >> LDSAN_SHADOW_SCALE) + offset));
}
