/* ldsan emulator core: the LDS checks that need every access, not just the
 * shadow: options detect_races, detect_uninit and report_wave_sync. When one
 * is on, kernels run as their checked copy (ldsan_emu_kernel.entry_checked),
 * in which every shared-memory access of the kernel's own code (not through
 * the kernel's arguments) calls __ldsan_emu_lds_track first (retarget_wave.cpp,
 * rt_lds_checks) -- in work-item loops, most of them only when an inline path
 * cannot decide (lds_track.h, __ldsan_emu_lds_track_at); accesses
 * inside the workgroup's LDS block are kept here (emu_lds_rec): the last
 * write, the first read and a second reader since the last barrier (plain
 * reads; atomic ones the same way in a table beside, emu_lds_readers), each with
 * its work-item, pc, size, whether atomic, the barrier epoch and the wave
 * epoch (wave barriers of its wave), per 4-byte word while its bytes agree,
 * per byte after that. Epochs count the worker's barriers across its
 * workgroups, so records of an earlier workgroup count as none and nothing is
 * cleared between workgroups (only near the 32-bit limit: no epoch wraps).
 * Checked kernels run in their own work-item loops when they have them
 * (ldsan_emu_kernel.group_checked; the epoch is then the scheduler's pass,
 * one barrier each), else as fibers. Findings are report records (abi.h), kept per
 * dispatch (one per kind, pair of pcs and within/between waves, at most
 * EMU_LDS_HAZARDS; the other work-items and workgroups that hit one counted
 * in it) and posted to the report channel by ldsan_emu_finish_dispatch:
 *   - lds-uninitialized-read: a read of a byte no work-item of the
 *     workgroup wrote (detect_uninit);
 *   - lds-data-race: a read after a write, a write after a read, or a write
 *     after a write by another work-item in the same barrier interval, not
 *     both atomic (detect_races); between waves an error, within one wave
 *     (which a 64-lane GPU executes in order) a warning, an error with
 *     detect_races=2;
 *   - wave-sync-dependence: within one wave, a read of another lane's write
 *     with no wave barrier between either (report_wave_sync, when
 *     detect_races is off: a warning);
 *   - barrier-divergence (detect_races, from the scheduler's barriers): work-
 *     items released from different barriers (an error), or a barrier
 *     released after a work-item left the kernel body (a warning; an error
 *     with detect_races=2).
 * The GPU's compiled-in checks are device/lds_checks.c (same reports). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ldsan/abi.h"
#include "core_internal.h"
#include "ldsan/emu/lds_track.h"


/* Records per 4-byte word of the block: the word's, then its 4 bytes'. */
#define EMU_RECS_PER_WORD 5u

enum emu_hazard { EMU_UNINIT, EMU_RAW, EMU_WAR, EMU_WAW };

/* A record's atomic readers in the barrier epoch its atomic_epoch says, kept
 * as its plain ones are (lds_track.h). */
typedef struct emu_lds_readers {
  emu_lds_side r, r2;
} emu_lds_readers;

/* The running workgroup's LDS block and its records: one per 4-byte word
 * ((size + 3) / 4), then one per byte (the words' count times 4); NULL if
 * none. */
static emu_lds_rec *emu_lds_table(emu_worker *w, uint64_t *block, uint64_t *size) {
  if (w->track_block_gen != w->track_gen) {
    w->track_block = w->track_size = 0;
    uint64_t b = 0;
    /* The LDS pass's slot at offset 0; a kernel with no LDS has no slot (its
     * window holds whatever an earlier kernel left there). */
    if (__ldsan_emu_tls.lds_size >= sizeof b) memcpy(&b, __ldsan_emu_tls.lds_base, sizeof b);
    ldsan_block_header h;
    if (b) { /* 0 until the prologue has taken the block: look again next time */
      w->track_block_gen = w->track_gen;
      /* The header is poisoned (e2): not memcpy (the ASan build of the emulator). */
      ldsan_emu_device_copy(&h, (const void *)(uintptr_t)(b - LDSAN_BLOCK_HEADER_SIZE), sizeof h);
      if (h.self == b && h.block_size && h.block_size <= (1u << 20)) {
        uint64_t words = (h.block_size + 3) / 4;
        if (words > w->track_cap) {
          free(w->track);
          free(w->atomic_reads);
          /* Zeroed: epochs 0, no access; the atomic readers' pages are touched only if used. */
          w->track = ldsan_emu_xalloc(words * EMU_RECS_PER_WORD * sizeof(emu_lds_rec), 0,
                                      "the LDS checks' records of a workgroup's LDS block (detect_races, "
                                      "detect_uninit, report_wave_sync: turn them off to run without)");
          w->atomic_reads = ldsan_emu_xalloc(words * EMU_RECS_PER_WORD * sizeof(emu_lds_readers), 0,
                                             "the LDS checks' atomic readers of a workgroup's LDS block "
                                             "(detect_races, detect_uninit, report_wave_sync: turn them off to "
                                             "run without)");
          w->track_cap = words;
        }
        w->track_block = b;
        w->track_size = h.block_size;
      }
    }
  }
  *block = w->track_block;
  *size = w->track_size;
  return w->track_size ? w->track : NULL;
}

/* Epochs count the worker's barriers across workgroups, so a record an earlier
 * workgroup left is older than the running one's first epoch and counts as no
 * access: nothing is cleared between workgroups. Near the 32-bit limit the
 * records are cleared and the count starts over. */
#define EMU_EPOCH_LIMIT 0xf0000000u

void ldsan_emu_lds_checks_new_group(emu_worker *w) {
  w->track_gen++; /* look up the new workgroup's block */
  if (w->barrier_epoch >= EMU_EPOCH_LIMIT) {
    if (w->track) memset(w->track, 0, w->track_cap * EMU_RECS_PER_WORD * sizeof(emu_lds_rec));
    w->barrier_epoch = 0;
  }
  w->run_start = ++w->barrier_epoch;
  w->written_lo = w->written_hi = 0;
  memset(w->wave_epoch, 0, sizeof w->wave_epoch);
}

void ldsan_emu_lds_track_refresh(emu_worker *w) {
  ldsan_emu_tls_state *t = &__ldsan_emu_tls;
  uint64_t block, size;
  emu_lds_rec *recs = emu_lds_table(w, &block, &size);
  t->track_recs = (uint8_t *)recs;
  t->track_block = block;
  t->track_size = recs ? size : 0;
  t->track_ids = w->ids;
  t->track_wave_epochs = w->wave_epoch;
  t->track_epoch = w->barrier_epoch;
  t->track_run_start = w->run_start;
  t->track_written_floor = w->checks.detect_uninit ? w->run_start : 0;
  t->track_wave_shift = w->wave_shift;
}

void ldsan_emu_lds_track_next_epoch(emu_worker *w) {
  ldsan_emu_tls_state *t = &__ldsan_emu_tls;
  /* This workgroup's block is known and its records are in the TLS state
   * (a refresh before the lookup succeeded leaves track_recs NULL). */
  if (w->track_block_gen == w->track_gen && t->track_recs) t->track_epoch = w->barrier_epoch;
  else ldsan_emu_lds_track_refresh(w);
}

uint32_t ldsan_emu_current_item(const emu_worker *w) {
  return w->loops ? (uint32_t)((const ldsan_emu_item_ids *)__ldsan_emu_tls.item - w->ids) : w->cur;
}

/* The ids of work-item `item` of the running workgroup. */
static const ldsan_emu_item_ids *emu_ids(const emu_worker *w, uint32_t item) {
  return w->loops ? &w->ids[item] : &w->fibers[item].ids;
}

/* Fills the ids of work-item `item` of the running workgroup into r. */
static void emu_fill_ids(const emu_worker *w, uint32_t item, ldsan_report_record *r) {
  const ldsan_emu_item_ids *ids = emu_ids(w, item);
  memcpy(r->workitem_id, ids->id, sizeof r->workitem_id);
  r->lane = ids->lane;
  memcpy(r->workgroup_id, __ldsan_emu_tls.group_id, sizeof r->workgroup_id);
}

/* other_* of r: work-item `item`, at pc. */
static void emu_fill_other(const emu_worker *w, uint32_t item, uint64_t pc, ldsan_report_record *r) {
  const ldsan_emu_item_ids *ids = emu_ids(w, item);
  memcpy(r->other_workitem_id, ids->id, sizeof r->other_workitem_id);
  r->other_lane = ids->lane;
  r->other_pc = pc;
}

/* Keeps finding r (kind, flags, pcs, hazard filled; found by work-item
 * `item`) for the dispatch: the first of its kind, pcs and same-wave-ness
 * is kept whole, later ones count as repeats (once per work-item, and the
 * workgroups they are in). */
static void emu_keep(emu_worker *w, ldsan_report_record *r, uint32_t item) {
  emu_dispatch *d = w->d;
  if (w->hazard_gen != w->track_gen) {
    memset(w->hazard_items, 0, sizeof w->hazard_items);
    w->hazard_gen = w->track_gen;
  }
  pthread_mutex_lock(&d->lock);
  uint32_t i = 0;
  while (i < d->hazard_count &&
         !(d->hazards[i].kind == r->kind && d->hazards[i].hazard == r->hazard && d->hazards[i].pc == r->pc &&
           d->hazards[i].other_pc == r->other_pc &&
           (d->hazards[i].flags & LDSAN_ACCESS_SAME_WAVE) == (r->flags & LDSAN_ACCESS_SAME_WAVE)))
    i++;
  if (i == d->hazard_count) {
    if (i == EMU_LDS_HAZARDS) {
      d->hazards_lost++;
    } else {
      emu_fill_ids(w, item, r);
      r->block = w->track_block;
      r->dispatch = (uint64_t)(uintptr_t)d->implicitarg;
      d->hazards[d->hazard_count++] = *r;
      w->hazard_items[i][item / 64] |= 1ull << (item % 64);
    }
  } else {
    uint64_t *seen = w->hazard_items[i];
    ldsan_report_record *h = &d->hazards[i];
    int here = !memcmp(h->workgroup_id, __ldsan_emu_tls.group_id, sizeof h->workgroup_id);
    int new_wg = 1;
    for (uint32_t k = 0; k < EMU_MAX_BLOCK / 64 && new_wg; k++) new_wg = !seen[k];
    if (!(seen[item / 64] & (1ull << (item % 64)))) {
      seen[item / 64] |= 1ull << (item % 64);
      if (here) h->repeats++;
      else h->repeats_elsewhere++, h->repeat_workgroups += (uint32_t)new_wg;
    }
  }
  pthread_mutex_unlock(&d->lock);
}

/* Keeps hazard `kind` found by the current work-item's access at addr
 * against o (its other access; NULL for an uninitialized read); returns
 * whether the options ask for it. */
__attribute__((noinline, cold)) static int emu_found(emu_worker *w, uint32_t me, enum emu_hazard kind, const emu_lds_side *o, uint64_t pc,
                     uint64_t addr, uint32_t size, int write, int atomic) {
  uint32_t other = kind == EMU_UNINIT ? 0 : o->item;
  int same_wave = other && (other - 1) >> w->wave_shift == me >> w->wave_shift;
  const emu_check_options *opt = &w->checks;
  if (kind != EMU_UNINIT && !opt->detect_races && !(same_wave && kind == EMU_RAW && opt->report_wave_sync)) return 0;
  int warning = kind != EMU_UNINIT && same_wave && opt->detect_races < 2;
  ldsan_report_record r;
  memset(&r, 0, sizeof r);
  r.state = LDSAN_RECORD_READY;
  r.address = r.access_address = addr;
  r.size = size;
  r.pc = pc;
  r.flags = (write ? LDSAN_ACCESS_WRITE : 0) | (atomic ? LDSAN_ACCESS_ATOMIC : 0) | LDSAN_REPORT_DEFERRED |
            (warning ? LDSAN_REPORT_WARNING : 0) | (same_wave ? LDSAN_ACCESS_SAME_WAVE : 0);
  if (kind == EMU_UNINIT) {
    r.kind = LDSAN_REPORT_LDS_UNINIT_READ;
  } else {
    r.kind = same_wave && !opt->detect_races ? LDSAN_REPORT_WAVE_SYNC_DEPENDENCE : LDSAN_REPORT_LDS_DATA_RACE;
    r.hazard = kind == EMU_RAW ? LDSAN_HAZARD_RAW : kind == EMU_WAR ? LDSAN_HAZARD_WAR : LDSAN_HAZARD_WAW;
    emu_fill_other(w, other - 1, o->pc, &r);
    r.other_size = o->size;
    r.other_flags = (kind != EMU_WAR ? LDSAN_ACCESS_WRITE : 0) | (o->atomic ? LDSAN_ACCESS_ATOMIC : 0);
  }
  emu_keep(w, &r, me);
  return 1;
}

/* A barrier-divergence record of work-items a and b (the other fields by
 * the caller); a work-item that returned is a warning unless
 * detect_races=2. */
static ldsan_report_record emu_divergence(const emu_worker *w, int returned, uint32_t a, uint32_t b) {
  ldsan_report_record r;
  memset(&r, 0, sizeof r);
  r.state = LDSAN_RECORD_READY;
  r.kind = LDSAN_REPORT_BARRIER_DIVERGENCE;
  if (a >> w->wave_shift == b >> w->wave_shift) r.flags |= LDSAN_ACCESS_SAME_WAVE;
  /* A work-item that returned does not hold the others up on AMD GPUs (nor on
   * NVIDIA's since Volta), but its work is missing past the barrier: a
   * warning (an error with detect_races=2); waiting at different barriers is
   * always an error. */
  r.flags |= LDSAN_REPORT_DEFERRED | (returned && w->checks.detect_races < 2 ? LDSAN_REPORT_WARNING : 0);
  return r;
}

void ldsan_emu_check_barrier(emu_worker *w, int released) {
  if (!w->checks.detect_races) return;
  uint32_t me = w->cur;
  if (!released) { /* work-item `me` left the body while others wait at a barrier */
    for (uint32_t i = 0; i < w->n; i++)
      if (w->fibers[i].state == EMU_WAIT) {
        ldsan_report_record r = emu_divergence(w, 1, i, me);
        r.pc = w->barrier_pc[i];
        emu_fill_other(w, me, 0, &r);
        emu_keep(w, &r, i);
        return;
      }
    return;
  }
  /* A barrier released: every work-item must wait at the same one, and none may have left. */
  if (w->departed) {
    ldsan_report_record r = emu_divergence(w, 1, me, w->departed - 1);
    r.pc = w->barrier_pc[me];
    emu_fill_other(w, w->departed - 1, 0, &r);
    emu_keep(w, &r, me);
    return;
  }
  for (uint32_t i = 0; i < w->n; i++)
    if (w->fibers[i].state == EMU_WAIT && w->barrier_pc[i] != w->barrier_pc[me]) {
      ldsan_report_record r = emu_divergence(w, 0, me, i);
      r.pc = w->barrier_pc[me];
      emu_fill_other(w, i, w->barrier_pc[i], &r);
      emu_keep(w, &r, me);
      return;
    }
}

/* The pc of the barrier work-items in state st wait after (loops). */
static uint64_t emu_region_pc(const emu_worker *w, uint32_t st) {
  const uint64_t *slot = w->region_pcs ? w->region_pcs[st / 2] : NULL;
  return slot ? __atomic_load_n(slot, __ATOMIC_RELAXED) : 0;
}

/* Whether a work-item in state st left the body: returned, or at the
 * kernel-exit barrier. */
static int emu_state_gone(uint32_t st, uint64_t exit_regions) {
  return st == LDSAN_EMU_GROUP_STATE_DONE || (st / 2 < 64 && ((exit_regions >> (st / 2)) & 1));
}

void ldsan_emu_check_pass(emu_worker *w, const uint32_t *states, uint32_t n, uint64_t waiting, uint64_t exit_regions) {
  (void)waiting;
  uint32_t first = n, left = n;
  for (uint32_t i = 0; i < n; i++) {
    uint32_t st = states[i];
    int gone = emu_state_gone(st, exit_regions);
    if (gone && left == n) left = i;
    if (gone) continue;
    if (first == n) {
      first = i;
    } else if (st / 2 != states[first] / 2) { /* at another barrier */
      ldsan_report_record r = emu_divergence(w, 0, i, first);
      r.pc = emu_region_pc(w, st);
      emu_fill_other(w, first, emu_region_pc(w, states[first]), &r);
      emu_keep(w, &r, i);
      return;
    }
  }
  if (first < n && left < n) { /* released past a barrier some work-item will never reach */
    /* One of the returned work-item's wave if it has one that waits. */
    uint32_t wave = left >> w->wave_shift, lo = wave << w->wave_shift, hi = (wave + 1) << w->wave_shift;
    for (uint32_t i = lo; i < hi && i < n; i++)
      if (!emu_state_gone(states[i], exit_regions)) {
        first = i;
        break;
      }
    ldsan_report_record r = emu_divergence(w, 1, first, left);
    r.pc = emu_region_pc(w, states[first]);
    emu_fill_other(w, left, 0, &r);
    emu_keep(w, &r, first);
  }
}

/* A checked copy's barrier notes its pc: in work-item loops in its slot
 * (called while the slot is empty), on fibers (slot NULL) as the running
 * work-item's. */
EMU_API void __ldsan_emu_lds_barrier_note(uint64_t *slot) {
  uint64_t pc = (uint64_t)(uintptr_t)__builtin_return_address(0);
  if (slot) __atomic_store_n(slot, pc, __ATOMIC_RELAXED);
  emu_worker *w = ldsan_emu_self;
  if (!w->loops) w->barrier_pc[w->cur] = pc;
}

/* The access being tracked. */
typedef struct emu_access {
  emu_lds_side side;      /* as it is kept: work-item + 1, epochs, pc, size, atomic */
  uint32_t item, wave;    /* work-item, its wave */
  uint32_t run_start, wave_shift;
  uint64_t addr;
  uint32_t size;
  int store, found;       /* found: a finding of this access was kept (one per access) */
} emu_access;

/* Whether earlier access s is unordered with access a: another work-item,
 * the same barrier interval and, within one wave, no wave barrier between. */
static inline int emu_unordered(const emu_lds_side *s, const emu_access *a) {
  return s->item && s->item != a->side.item && s->epoch == a->side.epoch &&
         ((s->item - 1u) >> a->wave_shift != a->wave || s->wave_epoch == a->side.wave_epoch);
}

/* Whether s conflicts with access a: unordered, and not both atomic. */
static inline int emu_conflict(const emu_lds_side *s, const emu_access *a) {
  return emu_unordered(s, a) && !(a->side.atomic && s->atomic);
}

/* Keeps hazard `kind` of access a against o; returns whether it was kept.
 * (A macro: the hot path passes only scalars, so its access stays in
 * registers instead of a stack copy read back wider than it was written.) */
#define emu_report(w, a, kind, o)                                                                                \
  emu_found((w), (a)->item, (kind), (o), (a)->side.pc, (a)->addr, (a)->size, (a)->store, (int)(a)->side.atomic)

/* Write a conflicts with at least one of the n sides (conflict[k]): keeps
 * the first that is in another wave (an error), else the first (within a
 * wave); sides[0] is the last write. */
__attribute__((noinline, cold)) static int emu_write_found(emu_worker *w, const emu_access *a,
                                                            const emu_lds_side *const *sides, const int *conflict,
                                                            int n) {
  int pick = -1;
  for (int k = 0; k < n; k++)
    if (conflict[k]) {
      if (pick < 0) pick = k;
      if ((sides[k]->item - 1u) >> a->wave_shift != a->wave) { pick = k; break; }
    }
  return emu_report(w, a, pick == 0 ? EMU_WAW : EMU_WAR, sides[pick]);
}

/* Read a into the readers kept, r and r2. They are enough to find whether a
 * write conflicts with any of the reads, and whether with one of another
 * wave (the error): r is the first reader, r2 another work-item's read, of
 * another wave than r's when there is one; each is replaced by a later read
 * of its own wave after a wave barrier (the older read is then ordered with
 * the rest of that wave, and the newer one stands for the wave as well), its
 * own work-item's included. Plain and atomic reads are kept apart (an atomic
 * write conflicts with the plain ones only), each so. */
__attribute__((always_inline)) static inline void emu_keep_reader(emu_lds_side *r, emu_lds_side *r2, const emu_access *a) {
  uint32_t shift = a->wave_shift, rw = (r->item - 1u) >> shift;
  if (r->epoch != a->side.epoch || (rw == a->wave && r->wave_epoch != a->side.wave_epoch)) {
    *r = a->side; /* first of the interval (r2, older, counts as none), or newer for r's wave */
  } else if (r->item != a->side.item) {
    uint32_t w2 = (r2->item - 1u) >> shift;
    if (r2->epoch != a->side.epoch || r2->item == r->item || (w2 == rw && a->wave != rw) ||
        (w2 == a->wave && r2->wave_epoch != a->side.wave_epoch))
      *r2 = a->side;
  }
}

/* Record e's atomic readers of the running epoch (none kept of an earlier
 * one: its entry starts over). */
static inline emu_lds_readers *emu_atomic_readers(emu_worker *w, emu_lds_rec *e, uint32_t epoch) {
  emu_lds_readers *x = &w->atomic_reads[e - w->track];
  if (e->atomic_epoch != epoch) {
    memset(x, 0, sizeof *x);
    e->atomic_epoch = epoch;
  }
  return x;
}

/* Access a on the bytes record e stands for. */
__attribute__((always_inline)) static inline void emu_step(emu_worker *w, emu_lds_rec *e, emu_access *a) {
  if (!a->store) {
    if (!a->found) {
      if (w->checks.detect_uninit && e->w.epoch < a->run_start) a->found = emu_report(w, a, EMU_UNINIT, NULL);
      else if (emu_conflict(&e->w, a)) a->found = emu_report(w, a, EMU_RAW, &e->w);
    }
    if (a->side.atomic) {
      emu_lds_readers *x = emu_atomic_readers(w, e, a->side.epoch);
      emu_keep_reader(&x->r, &x->r2, a);
    } else {
      emu_keep_reader(&e->r, &e->r2, a);
    }
    return;
  }
  if (!a->found) {
    /* A plain write also conflicts with the atomic readers of its epoch. */
    const emu_lds_readers *x = !a->side.atomic && e->atomic_epoch == a->side.epoch ? &w->atomic_reads[e - w->track] : NULL;
    const emu_lds_side *sides[5] = {&e->w, &e->r, &e->r2, x ? &x->r : NULL, x ? &x->r2 : NULL};
    int conflict[5] = {emu_conflict(&e->w, a), emu_conflict(&e->r, a), emu_conflict(&e->r2, a),
                       x && emu_conflict(&x->r, a), x && emu_conflict(&x->r2, a)};
    if (conflict[0] | conflict[1] | conflict[2] | conflict[3] | conflict[4])
      a->found = emu_write_found(w, a, sides, conflict, 5);
  }
  e->w = a->side;
}

/* The access of size_kind (bytes | store << 31 | atomic << 30) at p, by the
 * code at pc. Whole aligned words whose bytes share a record take one step;
 * any other byte its own. */
static void emu_track(const void *p, uint32_t size_kind, uint64_t pc) {
  emu_worker *w = ldsan_emu_self;
  uint64_t block, bsize;
  emu_lds_rec *t = emu_lds_table(w, &block, &bsize);
  uint64_t addr = (uint64_t)(uintptr_t)p, off = addr - block;
  if (!t || off >= bsize) return;
  emu_access a;
  uint32_t size = size_kind & 0x3fffffffu;
  a.item = ldsan_emu_current_item(w);
  a.wave = a.item >> w->wave_shift;
  a.wave_shift = w->wave_shift;
  a.run_start = w->run_start;
  a.addr = addr;
  a.size = size;
  a.store = (size_kind >> 31) != 0;
  a.found = 0;
  a.side.pc = pc;
  a.side.epoch = w->barrier_epoch;
  a.side.wave_epoch = w->wave_epoch[a.wave];
  a.side.item = (uint16_t)(a.item + 1);
  a.side.size = (uint16_t)(size > 0xffffu ? 0xffffu : size);
  a.side.atomic = (size_kind >> 30) & 1;
  uint64_t end = bsize - off < (size ? size : 1) ? bsize : off + (size ? size : 1);
  if (w->checks.detect_uninit) ldsan_emu_lds_settle(w, t, block, bsize, addr, end - off);
  emu_lds_rec *bytes = t + (bsize + 3) / 4;
  while (off < end) {
    emu_lds_rec *word = &t[off / 4];
    int split = word->split_epoch >= a.run_start;
    if (!split && off % 4 == 0 && end - off >= 4) {
      emu_step(w, word, &a);
      off += 4;
      continue;
    }
    emu_lds_rec *b = &bytes[off & ~3ull];
    if (!split) { /* the word's bytes part ways: each its own record from now on in this run */
      for (int k = 0; k < 4; k++) b[k] = *word, w->atomic_reads[&b[k] - t] = w->atomic_reads[word - t];
      word->split_epoch = a.side.epoch;
      w->split_run = a.run_start;
    }
    uint64_t stop = end < (off | 3) + 1 ? end : (off | 3) + 1;
    for (; off < stop; off++) emu_step(w, &bytes[off], &a);
  }
}

/* An access of the checked copy's code: the call's return address is its pc. */
EMU_API void __ldsan_emu_lds_track(const void *p, uint32_t size_kind) {
  emu_track(p, size_kind, (uint64_t)(uintptr_t)__builtin_return_address(0));
}

/* The same behind an inline path (lds_track.h), with the pc that path
 * records for the access, so both keep one pc per access. */
EMU_API void __ldsan_emu_lds_track_at(const void *p, uint32_t size_kind, uint64_t pc) { emu_track(p, size_kind, pc); }
