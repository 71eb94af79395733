/* Unit tests of device/block_cache.c, the LDS block fast path: FIFO order
 * past the quarantine, a released block held back (poisoned, named by
 * __ldsan_freed_block_at) before the cache reuses it with a fresh header, a
 * full ring handing chunks back to the pool, device malloc kept out of it,
 * the caches drained back to the pool when it runs dry, and threads acting as
 * workgroups taking and giving back blocks of three classes at once: no chunk
 * with two owners, all memory back at the end. */
#define _POSIX_C_SOURCE 200809L
#include <pthread.h>

#include "unit.h"

static unit_device dev;
static ldsan_pool pool;

static ldsan_block_header *header_of(uint64_t block) {
  return (ldsan_block_header *)(uintptr_t)(block - LDSAN_BLOCK_HEADER_SIZE);
}
static uint8_t shadow_byte(uint64_t a) { return *__ldsan_shadow_of(a); }

/* Chunks waiting in class c's rings. */
static uint64_t cached(uint32_t c) { return __ldsan_block_cache_waiting(pool.heads, c); }
static int caches_empty(void) {
  for (uint32_t c = 0; c < LDSAN_POOL_CLASSES; ++c)
    if (cached(c)) return 0;
  return 1;
}

/* The whole pool in one chunk: only if every region is free. */
static int pool_all_free(void) {
  uint32_t cls, st;
  uint64_t cs, all = __ldsan_pool_alloc(&pool, pool.nregions * LDSAN_POOL_REGION_SIZE, &cls, &cs, &st);
  if (!all) return 0;
  return __ldsan_pool_free(&pool, all) == 0;
}

/* Oldest first, and only past the quarantine: with LDSAN_POOL_QUARANTINE
 * chunks waiting, none is taken. */
static void test_fifo_past_quarantine(void) {
  enum { N = LDSAN_POOL_QUARANTINE + 2 };
  uint32_t cls, st;
  uint64_t cs, chunks[N];
  for (int i = 0; i < N; ++i) chunks[i] = __ldsan_pool_alloc(&pool, 256, &cls, &cs, &st);
  CHECK_EQ(__ldsan_block_cache_pop(pool.heads, 0), 0);
  for (int i = 0; i < N; ++i) CHECK_EQ(__ldsan_block_cache_push(pool.heads, 0, chunks[i]), 1);
  CHECK_EQ(__ldsan_block_cache_pop(pool.heads, 1), 0); /* another class */
  CHECK_EQ(__ldsan_block_cache_pop(pool.heads, 0), chunks[0]);
  CHECK_EQ(__ldsan_block_cache_pop(pool.heads, 0), chunks[1]);
  CHECK_EQ(cached(0), LDSAN_POOL_QUARANTINE);
  CHECK_EQ(__ldsan_block_cache_pop(pool.heads, 0), 0); /* the rest wait */
  __ldsan_block_cache_drain(&pool);               /* takes them all */
  CHECK(caches_empty());
  CHECK_EQ(__ldsan_pool_free(&pool, chunks[0]), 0);
  CHECK_EQ(__ldsan_pool_free(&pool, chunks[1]), 0);
  CHECK(pool_all_free());
}

/* A full ring takes no more: push says so and the caller frees to the pool.
 * Its cells are reused lap after lap. */
static void test_ring_full_and_laps(void) {
  uint64_t cells = 1ull << LDSAN_POOL_RING_LOG;
  uint32_t cls, st;
  uint64_t cs, chunk = __ldsan_pool_alloc(&pool, 256, &cls, &cs, &st);
  for (uint64_t i = 0; i < cells; ++i) CHECK_EQ(__ldsan_block_cache_push(pool.heads, 0, chunk), 1);
  CHECK_EQ(__ldsan_block_cache_push(pool.heads, 0, chunk), 0);
  for (int lap = 0; lap < 3; ++lap)
    for (uint64_t i = 0; i < cells; ++i) {
      CHECK_EQ(__ldsan_block_cache_pop(pool.heads, 0), chunk);
      CHECK_EQ(__ldsan_block_cache_push(pool.heads, 0, chunk), 1);
    }
  CHECK_EQ(cached(0), cells);
  for (uint64_t i = 0; i < cells - LDSAN_POOL_QUARANTINE; ++i) CHECK_EQ(__ldsan_block_cache_pop(pool.heads, 0), chunk);
  CHECK_EQ(__ldsan_block_cache_pop(pool.heads, 0), 0);
  for (uint64_t i = 0; i < LDSAN_POOL_QUARANTINE; ++i) CHECK_EQ(__ldsan_block_cache_push(pool.heads, 0, chunk), 1);
  CHECK_EQ(cached(0), 2 * LDSAN_POOL_QUARANTINE);
  /* The ring holds one chunk many times over: the drain frees it once (the
   * pool refuses the other frees) and empties the ring. */
  __ldsan_block_cache_drain(&pool);
  CHECK(caches_empty());
  CHECK(pool_all_free());
}

/* Workgroups whose ids hash to different rings do not take each other's
 * chunks: each one's released blocks wait in its own ring, and come back to
 * it (the rings spread the atomics of a kernel's workgroups). */
static void test_workgroups_spread_over_rings(void) {
  uint32_t a = 0, b = 1; /* neighbours: different rings (sharing one, b would get a's oldest chunk) */
  uint64_t first[2];
  for (int w = 0; w < 2; ++w) {
    __ldsan_host_workgroup_id[0] = w ? b : a;
    first[w] = unit_kernel_enter(1000, 0);
    unit_kernel_exit(first[w], 0);
    for (uint32_t i = 0; i < LDSAN_POOL_QUARANTINE; ++i) unit_kernel_exit(unit_kernel_enter(1000, 0), 0);
  }
  CHECK_EQ(cached(3), 2 * (LDSAN_POOL_QUARANTINE + 1)); /* class 3: 2 KiB chunks */
  for (int w = 1; w >= 0; --w) { /* each gets its own oldest chunk back */
    __ldsan_host_workgroup_id[0] = w ? b : a;
    uint64_t again = unit_kernel_enter(1000, 0);
    CHECK_EQ(again, first[w]);
    unit_kernel_exit(again, 0);
  }
  __ldsan_host_workgroup_id[0] = 0;
  __ldsan_block_cache_drain(&pool);
  CHECK(caches_empty());
  CHECK(pool_all_free());
}

/* Releases `n` blocks of `size` bytes, each allocated and freed in turn (one
 * workgroup after another). */
static void cycle_blocks(int n, uint64_t size) {
  for (int i = 0; i < n; ++i) unit_kernel_exit(unit_kernel_enter(size, 0), 0);
}

/* A released block waits (poisoned, header intact, found by
 * __ldsan_freed_block_at) until LDSAN_POOL_QUARANTINE later releases of its
 * class; then it is the next block of its class again. */
static void test_quarantine_then_reuse(void) {
  uint64_t first = unit_kernel_enter(1000, 0);
  CHECK(first != 0);
  CHECK_EQ(header_of(first)->block_flags, LDSAN_BLOCK_KERNEL);
  unit_kernel_exit(first, 0);
  CHECK_EQ(header_of(first)->magic, 0);
  CHECK_EQ(shadow_byte(first), LDSAN_SHADOW_LDS_FREED); /* use after the workgroup: caught */
  CHECK_EQ(__ldsan_freed_block_at(first + 100), first);
  CHECK_EQ(LDSAN_OWNER_X(header_of(first)->owner), __ldsan_host_workgroup_id[0]);
  uint64_t second = unit_kernel_enter(1100, 0); /* same class (2 KiB chunks) */
  CHECK(second != 0 && second != first);
  CHECK_EQ(__ldsan_freed_block_at(second + 8), 0); /* live */
  unit_kernel_exit(second, 0);
  cycle_blocks(LDSAN_POOL_QUARANTINE - 1, 1100); /* first now has 8 behind it */
  CHECK_EQ(__ldsan_freed_block_at(first + 100), first);
  uint64_t again = unit_kernel_enter(1100, 0);
  CHECK_EQ(again, first);
  ldsan_block_header *h = header_of(again);
  CHECK_EQ(h->magic, LDSAN_BLOCK_MAGIC);
  CHECK_EQ(h->block_size, 1100);
  CHECK_EQ(h->chunk_size, 2048);
  CHECK_EQ(shadow_byte(again), 0);
  unit_kernel_exit(again, 0);
  CHECK_EQ(dev.channel->next, 0); /* no report */
  __ldsan_block_cache_drain(&pool);
  CHECK(caches_empty());
  CHECK(pool_all_free()); /* the quarantine drained too */
}

static void test_malloc_not_cached(void) {
  uint64_t m = LDSAN_ENTRY(__asan_malloc_impl)(1000, 0);
  CHECK(m != 0);
  CHECK_EQ(header_of(m)->block_flags, 0);
  LDSAN_ENTRY(__asan_free_impl)(m, 0);
  CHECK(caches_empty());
  CHECK(pool_all_free());
}

/* Blocks parked in one class's cache must not starve another class: when the
 * pool is exhausted, the caches give their chunks back and the pool retries. */
static void test_drain_when_exhausted(void) {
  uint64_t blocks[8];
  for (int i = 0; i < 8; ++i) blocks[i] = unit_kernel_enter(300000, 0); /* 512 KiB chunks: 2 regions */
  for (int i = 0; i < 8; ++i) CHECK(blocks[i] != 0);
  for (int i = 0; i < 8; ++i) unit_kernel_exit(blocks[i], 0);
  CHECK(!caches_empty());
  uint64_t big = LDSAN_ENTRY(__asan_malloc_impl)(3 * LDSAN_POOL_REGION_SIZE, 0); /* needs 3 free regions */
  CHECK(big != 0);
  CHECK(caches_empty());
  LDSAN_ENTRY(__asan_free_impl)(big, 0);
  CHECK_EQ(dev.channel->next, 0);
  CHECK(pool_all_free());
}

#define THREADS 8
#define ITERATIONS 20000
static uint32_t failures; /* atomic */

static void *workgroups(void *arg) {
  uint32_t id = (uint32_t)(uintptr_t)arg, seed = id * 2654435761u + 7u;
  uint8_t pattern = (uint8_t)(0x10 + id);
  for (int it = 0; it < ITERATIONS; ++it) {
    seed ^= seed << 13, seed ^= seed >> 17, seed ^= seed << 5;
    uint64_t size = (seed % 3u == 0) ? 100 : (seed % 3u == 1) ? 900 : 3000; /* classes 256 B, 1 KiB, 4 KiB */
    uint64_t block = unit_kernel_enter(size, 0);
    if (!block) {
      __atomic_fetch_add(&failures, 1, __ATOMIC_RELAXED);
      continue;
    }
    memset((void *)(uintptr_t)block, pattern, size);
    const uint8_t *b = (const uint8_t *)(uintptr_t)block;
    for (uint64_t i = 0; i < size; ++i)
      if (b[i] != pattern) {
        __atomic_fetch_add(&failures, 1, __ATOMIC_RELAXED);
        break;
      }
    unit_kernel_exit(block, 0);
  }
  return 0;
}

static void test_concurrent_workgroups(void) {
  pthread_t t[THREADS];
  for (uintptr_t i = 0; i < THREADS; ++i) pthread_create(&t[i], 0, workgroups, (void *)i);
  for (int i = 0; i < THREADS; ++i) pthread_join(t[i], 0);
  CHECK_EQ(failures, 0);
  CHECK_EQ(dev.channel->next, 0);
  __ldsan_block_cache_drain(&pool);
  CHECK(pool_all_free());
}

int main(void) {
  unit_device_init(&dev, UNIT_POOL_BYTES(4));
  __ldsan_pool_current(&pool);
  RUN(test_fifo_past_quarantine);
  RUN(test_ring_full_and_laps);
  RUN(test_workgroups_spread_over_rings);
  RUN(test_quarantine_then_reuse);
  RUN(test_malloc_not_cached);
  RUN(test_drain_when_exhausted);
  RUN(test_concurrent_workgroups);
  unit_device_fini(&dev);
  return unit_summary();
}
