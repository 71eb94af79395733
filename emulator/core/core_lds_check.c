/* ldsan emulator core: the LDS checks that need every access, not just the
 * shadow: options detect_races, detect_uninit and report_wave_sync. When one
 * is on, kernels run as their checked copy (ldsan_emu_kernel.entry_checked),
 * in which every shared-memory access of the kernel's own code calls
 * __ldsan_emu_lds_track first (retarget_wave.cpp, rt_lds_checks); accesses inside the workgroup's LDS block are kept here,
 * per byte: the last writer (work-item, pc, size, atomic), one reader since
 * then (and whether there were more), with the barrier epoch (workgroup
 * barriers released so far) and the wave epoch (wave barriers of that wave)
 * of each. Records carry the workgroup run (gen), so a new workgroup starts
 * clean without clearing the table; epochs are 32-bit counts of one
 * workgroup's barriers, which do not wrap in practice (2^32 barriers).
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

#include "../../include/ldsan/abi.h"
#include "core_internal.h"

#define EMU_API __attribute__((visibility("default")))

enum { EMU_W_ATOMIC = 1, EMU_R_ATOMIC = 2, EMU_READERS = 4 };

typedef struct emu_lds_byte {
  uint32_t gen;                     /* the workgroup run this record is of (emu_worker.track_gen) */
  uint32_t writer, reader;          /* work-item + 1; 0: none */
  uint32_t w_epoch, r_epoch, w_wave_epoch, r_wave_epoch;
  uint16_t w_size, r_size;
  uint32_t flags;
  uint64_t w_pc, r_pc;
} emu_lds_byte;

enum emu_hazard { EMU_UNINIT, EMU_RAW, EMU_WAR, EMU_WAW };

/* The running workgroup's LDS block and the table for it; NULL if none. */
static emu_lds_byte *emu_lds_table(emu_worker *w, uint64_t *block, uint64_t *size) {
  if (w->track_block_gen != w->track_gen) {
    w->track_block = w->track_size = 0;
    uint64_t b = 0;
    memcpy(&b, __ldsan_emu_tls.lds_base, sizeof b); /* the LDS pass's slot at offset 0 */
    ldsan_block_header h;
    if (b) { /* 0 until the prologue has taken the block: look again next time */
      w->track_block_gen = w->track_gen;
      memcpy(&h, (const void *)(uintptr_t)(b - LDSAN_BLOCK_HEADER_SIZE), sizeof h);
      if (h.self == b && h.block_size && h.block_size <= (1u << 20)) {
        if (h.block_size > w->track_cap) {
          free(w->track);
          w->track = calloc(h.block_size, sizeof(emu_lds_byte));
          w->track_cap = w->track ? h.block_size : 0;
        }
        if (w->track) w->track_block = b, w->track_size = h.block_size;
      }
    }
  }
  *block = w->track_block;
  *size = w->track_size;
  return w->track_size ? w->track : NULL;
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
 * against record e (its other access). */
static void emu_found(emu_worker *w, uint32_t me, enum emu_hazard kind, const emu_lds_byte *e, uint64_t pc,
                      uint64_t addr, uint32_t size, int write, int atomic) {
  uint32_t other = kind == EMU_UNINIT ? 0 : kind == EMU_WAR ? e->reader : e->writer;
  int same_wave = other && (other - 1) >> w->wave_shift == me >> w->wave_shift;
  const emu_check_options *o = &w->checks;
  if (kind != EMU_UNINIT && !o->detect_races && !(same_wave && kind == EMU_RAW && o->report_wave_sync)) return;
  int warning = kind != EMU_UNINIT && same_wave && o->detect_races < 2;
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
    r.kind = same_wave && !o->detect_races ? LDSAN_REPORT_WAVE_SYNC_DEPENDENCE : LDSAN_REPORT_LDS_DATA_RACE;
    r.hazard = kind == EMU_RAW ? LDSAN_HAZARD_RAW : kind == EMU_WAR ? LDSAN_HAZARD_WAR : LDSAN_HAZARD_WAW;
    int other_atomic = (e->flags & (kind == EMU_WAR ? EMU_R_ATOMIC : EMU_W_ATOMIC)) != 0;
    emu_fill_other(w, other - 1, kind == EMU_WAR ? e->r_pc : e->w_pc, &r);
    r.other_size = kind == EMU_WAR ? e->r_size : e->w_size;
    r.other_flags = (kind != EMU_WAR ? LDSAN_ACCESS_WRITE : 0) | (other_atomic ? LDSAN_ACCESS_ATOMIC : 0);
  }
  emu_keep(w, &r, me);
}

/* A barrier-divergence record (the other fields by the caller); a work-item
 * that returned is a warning unless detect_races=2. */
static ldsan_report_record emu_divergence(const emu_worker *w, int returned) {
  ldsan_report_record r;
  memset(&r, 0, sizeof r);
  r.state = LDSAN_RECORD_READY;
  r.kind = LDSAN_REPORT_BARRIER_DIVERGENCE;
  /* A work-item that returned does not hold the others up on AMD GPUs (nor on
   * NVIDIA's since Volta), but its work is missing past the barrier: a
   * warning (an error with detect_races=2); waiting at different barriers is
   * always an error. */
  r.flags = LDSAN_REPORT_DEFERRED | (returned && w->checks.detect_races < 2 ? LDSAN_REPORT_WARNING : 0);
  return r;
}

void ldsan_emu_check_barrier(emu_worker *w, int released) {
  if (!w->checks.detect_races) return;
  uint32_t me = w->cur;
  if (!released) { /* work-item `me` left the body while others wait at a barrier */
    for (uint32_t i = 0; i < w->n; i++)
      if (w->fibers[i].state == EMU_WAIT) {
        ldsan_report_record r = emu_divergence(w, 1);
        r.pc = w->barrier_pc[i];
        emu_fill_other(w, me, 0, &r);
        emu_keep(w, &r, i);
        return;
      }
    return;
  }
  /* A barrier released: every work-item must wait at the same one, and none may have left. */
  if (w->departed) {
    ldsan_report_record r = emu_divergence(w, 1);
    r.pc = w->barrier_pc[me];
    emu_fill_other(w, w->departed - 1, 0, &r);
    emu_keep(w, &r, me);
    return;
  }
  for (uint32_t i = 0; i < w->n; i++)
    if (w->fibers[i].state == EMU_WAIT && w->barrier_pc[i] != w->barrier_pc[me]) {
      ldsan_report_record r = emu_divergence(w, 0);
      r.pc = w->barrier_pc[me];
      emu_fill_other(w, i, w->barrier_pc[i], &r);
      emu_keep(w, &r, me);
      return;
    }
}

void ldsan_emu_check_pass(emu_worker *w, const uint32_t *states, uint32_t n, uint64_t waiting, uint64_t exit_regions) {
  (void)waiting;
  uint32_t first = n, left = n;
  for (uint32_t i = 0; i < n; i++) {
    uint32_t st = states[i];
    int gone = st == 0xffffffffu || (st / 2 < 64 && ((exit_regions >> (st / 2)) & 1));
    if (gone && left == n) left = i;
    if (gone) continue;
    if (first == n) {
      first = i;
    } else if (w->barrier_pc[i] != w->barrier_pc[first]) { /* at another barrier */
      ldsan_report_record r = emu_divergence(w, 0);
      r.pc = w->barrier_pc[i];
      emu_fill_other(w, first, w->barrier_pc[first], &r);
      emu_keep(w, &r, i);
      return;
    }
  }
  if (first < n && left < n) { /* released past a barrier some work-item will never reach */
    ldsan_report_record r = emu_divergence(w, 1);
    r.pc = w->barrier_pc[first];
    emu_fill_other(w, left, 0, &r);
    emu_keep(w, &r, first);
  }
}

EMU_API void __ldsan_emu_lds_barrier_note(void) {
  emu_worker *w = ldsan_emu_self;
  w->barrier_pc[ldsan_emu_current_item(w)] = (uint64_t)(uintptr_t)__builtin_return_address(0);
}

/* Whether an earlier access by work-item other - 1 (0: none) in barrier
 * epoch epoch and wave epoch wave_epoch is unordered with the current
 * work-item me - 1 of wave `wave` in epochs be, we: another work-item, the
 * same barrier interval and, within one wave, no wave barrier between. */
static int emu_unordered(uint32_t other, uint32_t epoch, uint32_t wave_epoch, uint32_t me, uint32_t wave, uint32_t be,
                         uint32_t we, uint32_t wave_shift) {
  return other && other != me && epoch == be && ((other - 1) >> wave_shift != wave || wave_epoch == we);
}

/* size_kind: bytes | store << 31 | atomic << 30. */
EMU_API void __ldsan_emu_lds_track(const void *p, uint32_t size_kind) {
  emu_worker *w = ldsan_emu_self;
  uint64_t block, bsize;
  emu_lds_byte *t = emu_lds_table(w, &block, &bsize);
  uint64_t a = (uint64_t)(uintptr_t)p, pc = (uint64_t)(uintptr_t)__builtin_return_address(0);
  uint32_t size = size_kind & 0x3fffffffu;
  if (!t || a < block || a >= block + bsize) return;
  int store = (size_kind >> 31) != 0, atomic = (size_kind >> 30) & 1;
  uint32_t item = ldsan_emu_current_item(w), me = item + 1, wave = item >> w->wave_shift;
  uint32_t be = w->barrier_epoch, we = w->wave_epoch[wave];
  uint64_t end = a + (size ? size : 1) > block + bsize ? block + bsize : a + (size ? size : 1);
  int found = 0;
  for (uint64_t x = a; x < end; x++) {
    emu_lds_byte *e = &t[x - block];
    if (e->gen != w->track_gen) memset(e, 0, sizeof *e), e->gen = w->track_gen;
    int w_now = emu_unordered(e->writer, e->w_epoch, e->w_wave_epoch, me, wave, be, we, w->wave_shift);
    int r_now = emu_unordered(e->reader, e->r_epoch, e->r_wave_epoch, me, wave, be, we, w->wave_shift);
    if (!store) {
      if (!found && w->checks.detect_uninit && !e->writer) found = 1, emu_found(w, item, EMU_UNINIT, e, pc, a, size, 0, atomic);
      if (!found && w_now && !(atomic && (e->flags & EMU_W_ATOMIC))) found = 1, emu_found(w, item, EMU_RAW, e, pc, a, size, 0, atomic);
      if (!e->reader || e->r_epoch != be) {
        e->reader = me, e->r_epoch = be, e->r_wave_epoch = we, e->r_pc = pc, e->r_size = (uint16_t)size;
        e->flags = (e->flags & ~(EMU_R_ATOMIC | EMU_READERS)) | (atomic ? EMU_R_ATOMIC : 0);
      } else if (e->reader != me) {
        e->flags |= EMU_READERS;
      }
    } else {
      if (!found && w_now && !(atomic && (e->flags & EMU_W_ATOMIC))) found = 1, emu_found(w, item, EMU_WAW, e, pc, a, size, 1, atomic);
      if (!found && r_now && !(atomic && (e->flags & EMU_R_ATOMIC))) found = 1, emu_found(w, item, EMU_WAR, e, pc, a, size, 1, atomic);
      e->writer = me, e->w_epoch = be, e->w_wave_epoch = we, e->w_pc = pc, e->w_size = (uint16_t)size;
      e->flags = (e->flags & ~EMU_W_ATOMIC) | (atomic ? EMU_W_ATOMIC : 0);
    }
  }
}
