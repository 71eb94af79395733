/* Unit test of __ldsan_emu_shadow_clean (emulator/core/core_shadow_range.c),
 * the once-per-loop shadow check of the work-item loops, against ASan's own
 * poisoning (built with -fsanitize=address): clean intervals, a poisoned
 * granule at the start or further in, a partly addressable last granule,
 * and intervals outside application memory, empty or longer than the scan
 * limit (1 MiB), which must be "not clean" without touching the shadow.
 * Then __ldsan_emu_own_shadow_clean, the same check of an LDS-only image's
 * own shadow, against a device state whose pool and shadow the test owns:
 * intervals inside the pool, a poisoned granule, intervals reaching out of
 * the pool, an offset other than the state's and a state with none (the
 * built-in pool's fallback), all without reading outside the test's shadow. */
#include <sanitizer/asan_interface.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "ldsan/abi.h"

int __ldsan_emu_shadow_clean(uint64_t first, uint64_t end);
int __ldsan_emu_own_shadow_clean(uint64_t first, uint64_t end, uint64_t offset, const ldsan_device_state *state);

static int failures;
#define EXPECT(cond)                                                   \
  do {                                                                 \
    if (!(cond)) {                                                     \
      fprintf(stderr, "shadow_clean.c:%d: FAIL %s\n", __LINE__, #cond); \
      failures++;                                                      \
    }                                                                  \
  } while (0)

int main(void) {
  enum { N = 4096 };
  uint8_t *buf = aligned_alloc(64, N);
  uint64_t b = (uint64_t)(uintptr_t)buf;
  EXPECT(__ldsan_emu_shadow_clean(b, b + N));
  EXPECT(__ldsan_emu_shadow_clean(b + 8, b + 16));
  EXPECT(!__ldsan_emu_shadow_clean(b, b + N + 64)); /* into the heap redzone */
  EXPECT(!__ldsan_emu_shadow_clean(b - 64, b + 8)); /* before the block */
  for (unsigned at = 0; at < N; at += 1000) { /* one poisoned granule anywhere */
    unsigned g = at & ~7u;
    ASAN_POISON_MEMORY_REGION(buf + g, 8);
    EXPECT(!__ldsan_emu_shadow_clean(b, b + N));
    EXPECT(__ldsan_emu_shadow_clean(b + g + 8, b + N) == 1);
    EXPECT(g == 0 || __ldsan_emu_shadow_clean(b, b + g) == 1);
    ASAN_UNPOISON_MEMORY_REGION(buf + g, 8);
  }
  ASAN_POISON_MEMORY_REGION(buf + 100, N - 100); /* granule 96..103 partly addressable */
  EXPECT(__ldsan_emu_shadow_clean(b, b + 96));
  EXPECT(!__ldsan_emu_shadow_clean(b, b + 104));
  ASAN_UNPOISON_MEMORY_REGION(buf + 100, N - 100);
  EXPECT(!__ldsan_emu_shadow_clean(b + 64, b + 64));               /* empty */
  EXPECT(!__ldsan_emu_shadow_clean(b + 64, b + 8));                /* reversed (wrapped) */
  EXPECT(!__ldsan_emu_shadow_clean(0x7fff8000ull, 0x7fff8010ull)); /* the shadow itself */
  EXPECT(!__ldsan_emu_shadow_clean(0x7ffff000ull, 0x10008000000ull)); /* across the gap */
  EXPECT(!__ldsan_emu_shadow_clean(0x7ffffffffff8ull, 0x800000000010ull)); /* past user space */
  uint8_t *big = aligned_alloc(64, (2u << 20) + 64); /* longer than the scan limit: not clean */
  uint64_t g = (uint64_t)(uintptr_t)big;
  EXPECT(__ldsan_emu_shadow_clean(g, g + (1u << 20)));
  EXPECT(!__ldsan_emu_shadow_clean(g, g + (1u << 20) + 8));
  free(big);
  free(buf);

  /* An LDS-only pool of 4 KiB and its 512 shadow bytes. */
  enum { POOL = 4096 };
  uint8_t *pool = aligned_alloc(256, POOL), *shadow = calloc(POOL >> 3, 1);
  uint64_t p = (uint64_t)(uintptr_t)pool, off = (uint64_t)(uintptr_t)shadow - (p >> 3);
  ldsan_device_state st = {.pool_base = p, .pool_size = POOL, .shadow_offset = off};
  EXPECT(__ldsan_emu_own_shadow_clean(p, p + POOL, off, &st));
  EXPECT(__ldsan_emu_own_shadow_clean(p + 512, p + 1024, off, &st));
  shadow[100] = 0xe6; /* granule 800..807 poisoned */
  EXPECT(!__ldsan_emu_own_shadow_clean(p, p + POOL, off, &st));
  EXPECT(!__ldsan_emu_own_shadow_clean(p + 800, p + 808, off, &st));
  EXPECT(__ldsan_emu_own_shadow_clean(p + 808, p + POOL, off, &st));
  EXPECT(__ldsan_emu_own_shadow_clean(p, p + 800, off, &st));
  shadow[100] = 0;
  EXPECT(!__ldsan_emu_own_shadow_clean(p - 8, p + 8, off, &st));         /* before the pool */
  EXPECT(!__ldsan_emu_own_shadow_clean(p + POOL - 8, p + POOL + 8, off, &st)); /* past it */
  EXPECT(!__ldsan_emu_own_shadow_clean(p + 64, p + 64, off, &st));       /* empty */
  EXPECT(!__ldsan_emu_own_shadow_clean(p + 64, p + 8, off, &st));        /* reversed */
  EXPECT(!__ldsan_emu_own_shadow_clean(p, p + 64, off + 16, &st));       /* not the state's offset */
  st.shadow_offset = 0; /* the built-in pool's fallback: never clean here */
  EXPECT(!__ldsan_emu_own_shadow_clean(p, p + 64, off, &st));
  free(shadow);
  free(pool);
  if (failures) return 1;
  printf("shadow_clean: PASSED\n");
  return 0;
}
