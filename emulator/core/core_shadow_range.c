/* The check the work-item loops make once for a whole loop instead of once
 * per access (retarget_shadow_ranges.cpp): whether ASan's shadow says every
 * byte of [first, end) is addressable. first and end are multiples of the
 * shadow granule. An interval outside the application memory of ASan's
 * x86-64 mapping (or crossing its gap) is "not clean", so the loop runs with
 * its per-access checks, which report it; so is one longer than
 * EMU_SHADOW_SCAN_MAX (a sparse access whose interval spans far more than it
 * touches: scanning would cost more than the checks it saves). */
#include <stdint.h>

#include "core_internal.h"

#define EMU_LOW_MEM_END 0x7fff8000ull     /* [0, this): low application memory */
#define EMU_HIGH_MEM_BEG 0x10007fff8000ull /* [this, EMU_HIGH_MEM_END): high */
#define EMU_HIGH_MEM_END 0x800000000000ull /* 47-bit user space */
#define EMU_SHADOW_SCAN_MAX (1ull << 20)   /* bytes of application memory */

__attribute__((no_sanitize("address"))) EMU_API int __ldsan_emu_shadow_clean(uint64_t first, uint64_t end) {
  if (end <= first || end - first > EMU_SHADOW_SCAN_MAX ||
      !(end <= EMU_LOW_MEM_END || (first >= EMU_HIGH_MEM_BEG && end <= EMU_HIGH_MEM_END)))
    return 0;
  const uint8_t *s = (const uint8_t *)(uintptr_t)((first >> LDSAN_SHADOW_SCALE) + LDSAN_SHADOW_OFFSET);
  const uint8_t *e = (const uint8_t *)(uintptr_t)((end >> LDSAN_SHADOW_SCALE) + LDSAN_SHADOW_OFFSET);
  typedef uint64_t __attribute__((may_alias, aligned(1))) shadow_word;
  uint64_t any = 0;
  for (; s + 8 <= e; s += 8) any |= *(const shadow_word *)s;
  for (; s < e; s++) any |= *s;
  return any == 0;
}
