/* ldsan emulator: what the LDS checks (detect_races, detect_uninit,
 * report_wave_sync) keep of each word of a workgroup's LDS block, shared by
 * the core, which keeps it (core_lds_check.c, __ldsan_emu_lds_track), and the
 * retarget tool, whose inline path (retarget_lds_track.cpp) handles without
 * calling the core the accesses that miss the (known) block and those that
 * cannot find anything:
 *
 *   an access of 4, 8, 12 or 16 bytes at a 4-byte aligned offset inside the
 *   block, not an atomic read, on words no access of part of a word has split
 *   in this run, whose records hold no access of another work-item in the
 *   running barrier interval (a write: in its last write, first and second
 *   reader, and for a plain write no atomic reader in this epoch; a read: in
 *   its last write and first reader) and, with detect_uninit, a write of
 *   this run (a read). It stores what __ldsan_emu_lds_track would (a write:
 *   the last write; a read: the first reader, if none of this interval yet or
 *   if it is this work-item's before a wave barrier).
 *
 * Every other access calls __ldsan_emu_lds_track_at with the pc the inline
 * path records (an asm lea at the access), so an access has one pc either
 * way; while the TLS track_size is 0 (a block not taken yet) all of them do.
 * Fibers have no inline path: __ldsan_emu_lds_track, whose pc is the call's
 * return address. Changing a field means changing both sides: the offsets
 * are asserted. */
#ifndef LDSAN_EMU_LDS_TRACK_H
#define LDSAN_EMU_LDS_TRACK_H

#include <stdint.h>

/* One side of a record: an access (work-item + 1, 0: none), its barrier
 * epoch (the worker's count, see ldsan_emu_lds_checks_new_group: below the
 * run's first epoch, it is an earlier workgroup's and counts as none), the
 * wave epoch (wave barriers of its wave), pc and size. */
typedef struct emu_lds_side {
  uint64_t pc;
  uint32_t epoch;      /* epoch, item and size: one 8-byte word (one load, one store inline) */
  uint16_t item, size;
  uint32_t wave_epoch; /* wave_epoch and atomic: another */
  uint32_t atomic;
} emu_lds_side;

/* What the checks keep of a byte: the last write, the first plain read since
 * the start of its barrier interval and a second plain reader of that
 * interval (another work-item; one of another wave than the first is
 * preferred), so a write finds a racing read even when the first reader is
 * the writer itself, and one of another wave when there is one
 * (core_lds_check.c, emu_step: a later read of a reader's wave after a wave
 * barrier replaces it). Atomic reads are kept the same way, apart, in a
 * table of the core's beside the records (an atomic write races with plain
 * reads only, so an atomic reader kept must not hide a plain one):
 * atomic_epoch is the barrier epoch whose atomic reads the table holds for
 * this record (a plain write looks there only then; the inline path leaves
 * such a write to the core). Kept per 4-byte word while every byte of the
 * word has the same record (accesses of whole aligned words: one record), per
 * byte once an access covers part of a word in this run (split_epoch: the
 * run's epoch it split in; the word's record copied to its bytes). */
typedef struct emu_lds_rec {
  uint32_t split_epoch, atomic_epoch; /* one 8-byte word (one load inline) */
  emu_lds_side w, r, r2;
} emu_lds_rec;

#define LDSAN_EMU_REC_SIZE 80
#define LDSAN_EMU_REC_SPLIT 0
#define LDSAN_EMU_REC_ATOMIC_EPOCH 4
#define LDSAN_EMU_REC_W 8
#define LDSAN_EMU_REC_R 32
#define LDSAN_EMU_REC_R2 56
#define LDSAN_EMU_SIDE_PC 0
#define LDSAN_EMU_SIDE_EPOCH 8
#define LDSAN_EMU_SIDE_ITEM 12
#define LDSAN_EMU_SIDE_SIZE 14
#define LDSAN_EMU_SIDE_WAVE_EPOCH 16
#define LDSAN_EMU_SIDE_ATOMIC 20

/* __ldsan_emu_lds_track(ptr, size | store << 31 | atomic << 30), and
 * __ldsan_emu_lds_track_at(ptr, size_kind, pc). */
#define LDSAN_EMU_LDS_TRACK_FN "__ldsan_emu_lds_track"
#define LDSAN_EMU_LDS_TRACK_AT_FN "__ldsan_emu_lds_track_at"
#define LDSAN_EMU_TRACK_STORE (1u << 31)
#define LDSAN_EMU_TRACK_ATOMIC (1u << 30)
#define LDSAN_EMU_TRACK_SIZE_MASK 0x3fffffffu

/* A work-item loop whose LDS accesses no two work-items share (at least
 * one of them writing) needs none of the records' checks: the retarget tool
 * (retarget_lds_disjoint.cpp) describes each access of such a loop as a span
 * and asks the core once, before the loop, whether the fast path may run:
 * __ldsan_emu_lds_disjoint(spans, count, items, first) != 0. Work-item i of
 * the loop accesses bytes [lo + i * step + d, + size) for some 0 <= d <=
 * width. first: NULL for a copy whose writes still keep their records
 * (LDSAN_EMU_TRACK_FAST_WRITES), else the ids of the loop's first work-item
 * (the loop's work-items are first, first + 1, ...) for a bare copy
 * (LDSAN_EMU_TRACK_FAST_BARE), whose writes' records the core keeps on a yes.
 * The inline paths read the TLS track_fast, whose loads in the loop's copies
 * become these constants (0, the run-time value: check every access). */
typedef struct emu_lds_span {
  uint64_t lo, width;
  int64_t step;
  uint32_t size;
  uint32_t kind; /* LDSAN_EMU_SPAN_STORE: a write or an atomic; LDSAN_EMU_SPAN_EVERY: made by every work-item of the loop */
} emu_lds_span;

#define LDSAN_EMU_TRACK_FAST_WRITES 1u /* reads pass, writes store their epoch, item and size */
#define LDSAN_EMU_TRACK_FAST_BARE 2u   /* nothing: the core keeps the writes */

#define LDSAN_EMU_SPAN_STORE 1u
#define LDSAN_EMU_SPAN_EVERY 2u

#define LDSAN_EMU_LDS_DISJOINT_FN "__ldsan_emu_lds_disjoint"
#define LDSAN_EMU_DISJOINT_MAX_SPANS 64u        /* spans of one loop */
#define LDSAN_EMU_DISJOINT_MAX_BYTES (1u << 20) /* a span's size, width and |step| */
#define LDSAN_EMU_SPAN_SIZE 32
#define LDSAN_EMU_SPAN_LO 0
#define LDSAN_EMU_SPAN_WIDTH 8
#define LDSAN_EMU_SPAN_STEP 16
#define LDSAN_EMU_SPAN_ACCESS 24 /* size, then kind: one 8-byte word */

#ifndef __cplusplus
#include <stddef.h>
_Static_assert(sizeof(emu_lds_span) == LDSAN_EMU_SPAN_SIZE && offsetof(emu_lds_span, lo) == LDSAN_EMU_SPAN_LO &&
               offsetof(emu_lds_span, width) == LDSAN_EMU_SPAN_WIDTH &&
               offsetof(emu_lds_span, step) == LDSAN_EMU_SPAN_STEP &&
               offsetof(emu_lds_span, size) == LDSAN_EMU_SPAN_ACCESS &&
               offsetof(emu_lds_span, kind) == LDSAN_EMU_SPAN_ACCESS + 4, "emu_lds_span");
_Static_assert(sizeof(emu_lds_rec) == LDSAN_EMU_REC_SIZE && offsetof(emu_lds_rec, split_epoch) == LDSAN_EMU_REC_SPLIT &&
               offsetof(emu_lds_rec, atomic_epoch) == LDSAN_EMU_REC_ATOMIC_EPOCH &&
               offsetof(emu_lds_rec, w) == LDSAN_EMU_REC_W && offsetof(emu_lds_rec, r) == LDSAN_EMU_REC_R &&
               offsetof(emu_lds_rec, r2) == LDSAN_EMU_REC_R2, "emu_lds_rec");
_Static_assert(offsetof(emu_lds_side, pc) == LDSAN_EMU_SIDE_PC && offsetof(emu_lds_side, epoch) == LDSAN_EMU_SIDE_EPOCH &&
               offsetof(emu_lds_side, wave_epoch) == LDSAN_EMU_SIDE_WAVE_EPOCH &&
               offsetof(emu_lds_side, item) == LDSAN_EMU_SIDE_ITEM && offsetof(emu_lds_side, size) == LDSAN_EMU_SIDE_SIZE &&
               offsetof(emu_lds_side, atomic) == LDSAN_EMU_SIDE_ATOMIC && sizeof(emu_lds_side) == 24,
               "emu_lds_side");
#endif

#endif /* LDSAN_EMU_LDS_TRACK_H */
