/* ldsan block cache: the fast path of a workgroup's LDS block. Per size class
 * LDSAN_POOL_SHARDS bounded FIFO rings of chunks that kernel blocks of that
 * class released, in front of the pool (pool.c): taking a chunk is one CAS,
 * giving one back is one CAS, where the pool's path probes regions and
 * bitmaps. A workgroup thus pays two global atomics for its block, an acquire
 * where it takes the chunk and a release where it gives it back, both on the
 * ring of its ids' sum (so the many workgroups of a kernel spread their
 * atomics over several counters instead of contending for two). Chunks stay
 * in their class until the pool runs dry; then __ldsan_block_cache_drain
 * gives them all back.
 *
 * A ring is also a quarantine: its oldest chunk is taken only while more
 * than LDSAN_POOL_QUARANTINE chunks wait in it, so a released block stays
 * poisoned as LDS_FREED, header intact, for at least LDSAN_POOL_QUARANTINE
 * later releases into its ring: an access through a stale pointer is
 * reported naming the block.
 *
 *   ring r = class * LDSAN_POOL_SHARDS + shard (the pool's heads, pool.c):
 *     head = heads[8r], tail = heads[8r + 1] (a 64-byte line per ring)
 *     64-bit counts of takes and gives; never wrap
 *   cells: 2^LDSAN_POOL_RING_LOG words per ring, cell of position pos: pos mod that
 *     | stamp (32 bits) | chunk name (32 bits) |   name = (chunk - heads) / 64
 *     stamp 2*lap: empty for lap (zeroed memory: empty for lap 0), 2*lap + 1: full
 *
 * (Vyukov's bounded MPMC queue with the sequence and the data in one word.)
 * give: at pos = tail, a cell empty for pos's lap: CAS tail to pos + 1, then
 *   store the cell full (release: the chunk's shadow and header, written
 *   before, happen-before its next taker's use). A full ring, or a cell its
 *   last taker has not emptied yet: the chunk goes back to the pool instead.
 * take: at pos = head, with tail - head > LDSAN_POOL_QUARANTINE, a cell full
 *   for pos's lap (acquire): CAS head to pos + 1, then store the cell empty
 *   for the next lap. The word read before the CAS is the chunk: until its
 *   taker empties it, no giver writes that cell.
 * A stale head or tail fails its CAS and the caller retries with what it saw;
 * a cell that is not yet what the position needs (a giver between its CAS and
 * its store, or a ring lapped) ends the attempt: the caller uses the pool.
 * The TSan builds of test_block_cache.c and test_pool_concurrency.c check
 * these orders. */
#include "runtime.h"

#define NAME_MASK 0xffffffffull

typedef LDSAN_GLOBAL uint64_t *heads_t; /* the pool's heads (ldsan_pool.heads) */

static uint64_t name_of(heads_t heads, uint64_t chunk) { return (chunk - (uint64_t)(uintptr_t)heads) >> 6; }
static uint64_t chunk_named(heads_t heads, uint64_t name) { return (uint64_t)(uintptr_t)heads + (name << 6); }

_Static_assert((LDSAN_POOL_SHARDS & (LDSAN_POOL_SHARDS - 1u)) == 0, "a shard is the low bits of a sum of ids");
_Static_assert(8u * LDSAN_POOL_CLASSES * LDSAN_POOL_SHARDS * 8u <= LDSAN_POOL_HEADS_SIZE, "the rings' counters fit");

/* The ring of class c that the calling workgroup uses: workgroups next to
 * each other in any dimension (those a GPU runs at the same time) use
 * different rings. */
static uint32_t ring_of(uint32_t c) {
  uint32_t shard = (__ldsan_workgroup_id_x() + __ldsan_workgroup_id_y() + __ldsan_workgroup_id_z()) & (LDSAN_POOL_SHARDS - 1u);
  return c * LDSAN_POOL_SHARDS + shard;
}

static LDSAN_GLOBAL uint64_t *head_of(heads_t heads, uint32_t r) { return heads + 8u * r; }
static LDSAN_GLOBAL uint64_t *tail_of(heads_t heads, uint32_t r) { return heads + 8u * r + 1u; }
#define CELLS (1ull << LDSAN_POOL_RING_LOG)
static LDSAN_GLOBAL uint64_t *cell_of(heads_t heads, uint32_t r, uint64_t pos) {
  return heads + LDSAN_POOL_HEADS_SIZE / 8u + (uint64_t)r * CELLS + (pos & (CELLS - 1u));
}
/* The stamps of position pos: its cell empty for its lap, and full. */
static uint32_t empty_stamp(uint64_t pos) { return (uint32_t)(pos >> LDSAN_POOL_RING_LOG) * 2u; }
static uint32_t full_stamp(uint64_t pos) { return empty_stamp(pos) + 1u; }

/* Takes the oldest chunk of ring c that waited behind more than `quarantine`
 * others, or returns 0. One exit from the loop (and from push's): the
 * compiler then lays the first attempt out straight, with no state to
 * dispatch on after it. Positions seen here differ by less than 2^31 (the
 * tail is read after the head, and a ring holds CELLS chunks): their
 * difference is taken in 32 bits. */
static uint64_t take(heads_t heads, uint32_t c, uint64_t quarantine) {
  LDSAN_GLOBAL uint64_t *head = head_of(heads, c);
  uint64_t pos = __ldsan_uniform_u64(__ldsan_load_relaxed_u64(head, LDSAN_SCOPE_DEVICE)), chunk = 0;
  for (int again = 1; again;) {
    uint64_t tail = __ldsan_uniform_u64(__ldsan_load_relaxed_u64(tail_of(heads, c), LDSAN_SCOPE_DEVICE));
    again = 0;
    if ((int32_t)(uint32_t)(tail - pos) > (int32_t)quarantine) {
      LDSAN_GLOBAL uint64_t *cell = cell_of(heads, c, pos);
      uint64_t word = __ldsan_uniform_u64(__ldsan_load_acquire_u64(cell, LDSAN_SCOPE_DEVICE)), next;
      if ((uint32_t)(word >> 32) == full_stamp(pos)) {
        next = __ldsan_uniform_u64(__ldsan_atomic_cas_relaxed_u64(head, pos, pos + 1u, LDSAN_SCOPE_DEVICE));
        if (next == pos) {
          __ldsan_store_relaxed_u64(cell, (uint64_t)empty_stamp(pos + CELLS) << 32, LDSAN_SCOPE_DEVICE);
          chunk = chunk_named(heads, word & NAME_MASK);
        }
      } else { /* its giver is not done (the head did not move: use the pool), or a stale head */
        next = __ldsan_uniform_u64(__ldsan_load_relaxed_u64(head, LDSAN_SCOPE_DEVICE));
      }
      again = next != pos;
      pos = next;
    }
  }
  return chunk;
}

uint64_t __ldsan_block_cache_pop(heads_t heads, uint32_t c) { return take(heads, ring_of(c), LDSAN_POOL_QUARANTINE); }

int __ldsan_block_cache_push(heads_t heads, uint32_t size_class, uint64_t chunk) {
  uint32_t c = ring_of(size_class);
  LDSAN_GLOBAL uint64_t *tail = tail_of(heads, c);
  uint64_t pos = __ldsan_uniform_u64(__ldsan_load_relaxed_u64(tail, LDSAN_SCOPE_DEVICE));
  int given = 0;
  for (int again = 1; again;) {
    LDSAN_GLOBAL uint64_t *cell = cell_of(heads, c, pos);
    uint64_t word = __ldsan_uniform_u64(__ldsan_load_relaxed_u64(cell, LDSAN_SCOPE_DEVICE)), next;
    if ((uint32_t)(word >> 32) == empty_stamp(pos)) {
      next = __ldsan_uniform_u64(__ldsan_atomic_cas_relaxed_u64(tail, pos, pos + 1u, LDSAN_SCOPE_DEVICE));
      if (next == pos) {
        __ldsan_store_release_u64(cell, (uint64_t)full_stamp(pos) << 32 | name_of(heads, chunk), LDSAN_SCOPE_DEVICE);
        given = 1;
      }
    } else { /* full, or its last taker is not done (the tail did not move), or a stale tail */
      next = __ldsan_uniform_u64(__ldsan_load_relaxed_u64(tail, LDSAN_SCOPE_DEVICE));
    }
    again = next != pos;
    pos = next;
  }
  return given;
}

void __ldsan_block_cache_drain(const ldsan_pool *p) {
  for (uint32_t r = 0; r < LDSAN_POOL_CLASSES * LDSAN_POOL_SHARDS; ++r)
    for (uint64_t chunk; (chunk = take(p->heads, r, 0)) != 0;) (void)__ldsan_pool_free(p, chunk);
}

uint64_t __ldsan_block_cache_waiting(heads_t heads, uint32_t c) {
  uint64_t n = 0;
  for (uint32_t r = c * LDSAN_POOL_SHARDS; r < (c + 1u) * LDSAN_POOL_SHARDS; ++r)
    n += __ldsan_load_relaxed_u64(tail_of(heads, r), LDSAN_SCOPE_DEVICE) -
         __ldsan_load_relaxed_u64(head_of(heads, r), LDSAN_SCOPE_DEVICE);
  return n;
}
