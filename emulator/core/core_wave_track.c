/* ldsan emulator core: the option report_wave_sync. In a kernel whose waves
 * run in lockstep, every plain LDS load and store of the kernel's own code
 * calls __ldsan_emu_wave_track first (the retarget tool puts the calls in).
 * A store records, per 4-byte granule, which work-item wrote it, where, and in
 * which synchronization epoch of its wave; a load of a granule that another
 * lane of the same wave wrote in the same epoch is code that works only in
 * lockstep. An epoch ends at every workgroup barrier and at every wave
 * barrier the wave executes (core_sched.c bumps the counters). Findings are
 * kept per dispatch (one per pair of source locations, at most
 * EMU_WAVE_WARNINGS) and printed as warnings by ldsan_emu_finish_dispatch;
 * results are not changed. */
#include <stdlib.h>
#include <string.h>

#include "../../include/ldsan/abi.h"
#include "core_internal.h"

#define EMU_API __attribute__((visibility("default")))
#define EMU_TRACK_SLOTS (1u << 15) /* granules written per workgroup: 64 KiB of LDS fills half */

typedef struct emu_track_entry {
  uint64_t granule;       /* address / 4 */
  uint64_t pc, address;   /* the store */
  uint32_t gen;           /* the workgroup run it belongs to (emu_worker.track_gen) */
  uint32_t item;          /* linear work-item that stored */
  uint32_t barrier_epoch, wave_epoch, size;
} emu_track_entry;

/* The worker's table for the running workgroup, made on first use. */
static emu_track_entry *emu_track_table(emu_worker *w) {
  if (!w->track) {
    w->track = calloc(EMU_TRACK_SLOTS, sizeof(emu_track_entry));
    if (!w->track) return NULL;
  }
  return w->track;
}

static emu_track_entry *emu_track_slot(emu_worker *w, uint64_t granule, int insert) {
  emu_track_entry *t = emu_track_table(w);
  if (!t) return NULL;
  uint32_t h = (uint32_t)((granule * 0x9e3779b97f4a7c15ull) >> 49);
  for (uint32_t k = 0; k < 64; k++) {
    emu_track_entry *e = &t[(h + k) & (EMU_TRACK_SLOTS - 1)];
    if (e->gen != w->track_gen) return insert ? e : NULL;
    if (e->granule == granule) return e;
  }
  return NULL; /* crowded: this granule goes untracked */
}

/* A work-item's ids and lane as a report record has them. */
static void emu_track_ids(const emu_worker *w, uint32_t item, ldsan_report_record *r) {
  const emu_fiber *f = &w->fibers[item];
  memcpy(r->workitem_id, f->ids.id, sizeof r->workitem_id);
  r->lane = f->ids.lane;
  memcpy(r->workgroup_id, __ldsan_emu_tls.group_id, sizeof r->workgroup_id);
  uint64_t block = 0;
  memcpy(&block, __ldsan_emu_tls.lds_base, sizeof block); /* the LDS pass's slot at offset 0 */
  r->block = block;
}

static void emu_track_found(emu_worker *w, const emu_track_entry *e, uint64_t pc, uint64_t address, uint32_t size) {
  emu_dispatch *d = w->d;
  pthread_mutex_lock(&d->lock);
  int known = 0;
  for (uint32_t i = 0; i < d->wave_warning_count && !known; i++)
    known = d->wave_warnings[i].read.pc == pc && d->wave_warnings[i].write.pc == e->pc;
  if (!known && d->wave_warning_count < EMU_WAVE_WARNINGS) {
    emu_wave_warning *x = &d->wave_warnings[d->wave_warning_count++];
    memset(x, 0, sizeof *x);
    x->read.address = x->read.access_address = address;
    x->read.size = size;
    x->read.pc = pc;
    emu_track_ids(w, w->cur, &x->read);
    x->write.address = x->write.access_address = e->address;
    x->write.size = e->size;
    x->write.pc = e->pc;
    x->write.flags = LDSAN_ACCESS_WRITE;
    emu_track_ids(w, e->item, &x->write);
  }
  pthread_mutex_unlock(&d->lock);
}

/* size_kind: bytes, plus bit 31 for a store. */
EMU_API void __ldsan_emu_wave_track(const void *p, uint32_t size_kind) {
  emu_worker *w = ldsan_emu_self;
  if (!w->lockstep || !w->report_wave_sync) return;
  uint64_t pc = (uint64_t)(uintptr_t)__builtin_return_address(0), a = (uint64_t)(uintptr_t)p;
  uint32_t size = size_kind & 0x7fffffffu, me = w->cur, wave = me / LDSAN_EMU_WAVE_SIZE;
  int store = (size_kind >> 31) != 0;
  for (uint64_t g = a / 4; g <= (a + (size ? size : 1) - 1) / 4; g++) {
    emu_track_entry *e = emu_track_slot(w, g, store);
    if (!e) continue;
    if (store) {
      *e = (emu_track_entry){g, pc, a, w->track_gen, me, w->barrier_epoch, w->wave_epoch[wave], size};
    } else if (e->item != me && e->item / LDSAN_EMU_WAVE_SIZE == wave && e->barrier_epoch == w->barrier_epoch &&
               e->wave_epoch == w->wave_epoch[wave]) {
      emu_track_found(w, e, pc, a, size);
      return;
    }
  }
}
