/* Unit test of __ldsan_emu_lds_disjoint (emulator/core/core_lds_disjoint.c),
 * the LDS checks' decision once per work-item loop, on spans built by hand:
 * disjoint and overlapping accesses, reads of words written or not in this
 * workgroup's run (detect_uninit), and the interval of words known written
 * that a yes for a loop whose every work-item writes whole words, one after
 * another, extends -- and every case in which it must not: a write not made
 * by every work-item, one with gaps, a misaligned one, one spread over an
 * inner loop, a no, failed guards (no work-items), detect_uninit off. The
 * records are all "never written", so a read decides yes only through the
 * known interval. Then a bare copy's loops (first: the first work-item's
 * ids), whose writes the core keeps: a fill only in the known interval, whose
 * words' records say written once ldsan_emu_lds_settle looks or the interval
 * moves away; a write with gaps in its records, with each word's work-item;
 * and the cases that must say no (a write not every work-item makes, a word
 * split into bytes, work-items out of the workgroup). */
#include <stdio.h>
#include <string.h>

#include "core_internal.h"
#include "ldsan/emu/lds_track.h"

__thread ldsan_emu_tls_state __ldsan_emu_tls;
__thread emu_worker *ldsan_emu_self;

int __ldsan_emu_lds_disjoint(const emu_lds_span *spans, uint32_t n, uint64_t items, const ldsan_emu_item_ids *first);

static int failures;
#define EXPECT(cond)                                                   \
  do {                                                                 \
    if (!(cond)) {                                                     \
      fprintf(stderr, "lds_disjoint.c:%d: FAIL %s\n", __LINE__, #cond); \
      failures++;                                                      \
    }                                                                  \
  } while (0)

enum { WORDS = 256, BLOCK = 0x100000 };
static emu_lds_rec recs[WORDS * 5]; /* the words' records, then their bytes' */
static emu_worker worker;
static ldsan_emu_item_ids all_ids[1 + EMU_MAX_BLOCK]; /* one before the workgroup's */
#define ids (all_ids + 1)

/* A new workgroup run: nothing written, nothing known. */
static void new_run(int uninit) {
  memset(recs, 0, sizeof recs);
  memset(&worker, 0, sizeof worker);
  ldsan_emu_self = &worker;
  __ldsan_emu_tls.track_recs = (uint8_t *)recs;
  __ldsan_emu_tls.track_block = BLOCK;
  __ldsan_emu_tls.track_size = WORDS * 4;
  __ldsan_emu_tls.track_run_start = 10;
  __ldsan_emu_tls.track_epoch = 10;
  __ldsan_emu_tls.track_written_floor = uninit ? 10 : 0;
  __ldsan_emu_tls.track_ids = ids;
  worker.run_start = 10;
  worker.barrier_epoch = 10;
}

/* Whether the record of word k says written in this run. */
static int written(unsigned k) { return recs[k].w.epoch >= 10; }

static emu_lds_span span(uint64_t off, int64_t step, uint32_t size, uint32_t kind) {
  return (emu_lds_span){.lo = BLOCK + off, .width = 0, .step = step, .size = size, .kind = kind};
}

/* Whether a loop of `items` work-items reading bytes [off, off + items * 4),
 * one word each, decides yes: with no word written in the records, only the
 * known interval can say so. */
static int reads_pass(uint64_t off, uint64_t items) {
  emu_lds_span r = span(off, 4, 4, 0);
  return __ldsan_emu_lds_disjoint(&r, 1, items, NULL);
}

#define FILL (LDSAN_EMU_SPAN_STORE | LDSAN_EMU_SPAN_EVERY)

int main(void) {
  /* A staging loop (buf[t] = ..., 64 work-items): yes, and its words become known. */
  new_run(1);
  EXPECT(!reads_pass(0, 64)); /* nothing written yet */
  emu_lds_span s = span(0, 4, 4, FILL);
  EXPECT(__ldsan_emu_lds_disjoint(&s, 1, 64, NULL) == 1);
  EXPECT(worker.written_lo == BLOCK && worker.written_hi == BLOCK + 256);
  EXPECT(reads_pass(0, 64));
  EXPECT(reads_pass(128, 32)); /* a tree's next level: inside */
  EXPECT(!reads_pass(128, 64)); /* past what was written */

  /* Backwards, 8-byte words: the same hull. */
  new_run(1);
  s = span(504, -8, 8, FILL);
  EXPECT(__ldsan_emu_lds_disjoint(&s, 1, 64, NULL) == 1);
  EXPECT(worker.written_lo == BLOCK && worker.written_hi == BLOCK + 512);

  /* A second loop's words next to the first's: their union. */
  new_run(1);
  s = span(0, 4, 4, FILL);
  EXPECT(__ldsan_emu_lds_disjoint(&s, 1, 32, NULL) == 1);
  s = span(128, 4, 4, FILL);
  EXPECT(__ldsan_emu_lds_disjoint(&s, 1, 32, NULL) == 1);
  EXPECT(reads_pass(0, 64));

  /* A write not every work-item makes (if (t < s) buf[t] = ...): nothing known. */
  new_run(1);
  s = span(0, 4, 4, LDSAN_EMU_SPAN_STORE);
  EXPECT(__ldsan_emu_lds_disjoint(&s, 1, 64, NULL) == 1);
  EXPECT(worker.written_hi == 0 && !reads_pass(0, 64));

  /* Gaps between the work-items' words (buf[2 * t] = ...). */
  new_run(1);
  s = span(0, 8, 4, FILL);
  EXPECT(__ldsan_emu_lds_disjoint(&s, 1, 32, NULL) == 1);
  EXPECT(worker.written_hi == 0 && !reads_pass(0, 64));

  /* Bytes of a word only (a char array), and a misaligned start. */
  new_run(1);
  s = span(0, 2, 2, FILL);
  EXPECT(__ldsan_emu_lds_disjoint(&s, 1, 64, NULL) == 1);
  EXPECT(worker.written_hi == 0);
  s = span(2, 4, 4, FILL);
  EXPECT(__ldsan_emu_lds_disjoint(&s, 1, 32, NULL) == 1);
  EXPECT(worker.written_hi == 0);

  /* An access spread over an inner loop (width > 0): which bytes, unknown. */
  new_run(1);
  s = span(0, 16, 4, FILL);
  s.width = 12;
  EXPECT(__ldsan_emu_lds_disjoint(&s, 1, 16, NULL) == 1);
  EXPECT(worker.written_hi == 0);

  /* A no (two work-items write one word): nothing known. */
  new_run(1);
  emu_lds_span two[2] = {span(0, 4, 4, FILL), span(4, 4, 4, FILL)};
  EXPECT(__ldsan_emu_lds_disjoint(two, 2, 64, NULL) == 0);
  EXPECT(worker.written_hi == 0);

  /* Failed guards (the loop passes no work-items): a no, nothing known. */
  new_run(1);
  s = span(0, 4, 4, FILL);
  EXPECT(__ldsan_emu_lds_disjoint(&s, 1, 0, NULL) == 0);
  EXPECT(worker.written_hi == 0);

  /* Without detect_uninit nothing is kept, and reads need nothing. */
  new_run(0);
  EXPECT(reads_pass(0, 64));
  s = span(0, 4, 4, FILL);
  EXPECT(__ldsan_emu_lds_disjoint(&s, 1, 64, NULL) == 1);
  EXPECT(worker.written_hi == 0);

  /* Outside the block: not LDS, nothing to note. */
  new_run(1);
  s = span(WORDS * 4 + 64, 4, 4, FILL);
  EXPECT(__ldsan_emu_lds_disjoint(&s, 1, 16, NULL) == 1);
  EXPECT(worker.written_hi == 0);

  /* Bare: a staging fill (work-items 16..79) is yes and joins the known
   * interval, no record written until something looks. */
  new_run(1);
  s = span(0, 4, 4, FILL);
  EXPECT(__ldsan_emu_lds_disjoint(&s, 1, 64, &ids[16]) == 1);
  EXPECT(worker.written_lo == BLOCK && worker.written_hi == BLOCK + 256);
  EXPECT(!written(0) && !written(63));
  EXPECT(reads_pass(0, 64));
  ldsan_emu_lds_settle(&worker, recs, BLOCK, WORDS * 4, BLOCK + 8, 6); /* words 2 and 3 */
  EXPECT(!written(1) && written(2) && written(3) && !written(4));
  EXPECT(recs[2].w.item == 0 && recs[2].w.epoch == 10); /* by no work-item: nothing races with it */
  ldsan_emu_lds_settle(&worker, recs, BLOCK, WORDS * 4, BLOCK + 512, 4); /* outside the known: nothing */
  EXPECT(!written(128));

  /* A split word of the known interval: its bytes' records too. */
  recs[5].split_epoch = 10;
  ldsan_emu_lds_settle(&worker, recs, BLOCK, WORDS * 4, BLOCK + 21, 1);
  EXPECT(written(5) && recs[WORDS + 20].w.epoch == 10 && recs[WORDS + 23].w.epoch == 10);

  /* A larger fill apart from the known: the known's records say written, the
   * new one is known. */
  new_run(1);
  s = span(0, 4, 4, FILL);
  EXPECT(__ldsan_emu_lds_disjoint(&s, 1, 16, ids) == 1);
  s = span(512, 4, 4, FILL);
  EXPECT(__ldsan_emu_lds_disjoint(&s, 1, 64, ids) == 1);
  EXPECT(worker.written_lo == BLOCK + 512 && worker.written_hi == BLOCK + 768);
  EXPECT(written(0) && written(15) && !written(16) && !written(128));
  /* ... and a smaller one apart from it: its own records. */
  s = span(256, 4, 4, FILL);
  EXPECT(__ldsan_emu_lds_disjoint(&s, 1, 8, ids) == 1);
  EXPECT(worker.written_lo == BLOCK + 512 && written(64) && written(71) && !written(72));

  /* A write with gaps (buf[2 * t] = ...): its records, with each word's
   * work-item (first + i, + 1), epoch and size. */
  new_run(1);
  s = span(0, 8, 4, FILL);
  EXPECT(__ldsan_emu_lds_disjoint(&s, 1, 32, &ids[32]) == 1);
  EXPECT(worker.written_hi == 0);
  EXPECT(recs[0].w.item == 33 && recs[0].w.epoch == 10 && recs[0].w.size == 4);
  EXPECT(recs[62].w.item == 64 && !written(1) && !written(63));
  /* 8-byte words, backwards: both words of each. */
  new_run(1);
  s = span(248, -8, 8, FILL);
  EXPECT(__ldsan_emu_lds_disjoint(&s, 1, 16, ids) == 1);
  EXPECT(worker.written_lo == BLOCK + 128 && worker.written_hi == BLOCK + 256);

  /* Without detect_uninit a bare loop keeps nothing. */
  new_run(0);
  s = span(0, 8, 4, FILL);
  EXPECT(__ldsan_emu_lds_disjoint(&s, 1, 32, ids) == 1);
  EXPECT(!written(0) && worker.written_hi == 0);

  /* No for a bare loop: a write not every work-item makes, one of parts of
   * words, one spread over an inner loop, a split word, work-items beyond the
   * workgroup or before its ids. */
  new_run(1);
  s = span(0, 4, 4, LDSAN_EMU_SPAN_STORE);
  EXPECT(__ldsan_emu_lds_disjoint(&s, 1, 64, ids) == 0);
  s = span(0, 2, 2, FILL);
  EXPECT(__ldsan_emu_lds_disjoint(&s, 1, 64, ids) == 0);
  s = span(0, 16, 4, FILL);
  s.width = 12;
  EXPECT(__ldsan_emu_lds_disjoint(&s, 1, 16, ids) == 0);
  s = span(0, 4, 4, FILL);
  recs[40].split_epoch = 10;
  worker.split_run = 10;
  EXPECT(__ldsan_emu_lds_disjoint(&s, 1, 64, ids) == 0);
  EXPECT(__ldsan_emu_lds_disjoint(&s, 1, 40, ids) == 1); /* words 0..39 are whole */
  EXPECT(__ldsan_emu_lds_disjoint(&s, 1, 64, &ids[EMU_MAX_BLOCK - 32]) == 0);
  EXPECT(__ldsan_emu_lds_disjoint(&s, 1, 64, ids - 1) == 0);
  EXPECT(worker.written_hi == BLOCK + 160); /* only the yes */

  if (failures) {
    fprintf(stderr, "lds_disjoint: %d check(s) failed\n", failures);
    return 1;
  }
  printf("lds_disjoint: all checks passed\n");
  return 0;
}
