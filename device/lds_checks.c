/* ldsan LDS hazard checks on the device (ldsan-cc -fsanitize-lds=races,uninit):
 * a data race between two work-items of a workgroup (two accesses to one LDS
 * byte between the same two barriers, one a write, not both atomic) and a
 * read of LDS no work-item of the workgroup wrote. The plugin calls
 * __ldsan_lds_check before every LDS access of the kernel's code,
 * __ldsan_lds_check_barrier after every s_barrier and, with the race checks,
 * __ldsan_lds_check_wave_barrier after every wave barrier
 * (instrument/LdsChecks.cpp).
 *
 * The block's hazard shadow lives in its chunk, after the block and its tail
 * redzone (enter_checked asks for the room, block.c):
 *
 *   block            block + size + tail, 64-aligned
 *   | LDS ... | tail | area header | epoch[1024] (u32) | barrier[2][32] | wave_syncs[32] |
 *   | entry[size] (u64) | pc[size/4][2] (u32) |
 *
 * entry (one per LDS byte): the last writer and one reader since it, each a
 * work-item (flat id + 1, 0: none), atomic or not, the barrier epoch of the
 * access and the wave barriers its wave had passed in that epoch (up to
 * LDSAN_HZ_WAVE_SYNC_MAX); "many" says a work-item of another wave than the recorded
 * reader read in that epoch too (so a write races with a read of another
 * wave even when the recorded reader is the writer or in its wave), "plain
 * many" that such a read was a plain one (what an atomic write races with).
 * A plain read of the recorded reader's wave takes an atomic one's place, so
 * an atomic write finds a plain read of that wave. What one reader cannot
 * say: an atomic write from another wave than an atomic recorded reader's
 * misses its race with a plain read of a wave other than the reader's (which
 * may be the writer's own read: never a false report). pc: the
 * last write's and read's pc and size per 4-byte word (hz_pc_word: pc bits
 * 2-30 and a size code; the rest of the pc is the reporting access's: one code
 * object spans far less than 2 GiB).
 *
 * Epochs count a workgroup's barriers. Each work-item keeps its own count in
 * epoch[] (every work-item passes the same barriers): an access is in epoch
 * max(epoch[me], run_start). A run of the block (one workgroup) starts past
 * every epoch the block's earlier runs reached (max_epoch), so entries left
 * by them read as empty (epoch < run_start) without clearing anything. Epochs
 * are 14 bits (a reader's; a writer's 16): a run that would start past LDSAN_HZ_RUN_LIMIT clears the area
 * instead (the wave of work-item 0, at enter), and a run whose barriers reach
 * LDSAN_HZ_EPOCH_LIMIT rebases at that barrier: every work-item rewrites its
 * share of the entries (written in this run: written in epoch 1 by nobody,
 * else empty), barrier, run_start 1, barrier, epochs 2. So no epoch wraps into a false report
 * however many barriers a kernel passes.
 *
 * Barrier divergence (with the race checks): after each barrier every wave
 * notes the barrier's epoch and pc in barrier[epoch parity][wave]. After the
 * next one (or the kernel's exit barrier, which every wave reaches) all waves
 * have noted the earlier one, and none the one after: a wave that finds
 * another at the same epoch with another pc reports barrier-divergence (an
 * error: AMD GPUs release a barrier when every wave reached one, whichever;
 * the wave at the lower pc reports the pair),
 * one whose last barrier is older returned from the kernel before it (a
 * warning: its work-items' part of the barrier's work is missing). Within a
 * wave: a wave that notes a barrier of an epoch it already noted at another
 * pc split at a branch with a barrier in each arm (an error, found at the
 * second), a lane whose previous epoch is older than its wave's note of that
 * parity skipped a barrier the wave passed (a barrier in a loop whose trip
 * count differs between the wave's lanes by two or more; by one, the lane is
 * at the split check's epoch), and a lane whose epoch is below its wave's
 * last barrier at the kernel's exit returned before it (the warning).
 *
 * Wave barriers (llvm.amdgcn.wave.barrier: lanes of one wave are ordered
 * across it, the compiler moves no LDS access over it): the first active lane
 * of the wave counts them in wave_syncs[wave] for its barrier epoch. Two
 * accesses of one wave at different counts are ordered (no race); at the same
 * count they are not (the within-wave warning). A count saturates at
 * LDSAN_HZ_WAVE_SYNC_MAX: two accesses past that many wave barriers of one
 * epoch count as ordered (a missed warning, never a false one). The count is
 * the wave's, not the lane's: a lane masked off at a wave barrier is ordered
 * by it all the same, as the wave issues its LDS accesses in order.
 *
 * Concurrency: lanes of all waves update an entry with a 64-bit CAS; the pcs
 * are plain stores beside it, so when three or more work-items race on one
 * byte at once the pc reported for the earlier access may be another racer's.
 * Portable C: the host unit tests run it (test/device/test_lds_checks.c). */
#include "entry_points.h"
#include "runtime.h"

/* Entry fields: the writer in bits 0-31 (item 11, atomic 1, wave syncs 4,
 * epoch 16), the reader in bits 32-63 (item 11, atomic 1, many 1, plain
 * many 1, wave syncs 4, epoch 14). */
#define HZ_ITEM_BITS 11u
#define HZ_ITEM_MASK ((1u << HZ_ITEM_BITS) - 1u)
#define HZ_SYNCS_MASK LDSAN_HZ_WAVE_SYNC_MAX
#define HZ_W_ITEM(e) ((uint32_t)(e) & HZ_ITEM_MASK)
#define HZ_W_ATOMIC(e) (((uint32_t)(e) >> 11) & 1u)
#define HZ_W_SYNCS(e) (((uint32_t)(e) >> 12) & HZ_SYNCS_MASK)
#define HZ_W_EPOCH(e) ((uint32_t)(e) >> 16)
#define HZ_R_ITEM(e) ((uint32_t)((e) >> 32) & HZ_ITEM_MASK)
#define HZ_R_ATOMIC(e) ((uint32_t)((e) >> 43) & 1u)
#define HZ_R_MANY(e) ((uint32_t)((e) >> 44) & 1u)
#define HZ_R_PLAIN_MANY(e) ((uint32_t)((e) >> 45) & 1u)
#define HZ_R_SYNCS(e) ((uint32_t)((e) >> 46) & HZ_SYNCS_MASK)
#define HZ_R_EPOCH(e) ((uint32_t)((e) >> 50))
_Static_assert(LDSAN_HZ_EPOCH_LIMIT < (1u << 14) && HZ_SYNCS_MASK == 15u, "entry fields");

static inline uint64_t hz_writer(uint32_t item, uint32_t atomic, uint32_t syncs, uint32_t epoch) {
  return (uint64_t)(item | atomic << 11 | syncs << 12 | epoch << 16);
}
static inline uint64_t hz_reader(uint32_t item, uint32_t atomic, uint32_t many, uint32_t plain_many, uint32_t syncs,
                                 uint32_t epoch) {
  return ((uint64_t)item | (uint64_t)atomic << 11 | (uint64_t)many << 12 | (uint64_t)plain_many << 13 |
          (uint64_t)syncs << 14 | (uint64_t)epoch << 18) << 32;
}

/* A word of pc[]: an access's pc (4-aligned) without bit 31 and above, over
 * a 3-bit code of its size (1: 1 byte, ... 5: 16 bytes, 6: another size,
 * memcpy's for example). Never 0: 0 is no access. */
#define HZ_PC_SIZE_BITS 3u
static inline uint32_t hz_pc_word(uint64_t pc, uint32_t size) {
  uint32_t code = size == 1u ? 1u : size == 2u ? 2u : size == 4u ? 3u : size == 8u ? 4u : size == 16u ? 5u : 6u;
  return (uint32_t)(pc >> 2) << HZ_PC_SIZE_BITS | code;
}
/* The size the word records (0: another size). */
static inline uint32_t hz_pc_word_size(uint32_t word) {
  uint32_t code = word & ((1u << HZ_PC_SIZE_BITS) - 1u);
  return code >= 1u && code <= 5u ? 1u << (code - 1u) : 0u;
}
/* The pc the word records, completed from `near` (the reporting access's pc):
 * of the candidates that differ in bit 31 and above, the nearest. */
static inline uint64_t hz_pc_word_pc(uint32_t word, uint64_t near) {
  const uint64_t span = 1ull << 31;
  uint64_t pc = (near & ~(span - 1u)) | (uint64_t)(word >> HZ_PC_SIZE_BITS) << 2;
  if (pc > near + span / 2u) pc -= span;
  else if (pc + span / 2u < near) pc += span;
  return pc;
}

uint64_t __ldsan_hz_area(uint64_t block, uint64_t block_size) {
  return (block + block_size + LDSAN_DYNAMIC_TAIL_REDZONE + 63u) & ~63ull;
}

/* Bytes of the area after its header (epochs, barrier notes, wave syncs,
 * entries, pcs): a multiple of 8. */
static inline uint64_t hz_body_bytes(uint64_t block_size) {
  uint64_t bytes = (block_size + 7u) & ~7ull;
  return 4ull * LDSAN_HZ_MAX_ITEMS + 2ull * LDSAN_HZ_MAX_WAVES * sizeof(ldsan_hz_barrier) +
         LDSAN_HZ_MAX_WAVES * sizeof(ldsan_hz_wave_syncs) + 8ull * bytes + 2ull * bytes;
}

uint64_t __ldsan_hz_bytes(uint64_t block_size) { return sizeof(ldsan_hz_header) + hz_body_bytes(block_size); }

static inline LDSAN_GLOBAL uint32_t *hz_epochs(LDSAN_GLOBAL ldsan_hz_header *h) {
  return (LDSAN_GLOBAL uint32_t *)(h + 1);
}
/* Work-item me's barrier epoch in the running workgroup: its count, or the
 * run's first epoch if it has passed no barrier of this run yet. */
static inline uint32_t hz_epoch_of(LDSAN_GLOBAL ldsan_hz_header *h, uint32_t me) {
  uint32_t run_start = h->run_start, epoch = hz_epochs(h)[me];
  return epoch > run_start ? epoch : run_start;
}
static inline LDSAN_GLOBAL ldsan_hz_barrier *hz_barriers(LDSAN_GLOBAL ldsan_hz_header *h) {
  return (LDSAN_GLOBAL ldsan_hz_barrier *)(hz_epochs(h) + LDSAN_HZ_MAX_ITEMS);
}
static inline LDSAN_GLOBAL ldsan_hz_wave_syncs *hz_wave_syncs(LDSAN_GLOBAL ldsan_hz_header *h) {
  return (LDSAN_GLOBAL ldsan_hz_wave_syncs *)(hz_barriers(h) + 2u * LDSAN_HZ_MAX_WAVES);
}
static inline LDSAN_GLOBAL uint64_t *hz_entries(LDSAN_GLOBAL ldsan_hz_header *h) {
  return (LDSAN_GLOBAL uint64_t *)(hz_wave_syncs(h) + LDSAN_HZ_MAX_WAVES);
}
static inline LDSAN_GLOBAL uint32_t *hz_pcs(LDSAN_GLOBAL ldsan_hz_header *h) {
  return (LDSAN_GLOBAL uint32_t *)(hz_entries(h) + ((h->block_size + 7u) & ~7ull));
}

uint64_t __ldsan_hz_step(uint64_t old, const ldsan_hz_access *a, ldsan_hz_finding *f) {
  uint32_t w = HZ_W_ITEM(old), r = HZ_R_ITEM(old);
  uint32_t we = HZ_W_EPOCH(old), re = HZ_R_EPOCH(old);
  if (we < a->run_start) w = 0; /* an earlier run's, or never */
  if (re < a->run_start) r = 0;
  uint32_t my_wave = (a->item - 1u) / a->wave_size;
  int w_same_wave = w && (w - 1u) / a->wave_size == my_wave;
  int r_same_wave = r && (r - 1u) / a->wave_size == my_wave;
  /* Within the caller's wave, a wave barrier between orders two accesses. */
  int syncs_open = a->wave_syncs < LDSAN_HZ_WAVE_SYNC_MAX;
  int w_ordered = w_same_wave && (HZ_W_SYNCS(old) != a->wave_syncs || !syncs_open);
  int r_ordered = r_same_wave && (HZ_R_SYNCS(old) != a->wave_syncs || !syncs_open);
  int w_now = w && w != a->item && we == a->epoch && !w_ordered && !(a->atomic && HZ_W_ATOMIC(old));
  int r_now = r && re == a->epoch && !(a->atomic && HZ_R_ATOMIC(old));
  f->hazard = 0;
  f->other = 0;
  f->other_atomic = 0;
  if (!a->store) {
    if (a->uninit && !w)
      f->hazard = LDSAN_HZ_UNINIT;
    else if (a->races && w_now)
      f->hazard = LDSAN_HAZARD_RAW, f->other = w, f->other_atomic = HZ_W_ATOMIC(old);
    uint64_t reader;
    if (!r || re != a->epoch)
      reader = hz_reader(a->item, a->atomic, 0, 0, a->wave_syncs, a->epoch);
    else if (r_same_wave && (HZ_R_SYNCS(old) != a->wave_syncs || (HZ_R_ATOMIC(old) && !a->atomic)))
      /* a newer read of r's wave stands for it, or a plain one for an atomic r */
      reader = hz_reader(a->item, a->atomic, HZ_R_MANY(old), HZ_R_PLAIN_MANY(old), a->wave_syncs, a->epoch);
    else if (r != a->item && !r_same_wave && !(HZ_R_MANY(old) && (HZ_R_PLAIN_MANY(old) || a->atomic)))
      reader = hz_reader(r, HZ_R_ATOMIC(old), 1, HZ_R_PLAIN_MANY(old) | !a->atomic, HZ_R_SYNCS(old), re);
    else
      return old;
    return (old & 0xffffffffull) | reader;
  }
  /* The recorded reader races unless it is the caller or ordered with it
   * (or both are atomic); when it is in the caller's wave, a reader of
   * another wave than it (HZ_R_MANY; for an atomic write a plain one,
   * HZ_R_PLAIN_MANY) races across waves with this write. */
  int war = 0, many = a->atomic ? HZ_R_PLAIN_MANY(old) : HZ_R_MANY(old);
  uint32_t war_other = 0;
  if (r_now && r != a->item && !r_ordered && !(many && r_same_wave))
    war = 1, war_other = r;
  else if (r && re == a->epoch && r_same_wave && many)
    war = 1, war_other = LDSAN_HZ_OTHER_UNKNOWN;
  /* Of a write-after-write within the wave and a write-after-read between
   * waves, the one between waves (an error). */
  int war_between = war && (war_other == LDSAN_HZ_OTHER_UNKNOWN || !r_same_wave);
  if (a->races && w_now && !(w_same_wave && war_between)) {
    f->hazard = LDSAN_HAZARD_WAW, f->other = w, f->other_atomic = HZ_W_ATOMIC(old);
  } else if (a->races && war) {
    f->hazard = LDSAN_HAZARD_WAR, f->other = war_other;
    f->other_atomic = war_other == LDSAN_HZ_OTHER_UNKNOWN ? 0 : HZ_R_ATOMIC(old);
  }
  return hz_writer(a->item, a->atomic, a->wave_syncs, a->epoch) | (old & 0xffffffff00000000ull);
}

/* The calling work-item's flat id within the workgroup, and the workgroup's size. */
static inline uint32_t flat_id(uint32_t *items) {
  uint32_t d[3];
  __ldsan_group_size(d);
  *items = d[0] * d[1] * d[2];
  return __ldsan_workitem_id_x() + d[0] * (__ldsan_workitem_id_y() + d[1] * __ldsan_workitem_id_z());
}

/* The running block's hazard area, or null (no block, checks off, not set up). */
static inline LDSAN_GLOBAL ldsan_hz_header *current_area(uint64_t *block) {
  if (__ldsan_device_state.flags & LDSAN_STATE_LDS_CHECKS_OFF) return 0;
  uint64_t b = __ldsan_lds0_read();
  if (!b || b % LDSAN_BLOCK_HEADER_SIZE) return 0;
  const LDSAN_GLOBAL ldsan_block_header *bh = (const LDSAN_GLOBAL ldsan_block_header *)(uintptr_t)(b - LDSAN_BLOCK_HEADER_SIZE);
  LDSAN_GLOBAL ldsan_hz_header *h = (LDSAN_GLOBAL ldsan_hz_header *)(uintptr_t)__ldsan_hz_area(b, bh->block_size);
  if (h->magic != LDSAN_HZ_MAGIC || h->self != b) return 0;
  *block = b;
  return h;
}

/* Clears the area's epochs, entries and pcs, shared by the calling lanes. */
static void clear_area(LDSAN_GLOBAL ldsan_hz_header *h, uint64_t block_size) {
  uint32_t rank = __ldsan_lane_rank(), count = __ldsan_lane_count();
  LDSAN_GLOBAL uint64_t *words = (LDSAN_GLOBAL uint64_t *)hz_epochs(h);
  uint64_t n = hz_body_bytes(block_size) / 8u;
  for (uint64_t i = rank; i < n; i += count) words[i] = 0;
}

LDSAN_ENTRY_FN void __ldsan_lds_checks_enter(uint64_t block) {
  block = __ldsan_uniform_u64(block);
  if (!block) return; /* enter failed and was reported */
  const LDSAN_GLOBAL ldsan_block_header *bh = (const LDSAN_GLOBAL ldsan_block_header *)(uintptr_t)(block - LDSAN_BLOCK_HEADER_SIZE);
  uint64_t size = __ldsan_uniform_u64(bh->block_size);
  LDSAN_GLOBAL ldsan_hz_header *h = (LDSAN_GLOBAL ldsan_hz_header *)(uintptr_t)__ldsan_hz_area(block, size);
  /* A chunk new to this kernel (or garbage), or epochs near their limit: clear. */
  int fresh = __ldsan_uniform_u32(h->magic) != LDSAN_HZ_MAGIC || __ldsan_uniform_u64(h->self) != block ||
              __ldsan_uniform_u64(h->block_size) != size;
  uint32_t start = fresh ? 1u : __ldsan_uniform_u32(h->max_epoch) + 1u;
  if (fresh || start > LDSAN_HZ_RUN_LIMIT) {
    h->block_size = size; /* clear_area reads it */
    clear_area(h, size);
    start = 1;
  }
  if (__ldsan_first_active_lane()) {
    h->self = block;
    h->block_size = size;
    h->run_start = start;
    h->max_epoch = start;
    for (uint32_t i = 0; i < LDSAN_HZ_REPORTED; i++) h->reported_key[i] = 0, h->reported_record[i] = 0;
    h->magic = LDSAN_HZ_MAGIC; /* the prologue barrier publishes it all */
  }
}

/* A key for a report's kind, pcs and flags (never 0). */
static inline uint32_t report_key(const ldsan_hz_report *r) {
  uint64_t k = (uint64_t)r->kind * 0x9E3779B97F4A7C15ull ^ (uint64_t)r->hazard << 40 ^ (uint64_t)r->flags << 48 ^
               (r->pc & 0xffffffffull) * 0xC2B2AE3D27D4EB4Full ^ (r->other_pc & 0xffffffffull);
  uint32_t key = (uint32_t)(k ^ k >> 32);
  return key ? key : 1u;
}

/* Reports r once per run: the first work-item's record, into which the run's
 * later work-items with the same key count themselves (repeats). With every
 * slot of the table taken, each reports on its own. */
static void report_once(LDSAN_GLOBAL ldsan_hz_header *h, const ldsan_hz_report *r) {
  uint32_t key = report_key(r);
  for (uint32_t i = 0; i < LDSAN_HZ_REPORTED; i++) {
    uint32_t seen = __ldsan_atomic_cas_u32(&h->reported_key[i], 0, key, LDSAN_SCOPE_WORKGROUP);
    if (seen == 0) { /* ours: report, then say where the record is */
      LDSAN_GLOBAL ldsan_report_record *rec = __ldsan_report_hazard(r);
      __ldsan_store_release_u64(&h->reported_record[i], rec ? (uint64_t)(uintptr_t)rec : 1u, LDSAN_SCOPE_WORKGROUP);
      return;
    }
    if (seen != key) continue;
    uint64_t rec = __ldsan_load_acquire_u64(&h->reported_record[i], LDSAN_SCOPE_WORKGROUP);
    if (rec > 1u) /* else still being written (this one goes uncounted) or dropped */
      __ldsan_atomic_add_u32(&((LDSAN_GLOBAL ldsan_report_record *)(uintptr_t)rec)->repeats, 1u, LDSAN_SCOPE_SYSTEM);
    return;
  }
  (void)__ldsan_report_hazard(r);
}

/* The report for finding f of the caller's access at block + off. Out of
 * line: the per-access path stays small. */
static __attribute__((noinline, cold)) void report_finding(LDSAN_GLOBAL ldsan_hz_header *h, uint64_t block, uint32_t off, uint32_t size,
                           const ldsan_hz_access *a, const ldsan_hz_finding *f, uint64_t pc) {
  ldsan_hz_report r;
  r.kind = f->hazard == LDSAN_HZ_UNINIT ? LDSAN_REPORT_LDS_UNINIT_READ : LDSAN_REPORT_LDS_DATA_RACE;
  r.hazard = f->hazard == LDSAN_HZ_UNINIT ? 0 : f->hazard;
  r.address = block + off;
  r.size = size;
  r.pc = pc;
  r.flags = (a->store ? LDSAN_ACCESS_WRITE : 0) | (a->atomic ? LDSAN_ACCESS_ATOMIC : 0);
  r.other_item = f->other ? f->other - 1 : 0;
  r.other_pc = 0;
  r.other_size = 0;
  r.other_flags = 0;
  if (f->other == LDSAN_HZ_OTHER_UNKNOWN) {
    r.other_item = 0;
    r.flags |= LDSAN_REPORT_OTHER_UNKNOWN;
    r.other_flags = 0;
  } else if (f->other) {
    int same_wave = (f->other - 1) / a->wave_size == (a->item - 1) / a->wave_size;
    if (same_wave) {
      r.flags |= LDSAN_ACCESS_SAME_WAVE;
      if (!(__ldsan_device_state.flags & LDSAN_STATE_SAME_WAVE_ERRORS)) r.flags |= LDSAN_REPORT_WARNING;
    }
    int other_store = f->hazard != LDSAN_HAZARD_WAR;
    uint32_t word = hz_pcs(h)[2u * (off / 4u) + (other_store ? 0u : 1u)];
    r.other_pc = word ? hz_pc_word_pc(word, pc) : 0;
    r.other_size = word ? hz_pc_word_size(word) : 0;
    r.other_flags = (other_store ? LDSAN_ACCESS_WRITE : 0) | (f->other_atomic ? LDSAN_ACCESS_ATOMIC : 0);
  }
  report_once(h, &r);
}

/* The wave barriers wave `wave` passed in barrier epoch `epoch`, saturated. */
static inline uint32_t wave_syncs_of(LDSAN_GLOBAL ldsan_hz_header *h, uint32_t wave, uint32_t epoch) {
  LDSAN_GLOBAL ldsan_hz_wave_syncs *ws = &hz_wave_syncs(h)[wave];
  if (__ldsan_load_relaxed_u32(&ws->epoch, LDSAN_SCOPE_WORKGROUP) != epoch) return 0;
  uint32_t count = __ldsan_load_relaxed_u32(&ws->count, LDSAN_SCOPE_WORKGROUP);
  return count < LDSAN_HZ_WAVE_SYNC_MAX ? count : LDSAN_HZ_WAVE_SYNC_MAX;
}

/* The check of an access at block offset off of the running block (area h);
 * pc: the access's. An offset past the block is not LDS of this workgroup (a
 * flat access elsewhere) or out of bounds (the bounds checks report it). */
static void check_in(LDSAN_GLOBAL ldsan_hz_header *h, uint64_t block, uint64_t off, uint32_t size_kind, uint64_t pc) {
  uint64_t block_size = h->block_size;
  uint32_t size = size_kind & LDSAN_LDS_CHECK_SIZE_MASK;
  if (!size) size = 1;
  if (off >= block_size) return; /* outside the block: the bounds checks report it (or not LDS) */
  if (size > block_size - off) size = (uint32_t)(block_size - off);
  uint32_t items, me = flat_id(&items);
  if (me >= LDSAN_HZ_MAX_ITEMS) return;
  uint32_t epoch = hz_epoch_of(h, me), wave_size = __ldsan_wave_size();
  int races = (size_kind & LDSAN_LDS_CHECK_RACES) != 0;
  ldsan_hz_access a = {me + 1u, epoch, h->run_start, wave_size, races ? wave_syncs_of(h, me / wave_size, epoch) : 0u,
                       (size_kind & LDSAN_LDS_CHECK_STORE) != 0, (size_kind & LDSAN_LDS_CHECK_ATOMIC) != 0,
                       races, (size_kind & LDSAN_LDS_CHECK_UNINIT) != 0};
  LDSAN_GLOBAL uint64_t *entries = hz_entries(h);
  ldsan_hz_finding first = {0, 0, 0};
  uint64_t first_off = off;
  for (uint32_t i = 0; i < size; i++) {
    LDSAN_GLOBAL uint64_t *e = &entries[off + i];
    uint64_t old = __ldsan_load_relaxed_u64(e, LDSAN_SCOPE_WORKGROUP), next;
    ldsan_hz_finding f;
    for (;;) {
      next = __ldsan_hz_step(old, &a, &f);
      if (next == old) break;
      uint64_t seen = __ldsan_atomic_cas_u64(e, old, next, LDSAN_SCOPE_WORKGROUP);
      if (seen == old) break;
      old = seen;
    }
    if (f.hazard && !first.hazard) first = f, first_off = off + i;
  }
  if (first.hazard) report_finding(h, block, (uint32_t)first_off, size, &a, &first, pc);
  /* This access is now the word's last write or read. */
  LDSAN_GLOBAL uint32_t *pcs = hz_pcs(h);
  uint32_t word = hz_pc_word(pc, size);
  for (uint64_t w = off / 4u; w <= (off + size - 1u) / 4u; w++) pcs[2u * w + (a.store ? 0u : 1u)] = word;
}

LDSAN_ENTRY_FN void __ldsan_lds_check(uint32_t off, uint32_t size_kind) {
  uint64_t block = 0;
  LDSAN_GLOBAL ldsan_hz_header *h = current_area(&block);
  if (h) check_in(h, block, off, size_kind, __ldsan_return_address());
}

LDSAN_ENTRY_FN void __ldsan_lds_check_flat(uint64_t addr, uint32_t size_kind) {
  uint64_t block = 0;
  LDSAN_GLOBAL ldsan_hz_header *h = current_area(&block);
  if (h && addr >= block) check_in(h, block, addr - block, size_kind, __ldsan_return_address());
}

/* After a wave barrier (with the race checks): the first active lane counts
 * it for its wave and barrier epoch. The wave's later accesses see the count
 * (the same wave, program order), so its accesses before and after the wave
 * barrier are ordered. */
LDSAN_ENTRY_FN void __ldsan_lds_check_wave_barrier(void) {
  uint64_t block = 0;
  LDSAN_GLOBAL ldsan_hz_header *h = current_area(&block);
  if (!h || !__ldsan_first_active_lane()) return;
  uint32_t items, me = flat_id(&items);
  if (me >= LDSAN_HZ_MAX_ITEMS) return;
  uint32_t epoch = hz_epoch_of(h, me), wave = me / __ldsan_wave_size();
  LDSAN_GLOBAL ldsan_hz_wave_syncs *ws = &hz_wave_syncs(h)[wave];
  uint32_t count = wave_syncs_of(h, wave, epoch);
  if (count < LDSAN_HZ_WAVE_SYNC_MAX) /* saturates: never wraps back to an earlier count */
    __ldsan_store_relaxed_u32(&ws->count, count + 1u, LDSAN_SCOPE_WORKGROUP);
  __ldsan_store_relaxed_u32(&ws->epoch, epoch, LDSAN_SCOPE_WORKGROUP);
}

/* Rewrites this work-item's share of the entries for run_start
 * LDSAN_HZ_REBASED: written in this run -> written in that epoch by a
 * work-item no access matches (HZ_ITEM_MASK), else empty. */
static __attribute__((noinline, cold)) void rebase(LDSAN_GLOBAL ldsan_hz_header *h, uint32_t me, uint32_t items) {
  LDSAN_GLOBAL uint64_t *entries = hz_entries(h);
  uint64_t n = h->block_size;
  uint32_t run_start = h->run_start;
  for (uint64_t i = me; i < n; i += items) {
    uint64_t e = entries[i];
    int written = HZ_W_ITEM(e) && HZ_W_EPOCH(e) >= run_start;
    entries[i] = written ? hz_writer(HZ_ITEM_MASK, 0, 0, LDSAN_HZ_REBASED) : 0;
  }
}

/* A report of barrier divergence: the caller noted `mine` at the barrier of
 * that epoch, work-item `other` (of another wave, or of the caller's:
 * same_wave) noted `theirs` (another barrier of the same epoch, or an older
 * epoch: it returned before). hazard LDSAN_HAZARD_BARRIER_SKIPPED: `theirs`
 * is a later barrier of the caller's wave, which the caller skipped. */
static __attribute__((noinline, cold)) void report_divergence(LDSAN_GLOBAL ldsan_hz_header *h, uint32_t other,
                                                              ldsan_hz_barrier mine, ldsan_hz_barrier theirs,
                                                              int same_wave, uint32_t hazard) {
  ldsan_hz_report r;
  r.kind = LDSAN_REPORT_BARRIER_DIVERGENCE;
  r.hazard = hazard;
  r.address = 0;
  r.size = 0;
  r.pc = mine.pc;
  r.flags = same_wave ? LDSAN_ACCESS_SAME_WAVE : 0;
  r.other_item = other;
  r.other_pc = hazard || theirs.epoch == mine.epoch ? theirs.pc : 0; /* 0: it returned */
  r.other_size = 0;
  r.other_flags = 0;
  if (!r.other_pc && !(__ldsan_device_state.flags & LDSAN_STATE_SAME_WAVE_ERRORS)) r.flags |= LDSAN_REPORT_WARNING;
  report_once(h, &r);
}

/* Barrier divergence at the barrier of `epoch`, which every wave of the
 * workgroup that reached it has noted (see above), by the first active lane
 * of the caller's wave. */
static void check_divergence(LDSAN_GLOBAL ldsan_hz_header *h, uint32_t me, uint32_t items, uint32_t epoch) {
  uint32_t wave_size = __ldsan_wave_size(), waves = (items + wave_size - 1u) / wave_size, wave = me / wave_size;
  if (epoch <= h->run_start || waves > LDSAN_HZ_MAX_WAVES || !__ldsan_first_active_lane()) return;
  LDSAN_GLOBAL ldsan_hz_barrier *noted = hz_barriers(h) + (epoch & 1u) * LDSAN_HZ_MAX_WAVES;
  ldsan_hz_barrier mine = noted[wave];
  if (mine.epoch != epoch) return;
  /* Of two waves at different barriers the one with the lower pc reports
   * (one record for the pair; more waves at its barrier count in it). */
  for (uint32_t v = 0; v < waves; v++) {
    ldsan_hz_barrier theirs = noted[v];
    if (v != wave && (theirs.epoch < epoch || (theirs.epoch == epoch && theirs.pc > mine.pc))) {
      report_divergence(h, v * wave_size, mine, theirs, 0, 0);
      return;
    }
  }
}

/* Not noinline: the CPU emulator inlines it, as every function that reaches
 * a barrier, to keep the kernel in work-item loops. pc: the barrier's
 * (s_getpc beside it); size_kind: the kernel's LDSAN_LDS_CHECK_* (races:
 * barrier divergence too). */
LDSAN_EXPORT void __ldsan_lds_check_barrier(uint64_t pc, uint32_t size_kind) {
  uint64_t block = 0;
  LDSAN_GLOBAL ldsan_hz_header *h = current_area(&block);
  if (!h) return;
  uint32_t items, me = flat_id(&items);
  if (me >= LDSAN_HZ_MAX_ITEMS) return;
  LDSAN_GLOBAL uint32_t *epochs = hz_epochs(h);
  uint32_t next = hz_epoch_of(h, me) + 1u;
  if (next >= LDSAN_HZ_EPOCH_LIMIT) { /* every work-item gets here at this barrier */
    rebase(h, me, items);
    __ldsan_target_barrier();
    if (me == 0) {
      h->run_start = LDSAN_HZ_REBASED;
      h->max_epoch = LDSAN_HZ_REBASED + 1u;
      for (uint32_t v = 0; v < LDSAN_HZ_MAX_WAVES; v++) hz_wave_syncs(h)[v].epoch = 0; /* none in the new epochs */
    }
    __ldsan_target_barrier();
    next = LDSAN_HZ_REBASED + 1u;
  }
  epochs[me] = next;
  /* The first work-item past this barrier raises it; the others only read. */
  if (__ldsan_load_relaxed_u32(&h->max_epoch, LDSAN_SCOPE_WORKGROUP) < next)
    __ldsan_atomic_max_u32(&h->max_epoch, next, LDSAN_SCOPE_WORKGROUP);
  if (!(size_kind & LDSAN_LDS_CHECK_RACES)) return;
  /* Every wave noted the barrier before this one, none this one yet. */
  check_divergence(h, me, items, next - 1u);
  /* The wave's note of the caller's previous epoch's parity (written before
   * this barrier; its first active lane notes this one in the other parity)
   * is of a later barrier of this run (not one before a rebase: above
   * max_epoch): the caller skipped it. */
  uint32_t wave = me / __ldsan_wave_size();
  int skipped = 0;
  if (wave < LDSAN_HZ_MAX_WAVES) {
    ldsan_hz_barrier last = hz_barriers(h)[((next - 1u) & 1u) * LDSAN_HZ_MAX_WAVES + wave];
    if (last.epoch > next - 1u && last.item &&
        last.epoch <= __ldsan_load_relaxed_u32(&h->max_epoch, LDSAN_SCOPE_WORKGROUP)) {
      ldsan_hz_barrier mine = {next, me + 1u, pc};
      report_divergence(h, last.item - 1u, mine, last, 1, LDSAN_HAZARD_BARRIER_SKIPPED);
      skipped = 1; /* the split check below may see the same skip at this epoch: one report */
    }
  }
  if (__ldsan_first_active_lane()) {
    LDSAN_GLOBAL ldsan_hz_barrier *noted = hz_barriers(h) + (next & 1u) * LDSAN_HZ_MAX_WAVES + wave;
    ldsan_hz_barrier before = *noted;
    /* Lanes of this wave passed another barrier at this epoch (the two arms
     * of a branch that splits the wave, each with a __syncthreads()). */
    if (!skipped && before.epoch == next && before.pc != pc && before.item) {
      ldsan_hz_barrier mine = {next, me + 1u, pc};
      report_divergence(h, before.item - 1u, mine, before, 1, 0);
    }
    noted->pc = pc;
    noted->item = me + 1u;
    noted->epoch = next;
  }
}

/* At the kernel's exit: a lane of the caller's wave that did not pass the
 * wave's last barrier (the caller's, as its note says) returned before it.
 * Each lane looks at its two neighbours in the wave: if the wave's lanes
 * differ, two neighbours do, and the one that passed reports. */
static void check_returned_lanes(LDSAN_GLOBAL ldsan_hz_header *h, uint32_t me, uint32_t items, uint32_t epoch) {
  uint32_t wave_size = __ldsan_wave_size(), base = me / wave_size * wave_size;
  uint32_t end = items - base < wave_size ? items : base + wave_size;
  if (epoch <= h->run_start) return;
  ldsan_hz_barrier mine = hz_barriers(h)[(epoch & 1u) * LDSAN_HZ_MAX_WAVES + me / wave_size];
  if (mine.epoch != epoch) return;
  uint32_t next = me + 1u < end ? me + 1u : me, prev = me > base ? me - 1u : me;
  uint32_t next_epoch = hz_epoch_of(h, next), prev_epoch = hz_epoch_of(h, prev);
  if (next_epoch < epoch || prev_epoch < epoch) {
    ldsan_hz_barrier returned = {next_epoch < epoch ? next_epoch : prev_epoch, 0, 0};
    report_divergence(h, next_epoch < epoch ? next : prev, mine, returned, 1, 0);
  }
}

/* After the kernel's exit barrier, which every wave reaches (returned
 * work-items too): barrier divergence at the kernel's last barrier. */
LDSAN_ENTRY_FN void __ldsan_lds_check_exit(uint32_t size_kind) {
  uint64_t block = 0;
  LDSAN_GLOBAL ldsan_hz_header *h = current_area(&block);
  if (!h || !(size_kind & LDSAN_LDS_CHECK_RACES)) return;
  uint32_t items, me = flat_id(&items);
  if (me >= LDSAN_HZ_MAX_ITEMS) return;
  uint32_t epoch = hz_epoch_of(h, me);
  check_divergence(h, me, items, epoch);
  check_returned_lanes(h, me, items, epoch);
}
