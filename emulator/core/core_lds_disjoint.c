/* The LDS checks' decision once per work-item loop instead of once per access
 * (retarget_lds_disjoint.cpp builds the spans, lds_track.h says what a span
 * is): whether a loop that runs a whole barrier interval for every work-item
 * of the workgroup can skip the records' comparisons. It can when
 *
 *   - no byte is accessed by two work-items with at least one of them
 *     writing (then nothing of this interval can race, with itself or in a
 *     wave), and
 *   - with detect_uninit, every word the reads may touch was written earlier
 *     in this workgroup's run, as whole words (a record split into bytes is
 *     looked at by the slow path only).
 *
 * Each span gives the first work-item's bytes and the step between
 * work-items, so for accesses a and b (a writing) the loop is disjoint when
 * the bytes all work-items touch through a and through b do not meet, or when
 * a and b move by the same step and both first work-item's windows fit in
 * one step (work-item i's bytes then lie in [lo + i * step, + |step|)); a
 * with itself: its window fits in its step. A span wholly outside the block
 * is not LDS (a flat or global access: not tracked); one that straddles its
 * edge, or anything out of range, says no: the loop then checks every access
 * as before. No report depends on this answer, only where the checks run.
 *
 * A bare copy of the loop (first: its first work-item's ids) keeps nothing
 * of its accesses itself, not even its writes: on a yes the core keeps them
 * (a fill of whole words, one work-item after the next, in the interval of
 * words known written; any other write in its records, as the inline path's
 * fast write would), so a yes also needs every write to be one that each
 * work-item makes, of whole words (width 0, aligned, a multiple of 4 bytes)
 * not split into bytes in this run. */
#include <stdint.h>
#include <string.h>

#include "core_internal.h"
#include "ldsan/emu/lds_track.h"

#define EMU_DISJOINT_MAX_ITEMS (1u << 20)

typedef struct emu_hull {
  __int128 lo, hi;         /* every work-item's bytes: [lo, hi) */
  __int128 win_lo, win_hi; /* the first work-item's */
  int64_t step;
  int store;
  int fills; /* the loop writes every word of [lo, hi) */
  int words; /* every work-item writes size / 4 whole words at win_lo + i * step */
  uint32_t size;
} emu_hull;

/* Whether the bytes of a (writing) and b are never the same for two
 * different work-items. */
static int emu_apart(const emu_hull *a, const emu_hull *b, uint64_t items) {
  if (items == 1 || a->hi <= b->lo || b->hi <= a->lo) return 1;
  if (a->step != b->step) return 0;
  __int128 lo = a->win_lo < b->win_lo ? a->win_lo : b->win_lo;
  __int128 hi = a->win_hi > b->win_hi ? a->win_hi : b->win_hi;
  __int128 step = a->step < 0 ? -(__int128)a->step : a->step;
  return hi - lo <= step;
}

/* The words written in this run are those whose records say so (the last
 * write's epoch is the run's or later) and those of one interval the worker
 * keeps (written_lo, written_hi: every word that overlaps it), which a bare
 * loop's fill extends without writing records. A record of it says so once
 * something looks at it (ldsan_emu_lds_settle: an access the inline path
 * sends to the core) or the interval moves away. */

/* A record that says written in this run where it does not: by no
 * work-item (nothing of it can race: its epoch is over). */
static void emu_settle_rec(emu_lds_rec *r, uint32_t run_start) {
  if (r->w.epoch < run_start) r->w.epoch = run_start, r->w.item = 0, r->w.size = 0;
}

/* The records of the words that overlap block bytes [lo, hi) say written,
 * their bytes' too where the word is split. */
static void emu_settle(emu_lds_rec *recs, uint64_t block, uint64_t size, uint32_t run_start, __int128 lo, __int128 hi) {
  if (lo >= hi) return;
  uint64_t first = (uint64_t)(lo - (__int128)block) / 4, end = ((uint64_t)(hi - (__int128)block) + 3) / 4;
  emu_lds_rec *bytes = recs + (size + 3) / 4;
  for (uint64_t i = first; i < end; i++) {
    emu_settle_rec(&recs[i], run_start);
    if (recs[i].split_epoch >= run_start)
      for (uint64_t k = 0; k < 4; k++) emu_settle_rec(&bytes[i * 4 + k], run_start);
  }
}

void ldsan_emu_lds_settle(emu_worker *w, emu_lds_rec *recs, uint64_t block, uint64_t size, uint64_t addr, uint64_t n) {
  __int128 lo = addr > w->written_lo ? addr : w->written_lo, hi = (__int128)addr + n;
  if (hi > (__int128)w->written_hi) hi = w->written_hi;
  emu_settle(recs, block, size, w->run_start, lo, hi);
}

/* Takes note that the words of [lo, hi) (inside the block) are written in
 * this run: the worker keeps one interval, the union when they overlap or
 * touch, else the larger one; the records of the other then say written
 * (recorded: they already do, for [lo, hi)). */
static void emu_known_written(emu_worker *w, const ldsan_emu_tls_state *t, __int128 lo, __int128 hi, int recorded) {
  __int128 known_lo = w->written_lo, known_hi = w->written_hi;
  emu_lds_rec *recs = (emu_lds_rec *)t->track_recs;
  if (known_hi <= known_lo || hi < known_lo || lo > known_hi) { /* disjoint from the known: the larger one */
    if (known_hi - known_lo < hi - lo) {
      emu_settle(recs, t->track_block, t->track_size, t->track_run_start, known_lo, known_hi);
      w->written_lo = (uint64_t)lo, w->written_hi = (uint64_t)hi;
    } else if (!recorded) {
      emu_settle(recs, t->track_block, t->track_size, t->track_run_start, lo, hi);
    }
  } else { /* overlapping or adjacent: their union */
    w->written_lo = (uint64_t)(lo < known_lo ? lo : known_lo);
    w->written_hi = (uint64_t)(hi > known_hi ? hi : known_hi);
  }
}

/* Whether the words of [lo, hi) (inside the block) were all written in this
 * run (as whole words when looked at). A word stays written for the rest of
 * the run (a later split copies its record to its bytes), so the worker
 * remembers one interval found written and looks at the records only for
 * the words outside it: the levels of a tree read parts of what the first
 * level read. */
static int emu_written(emu_worker *w, const ldsan_emu_tls_state *t, __int128 lo, __int128 hi) {
  __int128 known_lo = w->written_lo, known_hi = w->written_hi, block = t->track_block;
  if (lo >= known_lo && hi <= known_hi) return 1;
  uint64_t first = (uint64_t)(lo - block) / 4, end = ((uint64_t)(hi - block) + 3) / 4;
  const emu_lds_rec *recs = (const emu_lds_rec *)t->track_recs;
  for (uint64_t i = first; i < end; i++) {
    __int128 word = block + (__int128)i * 4;
    if (word < known_hi && word + 4 > known_lo) continue; /* overlaps the known */
    if (recs[i].split_epoch >= t->track_run_start || recs[i].w.epoch < t->track_written_floor) return 0;
  }
  emu_known_written(w, t, lo, hi, 1);
  return 1;
}

/* The record of the word at byte `off` of the block. */
static emu_lds_rec *emu_rec_at(const ldsan_emu_tls_state *t, __int128 off) {
  return (emu_lds_rec *)t->track_recs + (uint64_t)off / 4;
}

/* Whether the words a's work-items write are all whole in this run (surely
 * when no word was split in it: the core splits them, emu_track). */
static int emu_words_whole(const emu_worker *w, const ldsan_emu_tls_state *t, const emu_hull *a, uint64_t items) {
  if (w->split_run != t->track_run_start) return 1;
  __int128 off = a->win_lo - (__int128)t->track_block;
  for (uint64_t i = 0; i < items; i++, off += a->step)
    for (uint32_t k = 0; k < a->size; k += 4)
      if (emu_rec_at(t, off + k)->split_epoch >= t->track_run_start) return 0;
  return 1;
}

/* The bare copy's writes of a, kept as its inline paths would: work-item
 * first + i writes its words in the running epoch (the side's epoch, item
 * and size: one 8-byte word, lds_track.h). */
static void emu_keep_writes(const ldsan_emu_tls_state *t, const emu_hull *a, uint64_t items, uint64_t first) {
  emu_lds_rec *rec = emu_rec_at(t, a->win_lo - (__int128)t->track_block);
  int64_t step = a->step / 4; /* in records */
  uint64_t key = t->track_epoch | (uint64_t)(a->size > 0xffffu ? 0xffffu : a->size) << 48;
  for (uint64_t i = 0; i < items; i++, rec += step) {
    uint64_t mine = key | (first + i + 1) << 32;
    for (uint32_t k = 0; k < a->size / 4; k++) memcpy(&rec[k].w.epoch, &mine, sizeof mine);
  }
}

EMU_API int __ldsan_emu_lds_disjoint(const emu_lds_span *spans, uint32_t n, uint64_t items,
                                     const ldsan_emu_item_ids *first) {
  const ldsan_emu_tls_state *t = &__ldsan_emu_tls;
  emu_worker *w = ldsan_emu_self;
  if (!t->track_size || !t->track_recs || items == 0 || items > EMU_DISJOINT_MAX_ITEMS || n > LDSAN_EMU_DISJOINT_MAX_SPANS)
    return 0;
  uint64_t first_item = 0;
  if (first) { /* the bare copy's work-items: first_item + i, each with an item field */
    if (!t->track_ids || first < t->track_ids || (uint64_t)(first - t->track_ids) + items > EMU_MAX_BLOCK) return 0;
    first_item = (uint64_t)(first - t->track_ids);
  }
  __int128 block = t->track_block, end = block + (__int128)t->track_size;
  emu_hull h[LDSAN_EMU_DISJOINT_MAX_SPANS];
  uint32_t m = 0;
  for (uint32_t i = 0; i < n; i++) {
    const emu_lds_span *s = &spans[i];
    if (s->width > LDSAN_EMU_DISJOINT_MAX_BYTES || s->size > LDSAN_EMU_DISJOINT_MAX_BYTES ||
        s->step >= (int64_t)LDSAN_EMU_DISJOINT_MAX_BYTES || s->step <= -(int64_t)LDSAN_EMU_DISJOINT_MAX_BYTES)
      return 0;
    __int128 d = (__int128)s->step * (__int128)(items - 1);
    emu_hull *x = &h[m]; /* filled in place (a copy of it cost 6% of the checked reduction) */
    x->win_lo = s->lo;
    x->step = s->step;
    x->store = (s->kind & LDSAN_EMU_SPAN_STORE) != 0;
    /* Every work-item writes whole words, one after another: after the loop
     * the hull is written (noted only when the answer is yes). */
    __int128 size = s->size;
    x->size = s->size;
    x->words = (s->kind & LDSAN_EMU_SPAN_EVERY) && x->store && s->width == 0 && s->size % 4 == 0 &&
               (s->lo - (uint64_t)block) % 4 == 0 && s->step % 4 == 0;
    x->fills = x->words && (items == 1 || s->step == size || s->step == -size);
    x->win_hi = x->win_lo + s->width + s->size;
    x->lo = x->win_lo + (d < 0 ? d : 0);
    x->hi = x->win_hi + (d > 0 ? d : 0);
    if (x->hi <= block || x->lo >= end) continue; /* not LDS */
    if (x->lo < block || x->hi > end) return 0;
    m++;
  }
  if (t->track_written_floor) { /* the reads' words, each once: their hulls sorted and merged */
    __int128 lo[LDSAN_EMU_DISJOINT_MAX_SPANS], hi[LDSAN_EMU_DISJOINT_MAX_SPANS];
    uint32_t r = 0;
    for (uint32_t i = 0; i < m; i++) {
      if (h[i].store) continue;
      uint32_t k = r++;
      for (; k > 0 && lo[k - 1] > h[i].lo; k--) lo[k] = lo[k - 1], hi[k] = hi[k - 1];
      lo[k] = h[i].lo, hi[k] = h[i].hi;
    }
    for (uint32_t i = 0; i < r;) {
      __int128 a = lo[i], b = hi[i];
      for (i++; i < r && lo[i] <= b; i++)
        if (hi[i] > b) b = hi[i];
      if (!emu_written(w, t, a, b)) return 0;
    }
  }
  for (uint32_t i = 0; i < m; i++) {
    if (!h[i].store) continue;
    __int128 step = h[i].step < 0 ? -(__int128)h[i].step : h[i].step;
    if (items > 1 && h[i].win_hi - h[i].win_lo > step) return 0;
    for (uint32_t k = 0; k < m; k++)
      if (k != i && !emu_apart(&h[i], &h[k], items)) return 0;
    if (first && (!h[i].words || !emu_words_whole(w, t, &h[i], items))) return 0;
  }
  /* The bare copy keeps no write: its records, here. Only whether a word was
   * written in this run matters once the loop's interval is over (a race
   * needs two accesses of one epoch, and the loop is its whole epoch), so
   * without detect_uninit nothing, and a fill only joins the known interval.
   * The copy that keeps its writes has written the records of its fills. */
  if (!t->track_written_floor) return 1;
  for (uint32_t i = 0; i < m; i++)
    if (h[i].fills)
      emu_known_written(w, t, h[i].lo, h[i].hi, !first);
    else if (first && h[i].store && (h[i].lo < (__int128)w->written_lo || h[i].hi > (__int128)w->written_hi))
      emu_keep_writes(t, &h[i], items, first_item);
  return 1;
}
