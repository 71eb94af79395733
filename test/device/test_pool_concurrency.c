/* Concurrency smoke test of device/pool.c and device malloc: threads acting as
 * workgroups hammer alloc/free with mixed size classes; each fills its chunk
 * with its own pattern and checks it later, so two owners of overlapping
 * memory are caught. At the end every region must be free again. All threads
 * start at the same region and bitmap word, and never yield, to make races
 * likely (a claim that ignores fetch_or's old bit fails here ~5 runs in 6). */
#define _POSIX_C_SOURCE 200809L
#include <pthread.h>

#include "unit.h"

#define THREADS 8
#define ITERATIONS 20000
#define HELD 4 /* chunks a thread holds at once */

static unit_device dev;
static ldsan_pool pool;
static uint32_t failures; /* atomic: allocations that failed or overlapped */

/* xorshift: a per-thread size sequence. */
static uint32_t next_rand(uint32_t *s) {
  *s ^= *s << 13;
  *s ^= *s >> 17;
  *s ^= *s << 5;
  return *s;
}

static void fill(uint64_t p, uint64_t n, uint8_t v) { memset((void *)(uintptr_t)p, v, n); }

static int intact(uint64_t p, uint64_t n, uint8_t v) {
  const uint8_t *b = (const uint8_t *)(uintptr_t)p;
  for (uint64_t i = 0; i < n; ++i)
    if (b[i] != v) return 0;
  return 1;
}

/* A chunk a thread holds: from device malloc (a block) or straight from the pool. */
typedef struct held_chunk {
  uint64_t addr, size;
  int via_malloc;
} held_chunk;

/* Checks the owner's pattern is intact, then gives the chunk back. */
static void release(held_chunk *h, uint8_t pattern) {
  if (!intact(h->addr, h->size, pattern)) __atomic_fetch_add(&failures, 1, __ATOMIC_RELAXED);
  if (h->via_malloc)
    LDSAN_ENTRY(__asan_free_impl)(h->addr, 0);
  else if (__ldsan_pool_free(&pool, h->addr) != 0)
    __atomic_fetch_add(&failures, 1, __ATOMIC_RELAXED);
  h->addr = 0;
}

static void *hammer(void *arg) {
  uint32_t id = (uint32_t)(uintptr_t)arg, seed = id * 2654435761u + 1u;
  uint8_t pattern = (uint8_t)(id + 1);
  __ldsan_host_workgroup_id[0] = 0; /* one start point: threads contend on the same bitmap words */
  held_chunk held[HELD] = {{0, 0, 0}};
  for (int it = 0; it < ITERATIONS; ++it) {
    held_chunk *h = &held[it % HELD];
    if (h->addr) release(h, pattern);
    /* Sizes across nine classes: 256 B .. 64 KiB, mostly small. */
    h->size = 64u + (next_rand(&seed) % 4u == 0 ? next_rand(&seed) % 60000u : next_rand(&seed) % 900u);
    h->via_malloc = it & 1;
    if (h->via_malloc) {
      h->addr = LDSAN_ENTRY(__asan_malloc_impl)(h->size, 0);
    } else {
      uint32_t cls, st;
      uint64_t cs;
      h->addr = __ldsan_pool_alloc(&pool, h->size, &cls, &cs, &st);
    }
    if (!h->addr) {
      __atomic_fetch_add(&failures, 1, __ATOMIC_RELAXED);
      continue;
    }
    fill(h->addr, h->size, pattern);
  }
  for (int i = 0; i < HELD; ++i)
    if (held[i].addr) release(&held[i], pattern);
  return 0;
}

static void test_hammer(void) {
  pthread_t t[THREADS];
  for (uintptr_t i = 0; i < THREADS; ++i) pthread_create(&t[i], 0, hammer, (void *)i);
  for (int i = 0; i < THREADS; ++i) pthread_join(t[i], 0);
  CHECK_EQ(failures, 0);
  CHECK_EQ(dev.channel->next, 0); /* no report: no exhaustion, no bad free */
  uint32_t cls, st;
  uint64_t cs;
  uint64_t all = __ldsan_pool_alloc(&pool, pool.nregions * LDSAN_POOL_REGION_SIZE, &cls, &cs, &st);
  CHECK(all != 0); /* every region went back to FREE */
  CHECK_EQ(__ldsan_pool_free(&pool, all), 0);
}

int main(void) {
  unit_device_init(&dev, UNIT_POOL_BYTES(16));
  __ldsan_pool_current(&pool);
  RUN(test_hammer);
  unit_device_fini(&dev);
  return unit_summary();
}
