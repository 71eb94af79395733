/* ldsan shadow: poisoning and checking ASan's shadow (one byte per 8-byte
 * granule: 0 addressable, k in 1..7 only the first k bytes, else poisoned).
 * The partial-granule rules are ASan's (__asan_poison_memory_region and
 * __asan_unpoison_memory_region) so host and device shadow agree. Not atomic:
 * callers own the range they change. */
#include "runtime.h"

/* One end of a range: its shadow byte, offset in the granule, current value. */
typedef struct endpoint {
  LDSAN_GLOBAL uint8_t *shadow;
  uint32_t offset;
  int8_t value;
} endpoint;

static endpoint endpoint_of(uint64_t addr) {
  endpoint e;
  e.shadow = __ldsan_shadow_of(addr);
  e.offset = (uint32_t)(addr & (LDSAN_SHADOW_GRANULE - 1));
  e.value = (int8_t)*e.shadow;
  return e;
}

/* The end of a range [addr, end): its shadow byte is read only when end cuts
 * into a granule. A range ending on a granule boundary never touches the next
 * granule's shadow, which another owner (the next block) may be writing. */
static endpoint end_of(uint64_t end) {
  endpoint e;
  e.shadow = __ldsan_shadow_of(end);
  e.offset = (uint32_t)(end & (LDSAN_SHADOW_GRANULE - 1));
  e.value = e.offset ? (int8_t)*e.shadow : 0;
  return e;
}

static int8_t min8(int8_t a, int8_t b) { return a < b ? a : b; }
static int8_t max8(int8_t a, int8_t b) { return a > b ? a : b; }

/* Every active lane calls these two with the same range (runtime.h), so the
 * range is kept in scalar registers; the lanes share the work: the granules
 * at either end, which a range may share with its neighbours, are read and
 * written by rank 0 alone, the whole granules between are shared out
 * (__ldsan_fill_shadow). Out of line (noinline): the plugin inlines the block paths
 * into every kernel (InlineBlockCalls.h), and a leaf call costs a kernel
 * neither registers nor scratch, where an inlined copy per use costs code
 * size. */
__attribute__((noinline)) void __ldsan_poison(uint64_t addr, uint64_t size, uint8_t value) {
  addr = __ldsan_uniform_u64(addr);
  size = __ldsan_uniform_u64(size);
  value = (uint8_t)__ldsan_uniform_u32(value);
  if (size == 0) return;
  if (((addr | size) & (LDSAN_SHADOW_GRANULE - 1)) == 0) { /* whole granules: no ends to keep */
    __ldsan_fill_shadow(__ldsan_shadow_of(addr), __ldsan_shadow_of(addr + size), value);
    return;
  }
  int first = __ldsan_lane_rank() == 0;
  endpoint beg = endpoint_of(addr);
  endpoint end = end_of(addr + size);
  if (beg.shadow == end.shadow) {
    /* Inside one granule: only a suffix of its addressable bytes can be cut off. */
    if (first && beg.value > 0 && beg.value <= (int8_t)end.offset)
      *beg.shadow = beg.offset > 0 ? (uint8_t)min8(beg.value, (int8_t)beg.offset) : value;
    return;
  }
  if (beg.offset > 0) {
    /* The bytes before addr stay addressable: the granule keeps that prefix. */
    if (first) *beg.shadow = beg.value == 0 ? (uint8_t)beg.offset : (uint8_t)min8(beg.value, (int8_t)beg.offset);
    beg.shadow++;
  }
  __ldsan_fill_shadow(beg.shadow, end.shadow, value);
  /* The last granule is poisoned only if none of its addressable bytes survive. */
  if (first && end.value > 0 && end.value <= (int8_t)end.offset) *end.shadow = value;
}

__attribute__((noinline)) void __ldsan_unpoison(uint64_t addr, uint64_t size) {
  addr = __ldsan_uniform_u64(addr);
  size = __ldsan_uniform_u64(size);
  if (size == 0) return;
  int first = __ldsan_lane_rank() == 0;
  endpoint beg = endpoint_of(addr);
  endpoint end = end_of(addr + size);
  if (beg.shadow == end.shadow) {
    if (first && beg.value != 0) *beg.shadow = (uint8_t)max8(beg.value, (int8_t)end.offset);
    return;
  }
  __ldsan_fill_shadow(beg.shadow, end.shadow, 0);
  if (first && end.offset > 0 && end.value != 0) *end.shadow = (uint8_t)max8(end.value, (int8_t)end.offset);
}

/* Lanes with different ranges take turns, all lanes with the first active
 * lane's range together (a wave whose lanes pass one range does it once). */
void __ldsan_poison_lanes(uint64_t addr, uint64_t size, uint8_t value) {
  for (;;) {
    uint64_t a = __ldsan_uniform_u64(addr), s = __ldsan_uniform_u64(size);
    if (addr == a && size == s) {
      __ldsan_poison(a, s, value);
      return;
    }
  }
}

void __ldsan_unpoison_lanes(uint64_t addr, uint64_t size) {
  for (;;) {
    uint64_t a = __ldsan_uniform_u64(addr), s = __ldsan_uniform_u64(size);
    if (addr == a && size == s) {
      __ldsan_unpoison(a, s);
      return;
    }
  }
}

int __ldsan_find_poisoned(uint64_t beg, uint64_t size, uint64_t *bad, uint8_t *shadow_byte) {
  uint64_t first_granule = beg & ~(uint64_t)(LDSAN_SHADOW_GRANULE - 1);
  uint64_t end = beg + size;
  if (end < beg) end = UINT64_MAX; /* a wrapping range is checked up to the top */
  /* g >= first_granule stops the walk if g wraps past the top of the address space. */
  for (uint64_t g = first_granule; g < end && g >= first_granule; g += LDSAN_SHADOW_GRANULE) {
    int8_t s = (int8_t)*__ldsan_shadow_of(g);
    if (s == 0) continue;
    /* First unaddressable byte of the granule: g+k for a partial one, g otherwise. */
    uint64_t first = g + (s > 0 ? (uint64_t)s : 0);
    if (first < beg) first = beg;
    if (first < end && first < g + LDSAN_SHADOW_GRANULE) {
      if (bad) *bad = first;
      if (shadow_byte) *shadow_byte = (uint8_t)s;
      return 1;
    }
  }
  return 0;
}

int __ldsan_access_is_bad(uint64_t addr, uint64_t size) {
  if (size == 0) return 0;
  uint32_t offset = (uint32_t)(addr & (LDSAN_SHADOW_GRANULE - 1));
  if (offset + size <= LDSAN_SHADOW_GRANULE) {
    /* ASan's inline check: the last byte must be below the addressable prefix. */
    int8_t s = (int8_t)*__ldsan_shadow_of(addr);
    return s != 0 && (int8_t)(offset + size - 1) >= s;
  }
  return __ldsan_find_poisoned(addr, size, 0, 0);
}
