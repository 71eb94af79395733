/* ldsan block cache: the fast path of a workgroup's LDS block. Per size class
 * a lock-free LIFO (Treiber stack) of chunks that kernel blocks of that class
 * released, in front of the pool (pool.c): taking one is one acquire load and
 * one CAS, giving it back one CAS, where the pool's path probes regions and
 * bitmaps. Chunks stay in their class until the pool runs dry; then
 * __ldsan_block_cache_drain gives them all back to the pool.
 *
 *   head (u64, one per class at the start of the pool):  | tag (32 bits) | index + 1 (32 bits) |
 *     index = (chunk - regions) / 64; 0 in the low half: empty
 *   link of a cached chunk: its header's cache_link (the header is dead while
 *     the chunk is cached: magic 0), holding the next head's low half
 *
 * A released block first waits in its class's quarantine, LDSAN_POOL_QUARANTINE
 * slots after the heads: the releasing workgroup's slot (a hash of its id) is
 * exchanged for the chunk, and the chunk it held goes to the cache. A block
 * thus stays poisoned as LDS_FREED, header intact, for several releases of its
 * class: an access through a stale pointer is reported naming the block.
 *
 * The tag changes on every successful CAS, so a head that was popped and
 * pushed back in between (ABA) does not match a stale expected value. A
 * popper may read the link of a chunk another popper already took (and may be
 * rewriting): that value is stale, and the CAS, whose expected head no longer
 * matches, fails. Orders, at device scope: a push's CAS releases (the chunk's
 * shadow, header and link, written before it, happen-before...), a pop's head
 * load and CAS acquire (...the popper's reads of the link and its use of the
 * chunk); the quarantine exchange is acq_rel (it both gives a chunk and takes
 * the one it displaces). The TSan builds of test_block_cache.c and test_pool_concurrency.c check these orders. */
#include "runtime.h"

#define INDEX_MASK 0xffffffffull
#define TAG_ONE (1ull << 32)

/* A chunk's 32-bit name in heads and quarantine slots: index + 1 (0: none). */
static uint64_t name_of(const ldsan_pool *p, uint64_t chunk) { return ((chunk - p->regions) >> 6) + 1u; }
static uint64_t chunk_named(const ldsan_pool *p, uint64_t name) { return p->regions + ((name - 1u) << 6); }

static LDSAN_GLOBAL uint64_t *link_of(uint64_t chunk) {
  return &((LDSAN_GLOBAL ldsan_block_header *)(uintptr_t)chunk)->cache_link;
}

uint64_t __ldsan_block_cache_pop(const ldsan_pool *p, uint32_t c) {
  LDSAN_GLOBAL uint64_t *head = &p->heads[c];
  uint64_t h = __ldsan_uniform_u64(__ldsan_load_acquire_u64(head, LDSAN_SCOPE_DEVICE));
  while (h & INDEX_MASK) {
    uint64_t chunk = chunk_named(p, h & INDEX_MASK);
    uint64_t next = __ldsan_uniform_u64(__ldsan_load_relaxed_u64(link_of(chunk), LDSAN_SCOPE_DEVICE)) & INDEX_MASK;
    uint64_t seen =
        __ldsan_uniform_u64(__ldsan_atomic_cas_acquire_u64(head, h, ((h & ~INDEX_MASK) + TAG_ONE) | next,
                                                           LDSAN_SCOPE_DEVICE));
    if (seen == h) return chunk;
    h = seen;
  }
  return 0;
}

void __ldsan_block_cache_push(const ldsan_pool *p, uint32_t c, uint64_t chunk) {
  LDSAN_GLOBAL uint64_t *head = &p->heads[c];
  uint64_t name = name_of(p, chunk);
  /* Relaxed: only the CAS below needs ordering (release: the chunk's shadow,
   * header and link happen-before the popper's acquire). */
  uint64_t h = __ldsan_uniform_u64(__ldsan_load_relaxed_u64(head, LDSAN_SCOPE_DEVICE));
  for (;;) {
    __ldsan_store_relaxed_u64(link_of(chunk), h & INDEX_MASK, LDSAN_SCOPE_DEVICE);
    uint64_t seen =
        __ldsan_uniform_u64(__ldsan_atomic_cas_release_u64(head, h, ((h & ~INDEX_MASK) + TAG_ONE) | name,
                                                           LDSAN_SCOPE_DEVICE));
    if (seen == h) return;
    h = seen;
  }
}

static LDSAN_GLOBAL uint64_t *quarantine_of(const ldsan_pool *p, uint32_t c) {
  return p->heads + 16 + (uint64_t)c * LDSAN_POOL_QUARANTINE;
}

void __ldsan_block_cache_release(const ldsan_pool *p, uint32_t c, uint64_t chunk) {
  LDSAN_GLOBAL uint64_t *slot = quarantine_of(p, c) + (__ldsan_workgroup_hash() >> 29); /* top bits: one of 8 */
  uint64_t old = __ldsan_uniform_u64(__ldsan_atomic_exchange_u64(slot, name_of(p, chunk), LDSAN_SCOPE_DEVICE));
  if (old) __ldsan_block_cache_push(p, c, chunk_named(p, old));
}

void __ldsan_block_cache_drain(const ldsan_pool *p) {
  for (uint32_t c = 0; c < LDSAN_POOL_CLASSES; ++c) {
    for (uint32_t k = 0; k < LDSAN_POOL_QUARANTINE; ++k) {
      uint64_t old = __ldsan_uniform_u64(__ldsan_atomic_exchange_u64(quarantine_of(p, c) + k, 0, LDSAN_SCOPE_DEVICE));
      if (old) (void)__ldsan_pool_free(p, chunk_named(p, old));
    }
    for (uint64_t chunk; (chunk = __ldsan_block_cache_pop(p, c)) != 0;) (void)__ldsan_pool_free(p, chunk);
  }
}
