/* ldsan device runtime: internal interfaces, grouped by the file that defines
 * them. Portable C: builds for amdgcn and for the host unit tests. Names:
 * __ldsan_* internal, __asan_* only the compiler ABI (entry_points.h). */
#ifndef LDSAN_DEVICE_RUNTIME_H
#define LDSAN_DEVICE_RUNTIME_H

#include <stddef.h>
#include <stdint.h>

#include <ldsan/abi.h>

#include "atomics.h"
#include "target.h"

/* Every ABI entry point: visible (so llvm-link and the host loader see it) and
 * never inlined (its return address is the instrumented caller). */
#define LDSAN_EXPORT __attribute__((visibility("default")))
#define LDSAN_ENTRY_FN __attribute__((visibility("default"), noinline))

/* Byte offset of hidden_group_size_{x,y,z} (u16 each) in the implicit arguments, code object v5. */
#define LDSAN_IMPLICITARG_GROUP_SIZE 12u

/* The dispatch's workgroup size in x, y, z (each at least 1). */
static inline void __ldsan_group_size(uint32_t d[3]) {
  const LDSAN_GLOBAL uint16_t *gs =
      (const LDSAN_GLOBAL uint16_t *)(uintptr_t)(__ldsan_implicitarg_ptr() + LDSAN_IMPLICITARG_GROUP_SIZE);
  for (int i = 0; i < 3; i++) d[i] = gs[i] ? gs[i] : 1u;
}

/* ---- state.c: the per-code-object globals ---------------------------------- */
/* Volatile: the host may rewrite it between dispatches; never fold its initializer. */
extern LDSAN_EXPORT volatile LDSAN_GLOBAL ldsan_device_state __ldsan_device_state;
extern LDSAN_EXPORT LDSAN_GLOBAL ldsan_report_channel __ldsan_builtin_channel;
extern LDSAN_EXPORT LDSAN_GLOBAL uint8_t __ldsan_builtin_pool[LDSAN_BUILTIN_POOL_SIZE];
/* The state as a dispatch sees it: not volatile (within a dispatch the host
 * leaves it alone), in the constant address space, so its fields are scalar
 * loads the compiler may share and hoist. */
static inline const LDSAN_CONSTANT ldsan_device_state *__ldsan_state(void) {
  return (const LDSAN_CONSTANT ldsan_device_state *)(uintptr_t)&__ldsan_device_state;
}

/* ---- shadow.c: ASan shadow poisoning and checks ----------------------------- */
/* Marks [addr, addr+size) with `value` (ASan rules for partial granules).
 * Every active lane of the wave passes the same range (and shares the work). */
void __ldsan_poison(uint64_t addr, uint64_t size, uint8_t value);
/* Makes [addr, addr+size) addressable (ASan rules for partial granules); same contract. */
void __ldsan_unpoison(uint64_t addr, uint64_t size);
/* The same for lanes that may pass different ranges (the ABI's entry points). */
void __ldsan_poison_lanes(uint64_t addr, uint64_t size, uint8_t value);
void __ldsan_unpoison_lanes(uint64_t addr, uint64_t size);

/* 16 bytes, stored as one (global_store_dwordx4 on amdgcn). */
typedef uint64_t ldsan_u64x2 __attribute__((vector_size(16)));

/* Fills shadow bytes [s, e) with v, shared by the active lanes of the wave
 * (target.h): the 16-byte aligned units between go round the lanes, unit i
 * to rank i mod count, and so do the bytes before the first unit and after
 * the last (64 lanes write the 5 KiB of shadow of a 40 KiB block in 5 stores
 * each, and either edge in one); a range of no more bytes than lanes takes a
 * byte per lane and no loop (a redzone, a block's tail). Inline: the
 * poisoning functions and a new block's shadow use it. */
static inline void __ldsan_fill_shadow(LDSAN_GLOBAL uint8_t *s, LDSAN_GLOBAL uint8_t *e, uint8_t v) {
  uint32_t rank = __ldsan_lane_rank(), count = __ldsan_lane_count();
  if (s >= e) return;
  if ((uint64_t)(e - s) <= count) { /* a byte for each of the first lanes (a redzone, a tail): no loops */
    if (rank < (uint64_t)(e - s)) s[rank] = v;
    return;
  }
  LDSAN_GLOBAL uint8_t *units = (LDSAN_GLOBAL uint8_t *)(((uintptr_t)s + 15u) & ~(uintptr_t)15u);
  if (units > e) units = e;
  uint64_t n = (uint64_t)(e - units) / 16u;
  LDSAN_GLOBAL uint8_t *units_end = units + n * 16u;
  uint32_t head = (uint32_t)(units - s), tail = (uint32_t)(e - units_end); /* each < 16 */
  for (uint32_t i = rank; i < head; i += count) s[i] = v;
  for (uint32_t i = rank; i < tail; i += count) units_end[i] = v;
  uint64_t word = 0x0101010101010101ull * v;
  ldsan_u64x2 wide = {word, word};
  for (uint64_t i = rank; i < n; i += count) *(LDSAN_GLOBAL ldsan_u64x2 *)(units + i * 16u) = wide;
}
/* Fills `units` 16-byte shadow units from s (16-aligned) with v, shared by
 * the active lanes of the wave: unit i to rank i mod count, with no loop when
 * there are no more units than lanes. A kernel's exit poisons its block's
 * shadow with it: a block is 256-aligned (LDSAN_POOL_MIN_CHUNK, pool.c), so
 * its shadow starts a unit, and a unit is 128 bytes of block. */
static inline void __ldsan_fill_shadow_units(LDSAN_GLOBAL ldsan_u64x2 *s, uint64_t units, uint8_t v) {
  uint32_t rank = __ldsan_lane_rank(), count = __ldsan_lane_count();
  uint64_t word = 0x0101010101010101ull * v;
  ldsan_u64x2 wide = {word, word};
  if (units <= count) { /* a unit for each of the first lanes: no loop */
    if (rank < units) s[rank] = wide;
    return;
  }
  for (uint64_t i = rank; i < units; i += count) s[i] = wide;
}
/* Returns 1 and the first poisoned byte and its shadow byte if [beg, beg+size)
 * has one, else 0. bad/shadow_byte may be null. */
int __ldsan_find_poisoned(uint64_t beg, uint64_t size, uint64_t *bad, uint8_t *shadow_byte);
/* Returns nonzero if an access of `size` bytes at addr touches poison. */
int __ldsan_access_is_bad(uint64_t addr, uint64_t size);

/* ---- pool.c: the LDS backing allocator ------------------------------------- */
/* One lane at a time: the allocator (pool.c, block_cache.c, block.c's block
 * paths) runs on one lane of a wave at a time: the kernel prologue and
 * epilogue call it on work-item 0 alone, device malloc and free let their
 * lanes take turns. So every value it computes is wave-uniform, and it marks
 * what it reads from shared memory so (__ldsan_uniform_*): the compiler keeps
 * the allocator in scalar registers instead of taking a kernel's VGPRs. The
 * read-only queries the report path makes from any lanes
 * (__ldsan_pool_holds, __ldsan_pool_chunk_of, __ldsan_block_lookup) do not. */
#define LDSAN_POOL_REGION_SIZE (1ull << 20) /* bytes per region */
#define LDSAN_POOL_MIN_CHUNK 256u           /* bytes of the smallest size class */
#define LDSAN_POOL_MAX_TRIES 1024u          /* allocation attempts before giving up */
#define LDSAN_POOL_LARGE_CLASS 0xffu        /* size_class of a chunk spanning whole regions */
#define LDSAN_POOL_RECORD_SIZE 576u         /* bytes of bookkeeping per region */
#define LDSAN_POOL_CLASSES 13u              /* size classes of chunks up to a region: 256 B << 0..12 */
#define LDSAN_POOL_QUARANTINE 8u            /* released blocks of a class that wait before one is reused */
#define LDSAN_POOL_HEADS_SIZE 8192u         /* bytes of counters and flags at the start of a pool */
#define LDSAN_POOL_SHARDS 8u                /* block cache rings per class (workgroups spread over them) */
#define LDSAN_POOL_RING_LOG 9u              /* cells per ring: 512 (constants keep scalar registers
                                               free in every kernel) */
#define LDSAN_POOL_MAX_BYTES (1ull << 38)   /* chunk names are 32 bits of 64-byte units */
#define LDSAN_POOL_REGION_ALIGN 4096u       /* regions start a block header before a multiple of this, so
                                               blocks are aligned as their variables ask, up to it */
/* Bytes before the region records: heads, then the cells (416 KiB). */
#define LDSAN_POOL_FIXED_BYTES \
  (LDSAN_POOL_HEADS_SIZE + ((uint64_t)LDSAN_POOL_CLASSES * LDSAN_POOL_SHARDS << (LDSAN_POOL_RING_LOG + 3u)))

struct ldsan_region;
/* A view of one pool: computed from (base, size), holds no state of its own.
 *   | heads (1 KiB) | block cache cells | region records | regions | slack |   (pool.c) */
typedef struct ldsan_pool {
  LDSAN_GLOBAL uint64_t *heads;           /* the pool's start, 64-byte aligned: block cache
                                             counters, the prepared flag; cells follow */
  LDSAN_GLOBAL struct ldsan_region *meta; /* region records */
  uint64_t regions;                       /* address of region 0 (64-byte aligned) */
  uint64_t nregions;
} ldsan_pool;

enum ldsan_pool_status { LDSAN_POOL_OK = 0, LDSAN_POOL_EXHAUSTED, LDSAN_POOL_TOO_LARGE };

/* Lays a pool over the zero-initialized memory [base, base+size). */
void __ldsan_pool_view(uint64_t base, uint64_t size, ldsan_pool *out);
/* The memory of the pool the device state selects (host-provided or built-in). */
void __ldsan_pool_store(uint64_t *base, uint64_t *size);
/* That pool. */
void __ldsan_pool_current(ldsan_pool *out);
/* The heads of the pool at base (what __ldsan_pool_view's heads would be). */
static inline LDSAN_GLOBAL uint64_t *__ldsan_pool_heads(uint64_t base) {
  return (LDSAN_GLOBAL uint64_t *)(uintptr_t)((base + 63u) & ~63ull);
}
/* Returns a 64-byte aligned chunk of at least `bytes` (and its class and real
 * size), or 0 with *status saying why. Retries with backoff while full. */
uint64_t __ldsan_pool_alloc(const ldsan_pool *p, uint64_t bytes, uint32_t *size_class,
                            uint64_t *chunk_size, uint32_t *status);
/* Returns a chunk from __ldsan_pool_alloc to the pool: 0, or -1 if it is not a live chunk. */
int __ldsan_pool_free(const ldsan_pool *p, uint64_t chunk);
/* Whether the pool was prepared (its memory poisoned) for blocks. */
int __ldsan_pool_prepared(const ldsan_pool *p);
/* Prepares the pool once: poisons all of its memory as LDS_STORE (bookkeeping
 * and regions; blocks unpoison what they hand out). Concurrent callers wait
 * until the first one is done. */
void __ldsan_pool_prepare(const ldsan_pool *p);
/* Returns nonzero if addr lies inside the pool's regions. */
int __ldsan_pool_holds(const ldsan_pool *p, uint64_t addr);
/* The start of the chunk of the pool's regions that holds addr (as the region's
 * state says now), or 0. */
uint64_t __ldsan_pool_chunk_of(const ldsan_pool *p, uint64_t addr);
/* Bytes of chunk as the pool's own bookkeeping says, with its class in
 * *size_class (LDSAN_POOL_LARGE_CLASS for a chunk of whole regions); 0 when
 * chunk is not where a chunk of the pool starts. Unlike a block header, which
 * the program can overwrite (an underflow in recover mode), the bookkeeping is
 * poisoned and far from any block. */
uint64_t __ldsan_pool_chunk_size(const ldsan_pool *p, uint64_t chunk, uint32_t *size_class);
/* The size class of a chunk of `bytes` (at most a region's size). */
uint32_t __ldsan_pool_class_of(uint64_t bytes);
/* A hash of the calling workgroup's id: where it starts probing regions. */
uint32_t __ldsan_workgroup_hash(void);

/* ---- block_cache.c: the LDS block fast path ---------------------------------- */
/* Per size class, LDSAN_POOL_SHARDS rings of kernel-block chunks released by
 * their workgroups, in front of the pool; a workgroup uses the ring of its
 * ids' sum, so workgroups finishing together spread their atomics over
 * several counters. A workgroup's block is one CAS to take and one to give
 * back once chunks of its class have been used. The ring is the quarantine:
 * a released chunk is taken again only after LDSAN_POOL_QUARANTINE later
 * releases into its ring (so a stray access to it is reported as use after
 * the workgroup exited, naming it). */
/* Both take the pool's heads alone (ldsan_pool.heads, __ldsan_pool_heads): the
 * fast path needs no more of the pool's view. */
/* Takes the oldest cached chunk of class c past the quarantine (0 if none). */
uint64_t __ldsan_block_cache_pop(LDSAN_GLOBAL uint64_t *heads, uint32_t c);
/* Caches chunk (of class c, owned by the caller, poisoned as freed): 1, or 0
 * if the ring is full (the caller gives it to the pool). */
int __ldsan_block_cache_push(LDSAN_GLOBAL uint64_t *heads, uint32_t c, uint64_t chunk);
/* Gives every cached chunk back to the pool (before declaring it exhausted). */
void __ldsan_block_cache_drain(const ldsan_pool *p);
/* Chunks waiting in class c's rings (tests and statistics). */
uint64_t __ldsan_block_cache_waiting(LDSAN_GLOBAL uint64_t *heads, uint32_t c);

/* ---- block_lookup.c: blocks looked up (block.c allocates them) --------------- */
/* The header of live block `block` of pool, or null if it is not one. The
 * block may come from another thread (reports, free): acquire its magic.
 * (A kernel's exit checks its own block with block.c's own_block.) */
static inline LDSAN_GLOBAL ldsan_block_header *__ldsan_block_lookup_in(const ldsan_pool *pool, uint64_t block) {
  if (block % LDSAN_BLOCK_HEADER_SIZE || block < LDSAN_BLOCK_HEADER_SIZE ||
      !__ldsan_pool_holds(pool, block - LDSAN_BLOCK_HEADER_SIZE))
    return 0;
  LDSAN_GLOBAL ldsan_block_header *h = (LDSAN_GLOBAL ldsan_block_header *)(uintptr_t)(block - LDSAN_BLOCK_HEADER_SIZE);
  if (__ldsan_load_acquire_u32(&h->magic, LDSAN_SCOPE_DEVICE) != LDSAN_BLOCK_MAGIC || h->self != block) return 0;
  return h;
}
/* Returns the header of the live block `block`, or null if it is not one. */
LDSAN_GLOBAL ldsan_block_header *__ldsan_block_lookup(uint64_t block);
/* The released (not yet reused) block that holds addr, or 0. */
uint64_t __ldsan_freed_block_at(uint64_t addr);

/* ---- report.c: report records ----------------------------------------------- */
/* Records one report in the channel, then traps if it aborts and the host
 * asked to halt. `flags` are ldsan_access_flags. Returns 0, so that a path
 * that gives up can end in `return __ldsan_report(...)` (a tail call: the
 * report's registers and frame are not the caller's). */
uint64_t __ldsan_report(uint32_t kind, uint64_t address, uint64_t access_address, uint64_t size,
                    uint32_t flags, uint32_t shadow_byte, uint64_t pc);
/* Reports a bad access of `size` bytes at addr (finds the first bad byte). */
void __ldsan_report_access(uint64_t addr, uint64_t size, uint32_t flags, uint64_t pc);
/* Reports the access only if it touches poison (the callback entry points). */
void __ldsan_check_access(uint64_t addr, uint64_t size, uint32_t flags, uint64_t pc);

/* ---- lds_checks.c: LDS races and uninitialized reads (-fsanitize-lds) ------ */
#define LDSAN_HZ_MAGIC 0x5A48444Cu          /* 'LDHZ' */
#define LDSAN_HZ_MAX_ITEMS 1024u            /* work-items per workgroup with an epoch slot */
/* Epochs stay below LDSAN_HZ_EPOCH_LIMIT (14 bits). The host build (unit tests
 * only) uses a small limit so its tests cross it. */
#if defined(__AMDGCN__)
#define LDSAN_HZ_EPOCH_LIMIT ((1u << 14) - 1u)
#else
#define LDSAN_HZ_EPOCH_LIMIT 40u
#endif
#define LDSAN_HZ_RUN_LIMIT (LDSAN_HZ_EPOCH_LIMIT / 2u) /* a run starting past it clears the area */
#define LDSAN_HZ_REBASED 1u                 /* run_start after a rebase; written bytes carry it */
#define LDSAN_HZ_UNINIT 4u                  /* ldsan_hz_finding.hazard: a read of unwritten LDS */
#define LDSAN_HZ_OTHER_UNKNOWN 0xffffffffu  /* ldsan_hz_finding.other: a reader not recorded */

#define LDSAN_HZ_REPORTED 8u                /* distinct hazards per run counted in one record each */
#define LDSAN_HZ_MAX_WAVES (LDSAN_HZ_MAX_ITEMS / 32u) /* waves of such a workgroup, wave32 */
/* Wave barriers a wave passed in one barrier epoch, as an entry keeps them:
 * saturating, and two accesses at the saturated count are taken as ordered. */
#define LDSAN_HZ_WAVE_SYNC_MAX 15u

/* A wave's wave barriers (llvm.amdgcn.wave.barrier) in its barrier epoch
 * `epoch` (another epoch: none yet in the caller's). */
typedef struct ldsan_hz_wave_syncs {
  uint32_t epoch, count;
} ldsan_hz_wave_syncs;

/* A wave's last barrier of one epoch parity: its epoch, the work-item that
 * noted it (+ 1) and its pc (lds_checks.c). */
typedef struct ldsan_hz_barrier {
  uint32_t epoch, item; /* item: the work-item + 1 */
  uint64_t pc;
} ldsan_hz_barrier;

/* The first 128 bytes of a block's hazard area (lds_checks.c draws the rest).
 * Written by the wave of work-item 0 before the prologue barrier (and at a
 * rebase, between two barriers); max_epoch only grows (atomic max). */
typedef struct ldsan_hz_header {
  uint32_t magic;        /* LDSAN_HZ_MAGIC once set up for `self` */
  uint32_t run_start;    /* the first epoch of the running workgroup */
  uint32_t max_epoch;    /* the highest epoch a work-item of the block reached */
  uint32_t reserved0;
  uint64_t self;         /* the block the area is of */
  uint64_t block_size;   /* its block_size (the entries' count) */
  /* The hazards this run reported, so that each is one record with the
   * run's other work-items counted in its repeats: a key (kind, pcs), taken
   * by CAS from 0, and then the record's address (1: dropped). Cleared as
   * each run starts. */
  uint32_t reported_key[LDSAN_HZ_REPORTED];
  uint64_t reported_record[LDSAN_HZ_REPORTED];
} ldsan_hz_header;
_Static_assert(sizeof(ldsan_hz_header) == 128, "hazard header size");

/* One access as the hazard check sees it. */
typedef struct ldsan_hz_access {
  uint32_t item;         /* flat work-item id + 1 */
  uint32_t epoch;        /* its barrier epoch */
  uint32_t run_start;    /* the run's first epoch: older entries are empty */
  uint32_t wave_size;
  uint32_t wave_syncs;   /* its wave's wave barriers in its epoch, up to LDSAN_HZ_WAVE_SYNC_MAX */
  int store, atomic, races, uninit;
} ldsan_hz_access;
/* What it found at one byte: hazard 0 (none), an ldsan_hazard, or LDSAN_HZ_UNINIT. */
typedef struct ldsan_hz_finding {
  uint32_t hazard, other, other_atomic; /* other: work-item + 1, LDSAN_HZ_OTHER_UNKNOWN, 0 */
} ldsan_hz_finding;

/* The area of a block of block_size bytes at block (64-aligned), and its bytes. */
uint64_t __ldsan_hz_area(uint64_t block, uint64_t block_size);
uint64_t __ldsan_hz_bytes(uint64_t block_size);
/* The entry of one byte after access a, given its entry old before; fills *f. */
uint64_t __ldsan_hz_step(uint64_t old, const ldsan_hz_access *a, ldsan_hz_finding *f);

/* A hazard report, for report.c. */
typedef struct ldsan_hz_report {
  uint32_t kind, hazard, flags, other_item, other_flags;
  uint32_t size, other_size; /* other_size 0: not known */
  uint64_t address, pc, other_pc;
} ldsan_hz_report;
/* Records hazard r (report.c); traps if it is an error and the host asked to
 * halt. Returns the published record (its writer may still add repeats to it
 * while the dispatch runs: the host reads it after), or null if dropped. */
LDSAN_GLOBAL ldsan_report_record *__ldsan_report_hazard(const ldsan_hz_report *r);

#endif /* LDSAN_DEVICE_RUNTIME_H */
