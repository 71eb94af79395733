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
 * as before. No report depends on this answer, only where the checks run. */
#include <stdint.h>

#include "core_internal.h"
#include "lds_track.h"

#define EMU_DISJOINT_MAX_ITEMS (1u << 20)

typedef struct emu_hull {
  __int128 lo, hi;         /* every work-item's bytes: [lo, hi) */
  __int128 win_lo, win_hi; /* the first work-item's */
  int64_t step;
  int store;
  int fills; /* the loop writes every word of [lo, hi) */
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

/* Takes note that the words of [lo, hi) (inside the block) are written in
 * this run: the worker keeps one interval, the union when they overlap or
 * touch, else the larger one. */
static void emu_known_written(emu_worker *w, __int128 lo, __int128 hi) {
  __int128 known_lo = w->written_lo, known_hi = w->written_hi;
  if (known_hi <= known_lo || hi < known_lo || lo > known_hi) { /* disjoint from the known: the larger one */
    if (known_hi - known_lo < hi - lo) w->written_lo = (uint64_t)lo, w->written_hi = (uint64_t)hi;
  } else { /* overlapping or adjacent: their union */
    w->written_lo = (uint64_t)(lo < known_lo ? lo : known_lo);
    w->written_hi = (uint64_t)(hi > known_hi ? hi : known_hi);
  }
}

/* Whether the words of [lo, hi) (inside the block) were all written in this
 * run (as whole words when looked at). A word stays written for the rest of
 * the run (a later split copies its record to its bytes), so the worker
 * remembers one interval found written and looks at the records only for
 * what lies outside it: the levels of a tree read parts of what the first
 * level read. */
static int emu_written(emu_worker *w, const ldsan_emu_tls_state *t, __int128 lo, __int128 hi) {
  __int128 known_lo = w->written_lo, known_hi = w->written_hi;
  if (lo >= known_lo && hi <= known_hi) return 1;
  uint64_t first = (uint64_t)(lo - (__int128)t->track_block) / 4;
  uint64_t end = ((uint64_t)(hi - (__int128)t->track_block) + 3) / 4;
  const emu_lds_rec *recs = (const emu_lds_rec *)t->track_recs;
  for (uint64_t i = first; i < end; i++)
    if (recs[i].split_epoch >= t->track_run_start || recs[i].w.epoch < t->track_written_floor) return 0;
  emu_known_written(w, lo, hi);
  return 1;
}

EMU_API int __ldsan_emu_lds_disjoint(const emu_lds_span *spans, uint32_t n, uint64_t items) {
  const ldsan_emu_tls_state *t = &__ldsan_emu_tls;
  emu_worker *w = ldsan_emu_self;
  if (!t->track_size || !t->track_recs || items == 0 || items > EMU_DISJOINT_MAX_ITEMS || n > LDSAN_EMU_DISJOINT_MAX_SPANS)
    return 0;
  __int128 block = t->track_block, end = block + (__int128)t->track_size;
  emu_hull h[LDSAN_EMU_DISJOINT_MAX_SPANS];
  uint32_t m = 0;
  for (uint32_t i = 0; i < n; i++) {
    const emu_lds_span *s = &spans[i];
    if (s->width > LDSAN_EMU_DISJOINT_MAX_BYTES || s->size > LDSAN_EMU_DISJOINT_MAX_BYTES ||
        s->step >= (int64_t)LDSAN_EMU_DISJOINT_MAX_BYTES || s->step <= -(int64_t)LDSAN_EMU_DISJOINT_MAX_BYTES)
      return 0;
    __int128 d = (__int128)s->step * (__int128)(items - 1);
    emu_hull x = {.win_lo = s->lo, .step = s->step, .store = (s->kind & LDSAN_EMU_SPAN_STORE) != 0};
    /* Every work-item writes whole words, one after another: after the loop
     * the hull is written (noted only when the answer is yes). */
    __int128 size = s->size;
    x.fills = (s->kind & LDSAN_EMU_SPAN_EVERY) && x.store && s->width == 0 && s->size % 4 == 0 &&
              (s->lo - (uint64_t)block) % 4 == 0 && (items == 1 || s->step == size || s->step == -size);
    x.win_hi = x.win_lo + s->width + s->size;
    x.lo = x.win_lo + (d < 0 ? d : 0);
    x.hi = x.win_hi + (d > 0 ? d : 0);
    if (x.hi <= block || x.lo >= end) continue; /* not LDS */
    if (x.lo < block || x.hi > end) return 0;
    h[m++] = x;
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
  }
  if (t->track_written_floor) /* the next loops' reads of what this one writes need no look at the records */
    for (uint32_t i = 0; i < m; i++)
      if (h[i].fills) emu_known_written(w, h[i].lo, h[i].hi);
  return 1;
}
