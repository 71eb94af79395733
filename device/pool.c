/* ldsan pool: the lock-free allocator behind every LDS block and device malloc.
 * Concurrent from any number of work-items of any workgroups; bounded memory
 * (the pool itself, zero-initialized, holds all bookkeeping); no locks, so a
 * wave whose lanes allocate together cannot deadlock on itself.
 *
 * Layout of a pool [base, base+size), base rounded up to 64, at most
 * LDSAN_POOL_MAX_BYTES of it used:
 *
 *   | heads | cells | rec 0 | ... | rec m-1 | region 0 (1 MiB) | region 1 | ... | region n-1 | slack |
 *     8 KiB: block cache counters, the prepared flag (block_cache.c)
 *             block cache cells: LDSAN_POOL_CLASSES x LDSAN_POOL_SHARDS rings of 2^LDSAN_POOL_RING_LOG words
 *                     576 B records: state word + chunk bitmap   chunks of one size class each
 *
 *   m = (bytes after the cells) / 1 MiB records: one per region and a few
 *   spare, so that finding the regions takes shifts, no division.
 *
 *   state word, changed only by CAS:   | live (32 bits) | tag (32 bits) |
 *     tag 0            FREE (live 0): any class may take the region
 *     tag 1..13        size class c = tag-1, chunks of 256 << c bytes, live = chunks out
 *     tag LARGE_HEAD   first of k contiguous regions of one chunk > 1 MiB, live = k
 *     tag LARGE_TAIL   the other k-1 regions of that chunk
 *
 *   region of class c: | chunk 0 | chunk 1 | ... | chunk N-1 |    N = 1 MiB >> (8 + c)
 *   bitmap bit i set  <=>  chunk i is handed out
 *
 * Before its first chunk is handed out, a pool's whole memory (heads, cells,
 * records, regions) is poisoned as LDS_STORE (__ldsan_pool_prepare, once): memory no
 * block holds, and the bookkeeping, are caught by the accesses that stray
 * there (a far underflow, an overflow far past a block) instead of silently
 * rewriting the allocator. Blocks unpoison what they hand out.
 *
 * alloc(bytes), class c = smallest with 256 << c >= bytes:
 *   1. reserve: CAS live+1 on a region tagged c with live < N, else CAS a FREE
 *      region to {c, live 1}. A reservation guarantees a clear bit (below).
 *   2. claim: fetch_or a clear bit; whoever saw it clear owns that chunk.
 *   If nothing can be reserved, back off (other workgroups free) and retry, at
 *   most LDSAN_POOL_MAX_TRIES times; then the caller reports exhaustion.
 *   bytes > 1 MiB: CAS k contiguous FREE regions to HEAD{k}, TAIL, ... in
 *   order; on a conflict store back FREE into those taken and look further.
 * free(chunk): fetch_and its bit clear (it must have been set), then CAS
 *   live-1; the CAS taking live to 0 also writes FREE, so an empty region goes
 *   back to every class. Alloc counts before setting its bit and free clears
 *   its bit before counting, so bits set <= live at every instant: a reserved
 *   allocator always has a clear bit to find.
 * ABA on a state word is harmless: the word alone says what the region is.
 * All RMWs are acq_rel at device scope: a chunk's contents (header, shadow
 * written by its last owner) happen-before its next owner's use. */
#include "runtime.h"

#define REGION_LOG 20u
#define MIN_CHUNK_LOG 8u
#define CLASS_COUNT (REGION_LOG - MIN_CHUNK_LOG + 1u) /* 256 B .. 1 MiB */
#define BITMAP_WORDS (LDSAN_POOL_REGION_SIZE / LDSAN_POOL_MIN_CHUNK / 64u)

#define TAG_FREE 0u
#define PREPARED_FLAG 1000u /* heads[1000]: 0 new, 1 being poisoned, 2 prepared */
#define TAG_LARGE_HEAD 0x100u
#define TAG_LARGE_TAIL 0x101u
#define LIVE_ONE (1ull << 32)

_Static_assert(LDSAN_POOL_REGION_SIZE == 1ull << REGION_LOG, "region size");
_Static_assert(LDSAN_POOL_MIN_CHUNK == 1u << MIN_CHUNK_LOG, "min chunk");
_Static_assert(PREPARED_FLAG >= 8u * LDSAN_POOL_CLASSES * LDSAN_POOL_SHARDS && PREPARED_FLAG < LDSAN_POOL_HEADS_SIZE / 8u,
               "the flag word follows the block cache counters (8 words per ring)");
_Static_assert(LDSAN_POOL_HEADS_SIZE % 64u == 0, "cells and records stay 64-byte aligned");

struct ldsan_region {
  uint64_t state;                /* tag | live << 32 */
  uint64_t bitmap[BITMAP_WORDS]; /* chunks handed out (small classes) */
  uint64_t pad[7];               /* keeps records 64-byte sized, so regions stay aligned */
};
_Static_assert(sizeof(struct ldsan_region) == LDSAN_POOL_RECORD_SIZE, "region record size");
_Static_assert(LDSAN_POOL_RECORD_SIZE % 64 == 0, "records keep regions 64-byte aligned");

static uint64_t make_state(uint32_t tag, uint32_t live) { return (uint64_t)live << 32 | tag; }
static uint32_t state_tag(uint64_t s) { return (uint32_t)s; }
static uint32_t state_live(uint64_t s) { return (uint32_t)(s >> 32); }
static uint32_t chunks_in(uint32_t c) { return (uint32_t)(LDSAN_POOL_REGION_SIZE >> (MIN_CHUNK_LOG + c)); }

void __ldsan_pool_view(uint64_t base, uint64_t size, ldsan_pool *out) {
  uint64_t aligned = (uint64_t)(uintptr_t)__ldsan_pool_heads(base);
  uint64_t usable = size > aligned - base ? size - (aligned - base) : 0;
  if (usable > LDSAN_POOL_MAX_BYTES) usable = LDSAN_POOL_MAX_BYTES;
  uint64_t fixed = LDSAN_POOL_FIXED_BYTES;
  uint64_t avail = usable > fixed ? usable - fixed : 0;
  uint64_t records = avail >> 20; /* >= the regions that fit after them */
  out->heads = (LDSAN_GLOBAL uint64_t *)(uintptr_t)aligned;
  out->meta = (LDSAN_GLOBAL struct ldsan_region *)(uintptr_t)(aligned + fixed);
  /* Regions start 64 bytes before a 4 KiB boundary: a chunk of size S
   * (a power of two) then starts S - 64 past a multiple of min(S, 4 KiB),
   * so the block after its 64-byte header is aligned to min(S, 4 KiB). A
   * block holds its most aligned variable past the pointer slot at offset
   * 0, so its chunk exceeds that alignment: every LDS variable gets the
   * alignment it asks for (up to 4 KiB), wherever the store happens to be. */
  uint64_t first = aligned + fixed + records * sizeof(struct ldsan_region);
  uint64_t regions = ((first + LDSAN_BLOCK_HEADER_SIZE + LDSAN_POOL_REGION_ALIGN - 1) &
                      ~(uint64_t)(LDSAN_POOL_REGION_ALIGN - 1)) - LDSAN_BLOCK_HEADER_SIZE;
  uint64_t end = aligned + usable;
  out->regions = regions;
  out->nregions = end > regions ? (end - regions) >> 20 : 0;
}

void __ldsan_pool_store(uint64_t *base, uint64_t *size) {
  const LDSAN_CONSTANT ldsan_device_state *state = __ldsan_state();
  *base = state->pool_base; /* the built-in pool unless the host gave a store (state.c) */
  *size = state->pool_size;
}

void __ldsan_pool_current(ldsan_pool *out) {
  uint64_t base, size;
  __ldsan_pool_store(&base, &size);
  __ldsan_pool_view(base, size, out);
}

int __ldsan_pool_prepared(const ldsan_pool *p) {
  return __ldsan_uniform_u64(__ldsan_load_acquire_u64(&p->heads[PREPARED_FLAG], LDSAN_SCOPE_DEVICE)) == 2u;
}

void __ldsan_pool_prepare(const ldsan_pool *p) {
  LDSAN_GLOBAL uint64_t *flag = &p->heads[PREPARED_FLAG];
  if (__ldsan_uniform_u64(__ldsan_atomic_cas_u64(flag, 0, 1, LDSAN_SCOPE_DEVICE)) == 0) {
    uint64_t base = (uint64_t)(uintptr_t)p->heads;
    __ldsan_poison(base, p->regions + p->nregions * LDSAN_POOL_REGION_SIZE - base, LDSAN_SHADOW_LDS_STORE);
    __ldsan_store_release_u64(flag, 2, LDSAN_SCOPE_DEVICE);
    return;
  }
  for (uint32_t attempt = 0; __ldsan_uniform_u64(__ldsan_load_acquire_u64(flag, LDSAN_SCOPE_DEVICE)) != 2u; ++attempt)
    __ldsan_target_backoff(attempt);
}

uint64_t __ldsan_pool_chunk_of(const ldsan_pool *p, uint64_t addr) {
  if (!__ldsan_pool_holds(p, addr)) return 0;
  uint64_t off = addr - p->regions, r = off >> REGION_LOG;
  uint32_t tag = state_tag(__ldsan_load_acquire_u64(&p->meta[r].state, LDSAN_SCOPE_DEVICE));
  if (tag >= 1u && tag <= CLASS_COUNT) {
    uint32_t shift = MIN_CHUNK_LOG + tag - 1u;
    return p->regions + ((off >> shift) << shift);
  }
  while (tag == TAG_LARGE_TAIL && r > 0)
    tag = state_tag(__ldsan_load_acquire_u64(&p->meta[--r].state, LDSAN_SCOPE_DEVICE));
  return tag == TAG_LARGE_HEAD ? p->regions + r * LDSAN_POOL_REGION_SIZE : 0;
}

uint64_t __ldsan_pool_chunk_size(const ldsan_pool *p, uint64_t chunk, uint32_t *size_class) {
  if (!__ldsan_pool_holds(p, chunk)) return 0;
  uint64_t off = chunk - p->regions, r = off >> REGION_LOG;
  uint64_t s = __ldsan_uniform_u64(__ldsan_load_acquire_u64(&p->meta[r].state, LDSAN_SCOPE_DEVICE));
  uint32_t tag = state_tag(s);
  if (tag >= 1u && tag <= CLASS_COUNT) {
    uint32_t shift = MIN_CHUNK_LOG + tag - 1u;
    if (off & ((1ull << shift) - 1u)) return 0;
    *size_class = tag - 1u;
    return 1ull << shift;
  }
  if (tag != TAG_LARGE_HEAD || (off & (LDSAN_POOL_REGION_SIZE - 1u))) return 0;
  *size_class = LDSAN_POOL_LARGE_CLASS;
  return (uint64_t)state_live(s) * LDSAN_POOL_REGION_SIZE;
}

int __ldsan_pool_holds(const ldsan_pool *p, uint64_t addr) {
  return addr >= p->regions && addr - p->regions < p->nregions * LDSAN_POOL_REGION_SIZE;
}

uint32_t __ldsan_pool_class_of(uint64_t bytes) {
  if (bytes <= LDSAN_POOL_MIN_CHUNK) return 0;
  return 64u - (uint32_t)__builtin_clzll(bytes - 1u) - MIN_CHUNK_LOG;  /* ceil(log2(bytes)) - 8 */
}

uint32_t __ldsan_workgroup_hash(void) {
  return __ldsan_workgroup_id_x() * 0x9E3779B1u ^ __ldsan_workgroup_id_y() * 0x85EBCA77u ^
         __ldsan_workgroup_id_z() * 0xC2B2AE3Du;
}

/* Returns a region index with one chunk of class c reserved for the caller, or
 * p->nregions if none: first a partly used region of class c, then a free one. */
static uint64_t reserve_region(const ldsan_pool *p, uint32_t c, uint32_t hint) {
  uint32_t n = (uint32_t)p->nregions; /* at most 2^18 (LDSAN_POOL_MAX_BYTES) */
  uint32_t tag = c + 1u, cap = chunks_in(c), start = hint % n;
  /* Each pass visits every region once, from start on (no division per step). */
  for (uint32_t i = 0, r = start; i < n; ++i, r = r + 1u == n ? 0 : r + 1u) {
    uint64_t s = __ldsan_uniform_u64(__ldsan_load_acquire_u64(&p->meta[r].state, LDSAN_SCOPE_DEVICE));
    while (state_tag(s) == tag && state_live(s) < cap) {
      uint64_t seen =
          __ldsan_uniform_u64(__ldsan_atomic_cas_u64(&p->meta[r].state, s, s + LIVE_ONE, LDSAN_SCOPE_DEVICE));
      if (seen == s) return r;
      s = seen;
    }
  }
  const uint64_t free_state = make_state(TAG_FREE, 0);
  for (uint32_t i = 0, r = start; i < n; ++i, r = r + 1u == n ? 0 : r + 1u) {
    if (__ldsan_uniform_u64(__ldsan_load_acquire_u64(&p->meta[r].state, LDSAN_SCOPE_DEVICE)) == free_state &&
        __ldsan_uniform_u64(__ldsan_atomic_cas_u64(&p->meta[r].state, free_state, make_state(tag, 1),
                                                   LDSAN_SCOPE_DEVICE)) == free_state)
      return r;
  }
  return n;
}

/* Returns the address of a chunk claimed in region r, where the caller holds a
 * reservation: a clear bit exists at every instant, so the scan terminates. */
static uint64_t claim_chunk(const ldsan_pool *p, uint64_t r, uint32_t c, uint32_t hint) {
  uint32_t cap = chunks_in(c), words = (cap + 63u) / 64u; /* a power of two */
  uint64_t last_mask = cap % 64u ? (1ull << (cap % 64u)) - 1u : ~0ull;
  LDSAN_GLOBAL uint64_t *bitmap = p->meta[r].bitmap;
  for (;;) {
    for (uint32_t i = 0; i < words; ++i) {
      uint32_t w = (hint + i) & (words - 1u);
      uint64_t mask = w == words - 1u ? last_mask : ~0ull;
      uint64_t clear = ~__ldsan_uniform_u64(__ldsan_load_acquire_u64(&bitmap[w], LDSAN_SCOPE_DEVICE)) & mask;
      while (clear) {
        uint64_t bit = clear & (~clear + 1u);
        uint64_t old = __ldsan_uniform_u64(__ldsan_atomic_or_u64(&bitmap[w], bit, LDSAN_SCOPE_DEVICE));
        if (!(old & bit)) {
          uint64_t index = (uint64_t)w * 64u + (uint64_t)__builtin_ctzll(bit);
          return p->regions + r * LDSAN_POOL_REGION_SIZE + (index << (MIN_CHUNK_LOG + c));
        }
        clear = ~old & mask;
      }
    }
  }
}

/* Returns the first of k contiguous regions taken as one chunk, or 0. */
static uint64_t alloc_large(const ldsan_pool *p, uint64_t k) {
  for (uint64_t i = 0; i + k <= p->nregions;) {
    uint64_t taken = 0;
    for (; taken < k; ++taken) {
      uint64_t want = taken == 0 ? make_state(TAG_LARGE_HEAD, (uint32_t)k) : make_state(TAG_LARGE_TAIL, 0);
      if (__ldsan_uniform_u64(__ldsan_atomic_cas_u64(&p->meta[i + taken].state, make_state(TAG_FREE, 0), want,
                                 LDSAN_SCOPE_DEVICE)) != make_state(TAG_FREE, 0))
        break;
    }
    if (taken == k) return p->regions + i * LDSAN_POOL_REGION_SIZE;
    for (uint64_t j = 0; j < taken; ++j)
      __ldsan_store_release_u64(&p->meta[i + j].state, make_state(TAG_FREE, 0), LDSAN_SCOPE_DEVICE);
    i += taken + 1; /* region i + taken is in use: no window through it fits */
  }
  return 0;
}

uint64_t __ldsan_pool_alloc(const ldsan_pool *p, uint64_t bytes, uint32_t *size_class,
                            uint64_t *chunk_size, uint32_t *status) {
  uint64_t k = 0; /* regions of a large chunk, 0 for a small one */
  uint32_t c = 0;
  if (bytes > LDSAN_POOL_REGION_SIZE) {
    k = bytes / LDSAN_POOL_REGION_SIZE + (bytes % LDSAN_POOL_REGION_SIZE != 0);
    if (k > p->nregions) {
      *status = LDSAN_POOL_TOO_LARGE;
      return 0;
    }
  } else if (p->nregions == 0) {
    *status = LDSAN_POOL_TOO_LARGE;
    return 0;
  } else {
    c = __ldsan_pool_class_of(bytes);
  }
  uint32_t hint = __ldsan_workgroup_hash(); /* spreads workgroups over regions and bitmap words */
  for (uint32_t attempt = 0; attempt < LDSAN_POOL_MAX_TRIES; ++attempt) {
    if (k) {
      uint64_t chunk = alloc_large(p, k);
      if (chunk) {
        *size_class = LDSAN_POOL_LARGE_CLASS;
        *chunk_size = k * LDSAN_POOL_REGION_SIZE;
        *status = LDSAN_POOL_OK;
        return chunk;
      }
    } else {
      uint64_t r = reserve_region(p, c, hint);
      if (r < p->nregions) {
        *size_class = c;
        *chunk_size = (uint64_t)LDSAN_POOL_MIN_CHUNK << c;
        *status = LDSAN_POOL_OK;
        return claim_chunk(p, r, c, hint);
      }
    }
    __ldsan_target_backoff(attempt);
  }
  *status = LDSAN_POOL_EXHAUSTED;
  return 0;
}

int __ldsan_pool_free(const ldsan_pool *p, uint64_t chunk) {
  if (!__ldsan_pool_holds(p, chunk)) return -1;
  uint64_t r = (chunk - p->regions) >> REGION_LOG;
  uint64_t offset = (chunk - p->regions) & (LDSAN_POOL_REGION_SIZE - 1u);
  LDSAN_GLOBAL struct ldsan_region *region = &p->meta[r];
  uint64_t s = __ldsan_uniform_u64(__ldsan_load_acquire_u64(&region->state, LDSAN_SCOPE_DEVICE));
  uint32_t tag = state_tag(s);
  if (tag == TAG_LARGE_HEAD) {
    if (offset != 0) return -1;
    /* The caller owns the chunk (the block layer's magic CAS): plain release stores. */
    for (uint64_t j = state_live(s); j-- > 1;)
      __ldsan_store_release_u64(&p->meta[r + j].state, make_state(TAG_FREE, 0), LDSAN_SCOPE_DEVICE);
    __ldsan_store_release_u64(&region->state, make_state(TAG_FREE, 0), LDSAN_SCOPE_DEVICE);
    return 0;
  }
  if (tag == TAG_FREE || tag > CLASS_COUNT) return -1;
  uint32_t c = tag - 1u;
  if (offset & (((uint64_t)LDSAN_POOL_MIN_CHUNK << c) - 1u)) return -1;
  uint64_t index = offset >> (MIN_CHUNK_LOG + c);
  uint64_t bit = 1ull << (index % 64u);
  if (!(__ldsan_uniform_u64(__ldsan_atomic_and_u64(&region->bitmap[index / 64u], ~bit, LDSAN_SCOPE_DEVICE)) & bit))
    return -1; /* not handed out */
  /* Our chunk kept live >= 1, so the tag cannot have changed under us. */
  for (;;) {
    uint64_t next = state_live(s) == 1u ? make_state(TAG_FREE, 0) : s - LIVE_ONE;
    uint64_t seen = __ldsan_uniform_u64(__ldsan_atomic_cas_u64(&region->state, s, next, LDSAN_SCOPE_DEVICE));
    if (seen == s) return 0;
    s = seen;
  }
}
