/* Unit tests of device/pool.c: layout, classes, alignment, reuse, exhaustion,
 * large chunks, regions recycled to another class, bad frees. */
#include "unit.h"

static unit_device dev;
static ldsan_pool pool;

/* Allocates and checks the status; returns the chunk (0 on failure). */
static uint64_t alloc(uint64_t bytes, uint64_t *chunk_size, uint32_t *status) {
  uint32_t cls = 0, st = 0;
  uint64_t cs = 0;
  uint64_t c = __ldsan_pool_alloc(&pool, bytes, &cls, &cs, &st);
  if (chunk_size) *chunk_size = cs;
  if (status) *status = st;
  return c;
}

static void test_layout(void) {
  CHECK_EQ(pool.nregions, 4);
  CHECK_EQ(pool.regions % 64, 0);
  /* Regions start a block header before a 4 KiB boundary, so blocks (after
   * their header) are aligned up to 4 KiB as their variables ask. */
  CHECK_EQ((pool.regions + LDSAN_BLOCK_HEADER_SIZE) % LDSAN_POOL_REGION_ALIGN, 0);
  CHECK(pool.regions + 4 * LDSAN_POOL_REGION_SIZE <= dev.base + dev.size);
  ldsan_pool odd;
  __ldsan_pool_view(dev.base + 3, UNIT_POOL_BYTES(2), &odd); /* unaligned base: the same regions, aligned */
  CHECK_EQ((uint64_t)(uintptr_t)odd.meta % 64, 0);
  CHECK_EQ((odd.regions + LDSAN_BLOCK_HEADER_SIZE) % LDSAN_POOL_REGION_ALIGN, 0);
  CHECK_EQ(odd.nregions, 2);
  __ldsan_pool_view(dev.base + 3, UNIT_POOL_BYTES(2) - LDSAN_POOL_REGION_ALIGN, &odd); /* no slack: one lost */
  CHECK_EQ(odd.nregions, 1);
  __ldsan_pool_view(dev.base, 1000, &odd);
  CHECK_EQ(odd.nregions, 0);
  ldsan_pool v;
  __ldsan_pool_view(1u << 20, 64ull << 20, &v);
  CHECK_EQ(v.nregions, 63); /* 64 MiB less 424 KiB of heads and cells and 63 records */
  __ldsan_pool_view(1u << 20, 1ull << 40, &v); /* larger than chunk names reach: 256 GiB used */
  CHECK(v.regions + v.nregions * LDSAN_POOL_REGION_SIZE <= (1u << 20) + LDSAN_POOL_MAX_BYTES);
  CHECK(v.nregions > 261000);
}

/* Preparing a pool poisons all of it (bookkeeping and regions) as LDS_STORE,
 * once, so a far overflow or underflow is caught instead of landing in
 * unchecked memory or the allocator's state; chunks are what blocks unpoison. */
static void test_prepare_poisons_everything(void) {
  CHECK(!__ldsan_pool_prepared(&pool));
  __ldsan_pool_prepare(&pool);
  CHECK(__ldsan_pool_prepared(&pool));
  CHECK_EQ(unit_shadow((uint64_t)(uintptr_t)pool.heads), LDSAN_SHADOW_LDS_STORE);
  CHECK_EQ(unit_shadow((uint64_t)(uintptr_t)pool.meta + 100), LDSAN_SHADOW_LDS_STORE);
  CHECK_EQ(unit_shadow(pool.regions), LDSAN_SHADOW_LDS_STORE);
  CHECK_EQ(unit_shadow(pool.regions + 4 * LDSAN_POOL_REGION_SIZE - 8), LDSAN_SHADOW_LDS_STORE);
  *__ldsan_shadow_of(pool.regions) = 0; /* a second prepare changes nothing */
  __ldsan_pool_prepare(&pool);
  CHECK_EQ(unit_shadow(pool.regions), 0);
  *__ldsan_shadow_of(pool.regions) = LDSAN_SHADOW_LDS_STORE;
}

static void test_classes_alignment_reuse(void) {
  uint64_t cs = 0;
  uint64_t a = alloc(100, &cs, 0);
  CHECK(a != 0);
  CHECK_EQ(cs, 256);
  CHECK_EQ(a % 64, 0);
  CHECK(__ldsan_pool_holds(&pool, a));
  uint64_t b = alloc(257, &cs, 0);
  CHECK_EQ(cs, 512);
  CHECK_EQ(b % 64, 0);
  CHECK((a + 256 <= b) || (b + 512 <= a));
  uint64_t chunks[100];
  int distinct = 1;
  for (int i = 0; i < 100; ++i) {
    chunks[i] = alloc(200, 0, 0);
    for (int j = 0; j < i; ++j) distinct &= chunks[j] + 256 <= chunks[i] || chunks[i] + 256 <= chunks[j];
    distinct &= chunks[i] + 256 <= a || a + 256 <= chunks[i];
  }
  CHECK(distinct);
  CHECK_EQ(__ldsan_pool_free(&pool, chunks[50]), 0);
  CHECK_EQ(alloc(256, 0, 0), chunks[50]); /* the only hole in that region */
  for (int i = 0; i < 100; ++i) CHECK_EQ(__ldsan_pool_free(&pool, chunks[i]), 0);
  CHECK_EQ(__ldsan_pool_free(&pool, a), 0);
  CHECK_EQ(__ldsan_pool_free(&pool, b), 0);
}

static void test_bad_free(void) {
  uint64_t a = alloc(1000, 0, 0);
  CHECK_EQ(__ldsan_pool_free(&pool, a + 64), -1);       /* inside a chunk */
  CHECK_EQ(__ldsan_pool_free(&pool, a + 1024), -1);     /* a chunk never handed out */
  CHECK_EQ(__ldsan_pool_free(&pool, dev.base), -1);     /* the heads and records, not a region */
  CHECK_EQ(__ldsan_pool_free(&pool, pool.regions + 4 * LDSAN_POOL_REGION_SIZE), -1);
  CHECK_EQ(__ldsan_pool_free(&pool, a), 0);
  CHECK_EQ(__ldsan_pool_free(&pool, a), -1);            /* double free */
}

/* Four 1 MiB chunks fill the pool; the fifth waits, gives up, reports exhaustion. */
static void test_exhaustion_and_recycling(void) {
  uint64_t small = alloc(256, 0, 0);
  CHECK_EQ(__ldsan_pool_free(&pool, small), 0); /* its region goes back to FREE */
  uint64_t big[4];
  uint32_t st = 99;
  uint64_t cs = 0;
  for (int i = 0; i < 4; ++i) {
    big[i] = alloc(LDSAN_POOL_REGION_SIZE, &cs, &st);
    CHECK(big[i] != 0);
    CHECK_EQ(st, LDSAN_POOL_OK);
    CHECK_EQ(cs, LDSAN_POOL_REGION_SIZE);
  }
  CHECK_EQ(alloc(LDSAN_POOL_REGION_SIZE, 0, &st), 0);
  CHECK_EQ(st, LDSAN_POOL_EXHAUSTED);
  CHECK_EQ(alloc(256, 0, &st), 0); /* no region left for any class */
  CHECK_EQ(st, LDSAN_POOL_EXHAUSTED);
  CHECK_EQ(__ldsan_pool_free(&pool, big[2]), 0);
  uint64_t s = alloc(300, &cs, &st); /* the 1 MiB region now serves 512-byte chunks */
  CHECK_EQ(s, big[2]);
  CHECK_EQ(cs, 512);
  CHECK_EQ(__ldsan_pool_free(&pool, s), 0);
  for (int i = 0; i < 4; ++i)
    if (i != 2) CHECK_EQ(__ldsan_pool_free(&pool, big[i]), 0);
}

static void test_large(void) {
  uint32_t st = 0;
  uint64_t cs = 0;
  CHECK_EQ(alloc(4 * LDSAN_POOL_REGION_SIZE + 1, 0, &st), 0);
  CHECK_EQ(st, LDSAN_POOL_TOO_LARGE);
  uint64_t a = alloc(2 * LDSAN_POOL_REGION_SIZE + 5, &cs, &st);
  CHECK(a != 0);
  CHECK_EQ(cs, 3 * LDSAN_POOL_REGION_SIZE);
  CHECK_EQ(alloc(2 * LDSAN_POOL_REGION_SIZE, 0, &st), 0); /* one region left */
  CHECK_EQ(st, LDSAN_POOL_EXHAUSTED);
  uint64_t b = alloc(LDSAN_POOL_REGION_SIZE, 0, &st);
  CHECK(b != 0);
  CHECK((b >= a + cs) || (b + LDSAN_POOL_REGION_SIZE <= a));
  CHECK_EQ(__ldsan_pool_free(&pool, a + LDSAN_POOL_REGION_SIZE), -1); /* a tail region */
  CHECK_EQ(__ldsan_pool_free(&pool, a), 0);
  CHECK_EQ(__ldsan_pool_free(&pool, b), 0);
  uint64_t all = alloc(4 * LDSAN_POOL_REGION_SIZE, &cs, &st); /* everything came back */
  CHECK(all != 0);
  CHECK_EQ(__ldsan_pool_free(&pool, all), 0);
}

static void test_builtin_pool_selected(void) {
  ldsan_pool p;
  uint64_t base = __ldsan_device_state.pool_base, size = __ldsan_device_state.pool_size;
  __ldsan_device_state.pool_base = (uint64_t)(uintptr_t)__ldsan_builtin_pool; /* what the image starts with */
  __ldsan_device_state.pool_size = LDSAN_BUILTIN_POOL_SIZE;
  __ldsan_pool_current(&p);
  CHECK_EQ((uint64_t)(uintptr_t)p.heads, (uint64_t)(uintptr_t)__ldsan_builtin_pool);
  CHECK_EQ((uint64_t)(uintptr_t)p.meta, (uint64_t)(uintptr_t)__ldsan_builtin_pool + LDSAN_POOL_FIXED_BYTES);
  CHECK_EQ(p.nregions, 7); /* 8 MiB less 424 KiB of heads and cells and 7 x 576 B of records */
  __ldsan_device_state.pool_base = base;
  __ldsan_device_state.pool_size = size;
  __ldsan_pool_current(&p);
  CHECK_EQ(p.regions, pool.regions);
}

int main(void) {
  unit_device_init(&dev, UNIT_POOL_BYTES(4));
  __ldsan_pool_current(&pool);
  RUN(test_layout);
  RUN(test_prepare_poisons_everything);
  RUN(test_classes_alignment_reuse);
  RUN(test_bad_free);
  RUN(test_exhaustion_and_recycling);
  RUN(test_large);
  RUN(test_builtin_pool_selected);
  unit_device_fini(&dev);
  return unit_summary();
}
