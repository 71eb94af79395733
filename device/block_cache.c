/* ldsan block cache: the fast path of a workgroup's LDS block. Per size class
 * a lock-free LIFO (Treiber stack) of chunks that kernel blocks of that class
 * released, in front of the pool (pool.c): taking one is one acquire load and
 * one CAS, giving it back one CAS, where the pool's path probes regions and
 * bitmaps. Chunks stay in their class until the pool runs dry; then
 * __ldsan_block_cache_drain gives them all back to the pool.
 *
 *   head (u64, in the pool's first 128 bytes):  | tag (32 bits) | index + 1 (32 bits) |
 *     index = (chunk - regions) / 64; 0 in the low half: empty
 *   link of a cached chunk: its header's reserved2[0] (the header is dead while
 *     the chunk is cached: magic 0), holding the next head's low half
 *
 * The tag changes on every successful CAS, so a head that was popped and
 * pushed back in between (ABA) does not match a stale expected value. A
 * popper may read the link of a chunk another popper already took (and may be
 * rewriting): that value is stale, and the CAS, whose expected head no longer
 * matches, fails. All CASes are acq_rel at device scope: a chunk's shadow and
 * header, written by its last owner, happen-before its next owner's use. */
#include "runtime.h"

#define INDEX_MASK 0xffffffffull
#define TAG_ONE (1ull << 32)

static uint64_t *link_of(uint64_t chunk) {
  return &((ldsan_block_header *)(uintptr_t)chunk)->reserved2[0];
}

uint64_t __ldsan_block_cache_pop(const ldsan_pool *p, uint32_t c) {
  uint64_t *head = &p->heads[c];
  uint64_t h = __ldsan_load_acquire_u64(head, LDSAN_SCOPE_DEVICE);
  while (h & INDEX_MASK) {
    uint64_t chunk = p->regions + (((h & INDEX_MASK) - 1u) << 6);
    uint64_t next = __ldsan_load_relaxed_u64(link_of(chunk), LDSAN_SCOPE_DEVICE) & INDEX_MASK;
    uint64_t seen = __ldsan_atomic_cas_u64(head, h, ((h & ~INDEX_MASK) + TAG_ONE) | next, LDSAN_SCOPE_DEVICE);
    if (seen == h) return chunk;
    h = seen;
  }
  return 0;
}

void __ldsan_block_cache_push(const ldsan_pool *p, uint32_t c, uint64_t chunk) {
  uint64_t *head = &p->heads[c];
  uint64_t index = ((chunk - p->regions) >> 6) + 1u;
  uint64_t h = __ldsan_load_acquire_u64(head, LDSAN_SCOPE_DEVICE);
  for (;;) {
    __ldsan_store_relaxed_u64(link_of(chunk), h & INDEX_MASK, LDSAN_SCOPE_DEVICE);
    uint64_t seen = __ldsan_atomic_cas_u64(head, h, ((h & ~INDEX_MASK) + TAG_ONE) | index, LDSAN_SCOPE_DEVICE);
    if (seen == h) return;
    h = seen;
  }
}

void __ldsan_block_cache_drain(const ldsan_pool *p) {
  for (uint32_t c = 0; c < LDSAN_POOL_CLASSES; ++c)
    for (uint64_t chunk; (chunk = __ldsan_block_cache_pop(p, c)) != 0;) (void)__ldsan_pool_free(p, chunk);
}
