/* Unit tests of device/lds_checks.c (ldsan-cc -fsanitize-lds=races,uninit) on
 * the host: work-items of one workgroup of 128 (two waves) run one after
 * another by setting the target hooks' ids; every hazard kind, same-wave
 * severity, barriers, wave barriers, atomics, a write racing with a read of another wave the
 * entry did not record, a new run on the same block, the area cleared once
 * runs reach the run limit and a rebase when one run's barriers reach the
 * epoch limit (40 in the host build), with no false report after either. */
#include "unit.h"

#define ITEMS 128u
#define BLOCK 256u

static unit_device dev;
static uint8_t implicitargs[256];
static uint64_t block;

static void as_item(uint32_t i) {
  __ldsan_host_workitem_id[0] = i;
  __ldsan_host_lane = i % 64u;
}

/* One access each, from its own call site (distinct pcs). */
#define RACES_UNINIT (LDSAN_LDS_CHECK_RACES | LDSAN_LDS_CHECK_UNINIT)
static __attribute__((noinline)) void store_at(uint32_t item, uint32_t off, uint32_t size) {
  as_item(item);
  __ldsan_lds_check(off, size | LDSAN_LDS_CHECK_STORE | RACES_UNINIT);
}
static __attribute__((noinline)) void load_at(uint32_t item, uint32_t off, uint32_t size) {
  as_item(item);
  __ldsan_lds_check(off, size | RACES_UNINIT);
}
static __attribute__((noinline)) void atomic_at(uint32_t item, uint32_t off) {
  as_item(item);
  __ldsan_lds_check(off, 4u | LDSAN_LDS_CHECK_STORE | LDSAN_LDS_CHECK_ATOMIC | RACES_UNINIT);
}

/* __syncthreads() by every work-item, at the barrier with this pc. */
#define BARRIER_PC 0x1000u
static void barrier_all_at(uint64_t pc) {
  for (uint32_t i = 0; i < ITEMS; i++) {
    as_item(i);
    __ldsan_lds_check_barrier(pc, RACES_UNINIT);
  }
}
static void barrier_all(void) { barrier_all_at(BARRIER_PC); }
/* Work-items [lo, hi) pass the barrier at pc, except those in [skip_lo, skip_hi)
 * (they returned). */
static void barrier_some(uint32_t lo, uint32_t hi, uint32_t skip_lo, uint32_t skip_hi, uint64_t pc) {
  for (uint32_t i = lo; i < hi; i++) {
    if (i >= skip_lo && i < skip_hi) continue;
    as_item(i);
    __ldsan_lds_check_barrier(pc, RACES_UNINIT);
  }
}
/* A wave barrier (llvm.amdgcn.wave.barrier) passed by the lanes
 * [lo, hi) of one wave: the first of them is its first active lane. */
static void wave_barrier(uint32_t lo, uint32_t hi) {
  for (uint32_t i = lo; i < hi; i++) {
    as_item(i);
    __ldsan_host_lane_rank = i - lo;
    __ldsan_lds_check_wave_barrier();
  }
  __ldsan_host_lane_rank = 0;
}

/* Every work-item after the kernel's exit barrier. */
static void exit_all(void) {
  for (uint32_t i = 0; i < ITEMS; i++) {
    as_item(i);
    __ldsan_lds_check_exit(RACES_UNINIT);
  }
}

/* A new workgroup run on the block (the wave of work-item 0 at enter). */
static void new_run(void) {
  as_item(0);
  __ldsan_lds_checks_enter(block);
}

static uint32_t reports(void) { return dev.channel->next; }
static ldsan_report_record *report(uint32_t i) { return &dev.channel->records[i]; }

static void reset(void) {
  unit_channel_reset(dev.channel, LDSAN_CHANNEL_CAPACITY);
  __ldsan_host_trap_count = 0;
  __ldsan_device_state.flags = LDSAN_STATE_HALT_ON_ERROR;
  new_run();
}

static void test_race_between_waves(void) {
  reset();
  store_at(0, 16, 4);
  load_at(64, 16, 4); /* wave 1 reads what wave 0 wrote: no barrier between */
  CHECK_EQ(reports(), 1);
  ldsan_report_record *r = report(0);
  CHECK_EQ(r->state, LDSAN_RECORD_READY);
  CHECK_EQ(r->kind, LDSAN_REPORT_LDS_DATA_RACE);
  CHECK_EQ(r->hazard, LDSAN_HAZARD_RAW);
  CHECK_EQ(r->address, block + 16);
  CHECK_EQ(r->size, 4);
  CHECK_EQ(r->flags, 0); /* a read; an error */
  CHECK_EQ(r->workitem_id[0], 64);
  CHECK_EQ(r->other_workitem_id[0], 0);
  CHECK_EQ(r->other_lane, 0);
  CHECK_EQ(r->other_flags, LDSAN_ACCESS_WRITE);
  CHECK(r->other_pc != 0 && r->other_pc != r->pc);
  CHECK_EQ(r->other_pc >> 32, r->pc >> 32);
  CHECK_EQ(r->other_size, 4);
  CHECK_EQ(r->block, block);
  CHECK_EQ(__ldsan_host_trap_count, 1);
  /* Write after read and write after write, from the other side. */
  store_at(0, 16, 4);
  CHECK_EQ(reports(), 2);
  CHECK_EQ(report(1)->hazard, LDSAN_HAZARD_WAR);
  CHECK_EQ(report(1)->other_workitem_id[0], 64);
  CHECK_EQ(report(1)->other_flags, 0);
  CHECK_EQ(report(1)->other_size, 4);
  store_at(65, 17, 1);
  CHECK_EQ(reports(), 3);
  CHECK_EQ(report(2)->hazard, LDSAN_HAZARD_WAW);
  /* The earlier access's pc and size as it was made: the 4-byte store that
   * report 1 is about (a device pc is 4-aligned and keeps bits 2-30; the
   * host's is not: its bits 0-1 are lost here). */
  CHECK_EQ(report(2)->size, 1);
  CHECK_EQ(report(2)->other_size, 4);
  CHECK_EQ(report(2)->other_pc, report(1)->pc & ~3ull);
}

/* One record per hazard and run: the run's later work-items count in it. */
static void test_one_record_per_run(void) {
  reset();
  __ldsan_device_state.flags = 0; /* no halt: every work-item goes on */
  store_at(0, 100, 4);
  for (uint32_t i = 64; i < ITEMS; i++) load_at(i, 100, 4);
  CHECK_EQ(reports(), 1);
  CHECK_EQ(report(0)->workitem_id[0], 64);
  CHECK_EQ(report(0)->repeats, ITEMS - 65);
  new_run(); /* the next workgroup reports again */
  store_at(0, 100, 4);
  for (uint32_t i = 64; i < ITEMS; i++) load_at(i, 100, 4);
  CHECK_EQ(reports(), 2);
}

static void test_same_wave_is_a_warning(void) {
  reset();
  store_at(3, 40, 4);
  load_at(4, 40, 4);
  CHECK_EQ(reports(), 1);
  CHECK_EQ(report(0)->flags, LDSAN_ACCESS_SAME_WAVE | LDSAN_REPORT_WARNING);
  CHECK_EQ(report(0)->other_lane, 3);
  CHECK_EQ(__ldsan_host_trap_count, 0);
  __ldsan_device_state.flags |= LDSAN_STATE_SAME_WAVE_ERRORS; /* detect_races=2 */
  store_at(5, 40, 4);
  CHECK_EQ(reports(), 2);
  CHECK_EQ(report(1)->flags, LDSAN_ACCESS_WRITE | LDSAN_ACCESS_SAME_WAVE);
  CHECK_EQ(__ldsan_host_trap_count, 1);
}

/* A wave barrier orders the accesses of its wave before and after it, not
 * those of another wave; the counts start again at each barrier epoch and
 * saturate (then taken as ordered: a missed warning, never a false one). */
static void test_wave_barrier_orders(void) {
  reset();
  __ldsan_device_state.flags = 0;
  store_at(3, 40, 4);
  wave_barrier(0, 64);
  load_at(4, 40, 4); /* the neighbour exchange with a wave barrier between */
  wave_barrier(0, 64);
  store_at(5, 40, 4);
  CHECK_EQ(reports(), 0);
  /* Lanes 32-63 alone (an if): the wave's count all the same. */
  store_at(7, 44, 4);
  wave_barrier(32, 64);
  load_at(8, 44, 4);
  CHECK_EQ(reports(), 0);
  /* Another wave is not ordered by it. */
  store_at(64, 48, 4);
  wave_barrier(0, 64);
  wave_barrier(64, 128);
  load_at(0, 48, 4);
  CHECK_EQ(reports(), 1);
  CHECK_EQ(report(0)->hazard, LDSAN_HAZARD_RAW);
  CHECK_EQ(report(0)->flags, 0); /* between waves: an error */
  /* Reread: lane 0 reads, a wave barrier, lane 0 reads again, lane 1 writes:
   * the second read races with the write (a warning). */
  reset();
  __ldsan_device_state.flags = 0;
  store_at(0, 60, 4);
  barrier_all();
  load_at(0, 60, 4);
  wave_barrier(0, 64);
  load_at(0, 60, 4);
  store_at(1, 60, 4);
  CHECK_EQ(reports(), 1);
  CHECK_EQ(report(0)->hazard, LDSAN_HAZARD_WAR);
  CHECK_EQ(report(0)->other_workitem_id[0], 0);
  CHECK_EQ(report(0)->flags, LDSAN_ACCESS_WRITE | LDSAN_ACCESS_SAME_WAVE | LDSAN_REPORT_WARNING);
  /* Stale: lanes 0 and 1 read, a wave barrier, lane 2 reads, lane 0 writes:
   * it races with lane 2's read. */
  store_at(0, 64, 4);
  barrier_all();
  load_at(0, 64, 4);
  load_at(1, 64, 4);
  wave_barrier(0, 64);
  load_at(2, 64, 4);
  store_at(0, 64, 4);
  CHECK_EQ(reports(), 2);
  CHECK_EQ(report(1)->hazard, LDSAN_HAZARD_WAR);
  CHECK_EQ(report(1)->other_workitem_id[0], 2);
  /* A write racing with a write of its wave and a read of another: the
   * race between waves (the error) is the one reported. */
  store_at(1, 72, 4);
  load_at(64, 72, 4); /* a read after write between waves */
  CHECK_EQ(reports(), 3);
  store_at(2, 72, 4);
  CHECK_EQ(reports(), 4);
  CHECK_EQ(report(3)->hazard, LDSAN_HAZARD_WAR);
  CHECK_EQ(report(3)->other_workitem_id[0], 64);
  CHECK_EQ(report(3)->flags, LDSAN_ACCESS_WRITE);
  /* Saturated: past 15 wave barriers of one epoch, taken as ordered. */
  reset();
  __ldsan_device_state.flags = 0;
  for (uint32_t k = 0; k < LDSAN_HZ_WAVE_SYNC_MAX; k++) wave_barrier(0, 64);
  store_at(3, 80, 4);
  load_at(4, 80, 4);
  CHECK_EQ(reports(), 0);
  /* The next epoch counts from none: the exchange there races again. */
  barrier_all();
  store_at(3, 84, 4);
  load_at(4, 84, 4);
  CHECK_EQ(reports(), 1);
  CHECK_EQ(report(0)->flags, LDSAN_ACCESS_SAME_WAVE | LDSAN_REPORT_WARNING);
}

static void test_barrier_orders(void) {
  reset();
  store_at(0, 64, 8);
  barrier_all();
  load_at(100, 64, 8);
  load_at(1, 64, 8); /* two readers of one interval: no race */
  barrier_all();
  store_at(127, 64, 8);
  CHECK_EQ(reports(), 0);
  /* The same work-item again, in one interval: no race with itself. */
  load_at(127, 64, 8);
  store_at(127, 64, 8);
  CHECK_EQ(reports(), 0);
}

static void test_uninitialized(void) {
  reset();
  load_at(70, 200, 4);
  CHECK_EQ(reports(), 1);
  CHECK_EQ(report(0)->kind, LDSAN_REPORT_LDS_UNINIT_READ);
  CHECK_EQ(report(0)->hazard, 0);
  CHECK_EQ(report(0)->address, block + 200);
  /* A partly written range reports its first unwritten byte. */
  store_at(1, 210, 2);
  barrier_all();
  load_at(2, 210, 4);
  CHECK_EQ(reports(), 2);
  CHECK_EQ(report(1)->address, block + 212);
  /* Only uninit asked for: a race is not reported. */
  store_at(0, 220, 4);
  as_item(64);
  __ldsan_lds_check(220, 4u | LDSAN_LDS_CHECK_UNINIT);
  CHECK_EQ(reports(), 2);
}

static void test_atomics(void) {
  reset();
  atomic_at(0, 8);
  atomic_at(64, 8); /* atomics do not race with atomics */
  CHECK_EQ(reports(), 0);
  load_at(1, 8, 4);
  CHECK_EQ(reports(), 1);
  CHECK_EQ(report(0)->hazard, LDSAN_HAZARD_RAW);
  CHECK_EQ(report(0)->other_flags, LDSAN_ACCESS_WRITE | LDSAN_ACCESS_ATOMIC);
}

/* An atomic read of a byte (no store). */
static __attribute__((noinline)) void atomic_load_at(uint32_t item, uint32_t off) {
  as_item(item);
  __ldsan_lds_check(off, 4u | LDSAN_LDS_CHECK_ATOMIC | RACES_UNINIT);
}

/* Atomic and plain reads of one byte in one epoch: an atomic write races with
 * the plain ones only, which the one reader kept must not hide (a plain read
 * of the recorded reader's wave takes an atomic one's place; "plain many" says
 * a plain read of another wave was made), and the "many" of atomic reads must
 * not make an atomic write race. */
static void test_atomic_readers(void) {
  reset();
  store_at(0, 160, 4);
  barrier_all();
  atomic_load_at(1, 160);
  load_at(2, 160, 4);   /* plain, in the recorded atomic reader's wave */
  atomic_at(65, 160);   /* races with 2's read, another wave: the error */
  CHECK_EQ(reports(), 1);
  CHECK_EQ(report(0)->hazard, LDSAN_HAZARD_WAR);
  CHECK_EQ(report(0)->flags & LDSAN_REPORT_WARNING, 0);
  CHECK_EQ(report(0)->other_flags & LDSAN_ACCESS_ATOMIC, 0);

  reset();
  store_at(0, 164, 4);
  barrier_all();
  atomic_load_at(1, 164);
  load_at(64, 164, 4);  /* plain, another wave: not recorded, but remembered */
  atomic_at(2, 164);    /* the recorded reader's wave: races with 64's read */
  CHECK_EQ(reports(), 1);
  CHECK_EQ(report(0)->hazard, LDSAN_HAZARD_WAR);
  CHECK_EQ(report(0)->flags & (LDSAN_REPORT_OTHER_UNKNOWN | LDSAN_REPORT_WARNING), LDSAN_REPORT_OTHER_UNKNOWN);

  reset();
  store_at(0, 168, 4);
  barrier_all();
  load_at(1, 168, 4);   /* plain, recorded */
  atomic_load_at(64, 168); /* atomic, another wave */
  atomic_at(1, 168);    /* its own read and an atomic one: no race */
  CHECK_EQ(reports(), 0);
}

static void test_unrecorded_reader(void) {
  reset();
  store_at(0, 120, 4);
  barrier_all();
  load_at(1, 120, 4);  /* recorded */
  load_at(66, 120, 4); /* another wave: not recorded, but remembered */
  store_at(1, 120, 4); /* races with 66's read */
  CHECK_EQ(reports(), 1);
  CHECK_EQ(report(0)->hazard, LDSAN_HAZARD_WAR);
  CHECK_EQ(report(0)->flags & (LDSAN_REPORT_OTHER_UNKNOWN | LDSAN_REPORT_WARNING), LDSAN_REPORT_OTHER_UNKNOWN);
  CHECK_EQ(report(0)->other_pc, 0);
}

static void test_new_run(void) {
  reset();
  store_at(0, 32, 4);
  new_run(); /* the next workgroup on this block */
  load_at(64, 32, 4);
  CHECK_EQ(reports(), 1);
  CHECK_EQ(report(0)->kind, LDSAN_REPORT_LDS_UNINIT_READ);
}

static void test_epoch_limits(void) {
  reset();
  /* Runs that each pass barriers, until the run limit clears the area. */
  for (uint32_t run = 0; run < 3 * LDSAN_HZ_RUN_LIMIT; run++) {
    new_run();
    store_at(0, 48, 4);
    barrier_all();
    load_at(64, 48, 4);
    CHECK_EQ(reports(), 0);
  }
  /* One run past the epoch limit: the rebase keeps what was written. (Here
   * the work-items pass the rebase's barriers one after another, not
   * together: the test's bytes are rebased right all the same.) */
  new_run();
  store_at(0, 52, 4);
  for (uint32_t b = 0; b < 2 * LDSAN_HZ_EPOCH_LIMIT + 3; b++) barrier_all();
  load_at(64, 52, 4);
  CHECK_EQ(reports(), 0);
  store_at(64, 56, 4);
  load_at(0, 56, 4); /* still a race in the current interval */
  CHECK_EQ(reports(), 1);
  CHECK_EQ(report(0)->hazard, LDSAN_HAZARD_RAW);
  load_at(1, 60, 4); /* never written */
  CHECK_EQ(reports(), 2);
  CHECK_EQ(report(1)->kind, LDSAN_REPORT_LDS_UNINIT_READ);
}

/* Two waves past the same barrier epoch at different barriers (an if whose
 * two arms each have a __syncthreads): barrier-divergence, an error, found
 * at the next barrier, one record for the pair; a wave that returned before
 * a barrier the other passed: a warning, found after the exit barrier; the
 * same two within one wave. */
static void test_barrier_divergence(void) {
  reset();
  __ldsan_device_state.flags = 0; /* no halt */
  for (uint32_t i = 0; i < ITEMS; i++) {
    as_item(i);
    __ldsan_lds_check_barrier(i < 64 ? 0x2000u : 0x3000u, RACES_UNINIT);
  }
  CHECK_EQ(reports(), 0); /* found once every wave noted it: at the next barrier */
  barrier_all();
  CHECK_EQ(reports(), 1);
  CHECK_EQ(report(0)->kind, LDSAN_REPORT_BARRIER_DIVERGENCE);
  CHECK_EQ(report(0)->pc, 0x2000);
  CHECK_EQ(report(0)->other_pc, 0x3000);
  CHECK_EQ(report(0)->workitem_id[0], 0);
  CHECK_EQ(report(0)->other_workitem_id[0], 64);
  CHECK_EQ(report(0)->flags & LDSAN_REPORT_WARNING, 0);
  CHECK_EQ(report(0)->repeats, 63); /* wave 0's other work-items */
  /* The same barrier everywhere: nothing. */
  barrier_all();
  as_item(0);
  __ldsan_lds_check_exit(RACES_UNINIT);
  CHECK_EQ(reports(), 1);

  /* Wave 1 returns before the barrier wave 0 passes. */
  reset();
  __ldsan_device_state.flags = 0;
  barrier_some(0, 64, 0, 0, 0x2000u);
  exit_all();
  CHECK_EQ(reports(), 1);
  CHECK_EQ(report(0)->kind, LDSAN_REPORT_BARRIER_DIVERGENCE);
  CHECK_EQ(report(0)->pc, 0x2000);
  CHECK_EQ(report(0)->other_pc, 0); /* it returned */
  CHECK_EQ(report(0)->other_workitem_id[0], 64);
  CHECK_EQ(report(0)->flags & LDSAN_REPORT_WARNING, LDSAN_REPORT_WARNING);
  /* detect_races=2 (same-wave findings are errors): an error. */
  reset();
  __ldsan_device_state.flags = LDSAN_STATE_SAME_WAVE_ERRORS;
  barrier_some(0, 64, 0, 0, 0x2000u);
  as_item(0);
  __ldsan_lds_check_exit(RACES_UNINIT);
  CHECK_EQ(reports(), 1);
  CHECK_EQ(report(0)->flags & LDSAN_REPORT_WARNING, 0);
  /* Within one wave: lanes 0-31 pass one barrier and lanes 32-63 another at
   * the same epoch (an if that splits the wave, a __syncthreads() in each
   * arm): an error, found at once by the second; wave 1 at the first. */
  reset();
  __ldsan_device_state.flags = 0;
  barrier_some(0, 32, 0, 0, 0x2000u);
  barrier_some(32, 64, 0, 0, 0x3000u);
  barrier_some(64, ITEMS, 0, 0, 0x2000u);
  CHECK_EQ(reports(), 1);
  CHECK_EQ(report(0)->kind, LDSAN_REPORT_BARRIER_DIVERGENCE);
  CHECK_EQ(report(0)->pc, 0x3000);
  CHECK_EQ(report(0)->other_pc, 0x2000);
  CHECK_EQ(report(0)->workitem_id[0], 32);
  CHECK_EQ(report(0)->other_workitem_id[0], 31);
  CHECK_EQ(report(0)->flags & (LDSAN_ACCESS_SAME_WAVE | LDSAN_REPORT_WARNING), LDSAN_ACCESS_SAME_WAVE);
  /* Lanes 40-63 of wave 0 return before the barrier the others pass: the
   * warning, found at the exit by lane 39 (the neighbour of one that
   * returned); wave 1 and the same barrier for all give nothing more. */
  reset();
  __ldsan_device_state.flags = 0;
  barrier_some(0, ITEMS, 40, 64, 0x2000u);
  exit_all();
  CHECK_EQ(reports(), 1);
  CHECK_EQ(report(0)->kind, LDSAN_REPORT_BARRIER_DIVERGENCE);
  CHECK_EQ(report(0)->pc, 0x2000);
  CHECK_EQ(report(0)->other_pc, 0); /* it returned */
  CHECK_EQ(report(0)->workitem_id[0], 39);
  CHECK_EQ(report(0)->other_workitem_id[0], 40);
  CHECK_EQ(report(0)->flags & (LDSAN_ACCESS_SAME_WAVE | LDSAN_REPORT_WARNING),
           LDSAN_ACCESS_SAME_WAVE | LDSAN_REPORT_WARNING);
  CHECK_EQ(report(0)->repeats, 0);
  /* The other way round: lanes 0-23 returned, lane 24 finds lane 23. */
  reset();
  __ldsan_device_state.flags = 0;
  barrier_some(0, ITEMS, 0, 24, 0x2000u);
  exit_all();
  CHECK_EQ(reports(), 1);
  CHECK_EQ(report(0)->workitem_id[0], 24);
  CHECK_EQ(report(0)->other_workitem_id[0], 23);
  CHECK_EQ(report(0)->other_pc, 0);
  /* Within one wave: a barrier in a loop that lanes 0-31 pass once and lanes
   * 32-63 three times (the wave passes it three times, lanes 0-31 masked
   * off), then the barrier after the loop: lanes 0-31 skipped two of their
   * wave's barriers. One report of it (not also the split of two arms), by
   * lane 0, naming the last lane that passed the loop's barrier; wave 1, in
   * step, adds nothing. At the exit lane 32 finds its neighbour 31 behind
   * (a lane that skipped and one that returned look alike there): the
   * returned warning as well. */
  reset();
  __ldsan_device_state.flags = 0;
  barrier_some(0, ITEMS, 0, 0, 0x2000u);
  barrier_some(32, ITEMS, 0, 0, 0x2000u);
  barrier_some(32, ITEMS, 0, 0, 0x2000u);
  barrier_some(0, ITEMS, 0, 0, 0x3000u);
  exit_all();
  CHECK_EQ(reports(), 2);
  CHECK_EQ(report(1)->hazard, 0);
  CHECK_EQ(report(1)->other_pc, 0); /* "returned" */
  CHECK_EQ(report(1)->flags & LDSAN_REPORT_WARNING, LDSAN_REPORT_WARNING);
  CHECK_EQ(report(0)->kind, LDSAN_REPORT_BARRIER_DIVERGENCE);
  CHECK_EQ(report(0)->hazard, LDSAN_HAZARD_BARRIER_SKIPPED);
  CHECK_EQ(report(0)->pc, 0x3000);
  CHECK_EQ(report(0)->other_pc, 0x2000);
  CHECK_EQ(report(0)->workitem_id[0], 0);
  CHECK_EQ(report(0)->other_workitem_id[0], 63);
  CHECK_EQ(report(0)->flags & (LDSAN_ACCESS_SAME_WAVE | LDSAN_REPORT_WARNING), LDSAN_ACCESS_SAME_WAVE);
  CHECK_EQ(report(0)->repeats, 31); /* lanes 1-31 */
  /* Trip counts one apart (1 and 2): the split check's report (the lanes
   * are at one epoch at two barriers), not a skip; wave 1, which passed the
   * loop's barrier at that epoch, then finds wave 0's note of the other. */
  reset();
  __ldsan_device_state.flags = 0;
  barrier_some(0, ITEMS, 0, 0, 0x2000u);
  barrier_some(32, ITEMS, 0, 0, 0x2000u);
  barrier_some(0, ITEMS, 0, 0, 0x3000u);
  CHECK_EQ(reports(), 2);
  CHECK_EQ(report(0)->hazard, 0);
  CHECK_EQ(report(0)->pc, 0x3000);
  CHECK_EQ(report(0)->other_pc, 0x2000);
  CHECK_EQ(report(0)->flags & LDSAN_ACCESS_SAME_WAVE, LDSAN_ACCESS_SAME_WAVE);
  CHECK_EQ(report(1)->flags & LDSAN_ACCESS_SAME_WAVE, 0);
  /* A new run of the block after that one, in step: its notes of the old
   * run (later epochs than the new run's first) are not a skip. */
  new_run();
  unit_channel_reset(dev.channel, LDSAN_CHANNEL_CAPACITY);
  barrier_all();
  barrier_all();
  exit_all();
  CHECK_EQ(reports(), 0);
  /* Without the race checks (uninit alone): no divergence checks. */
  reset();
  for (uint32_t i = 0; i < ITEMS; i++) {
    as_item(i);
    __ldsan_lds_check_barrier(i < 64 ? 0x2000u : 0x3000u, LDSAN_LDS_CHECK_UNINIT);
  }
  barrier_all_at(0x4000u);
  as_item(0);
  __ldsan_lds_check_exit(LDSAN_LDS_CHECK_UNINIT);
  CHECK_EQ(reports(), 0);
}

static void test_checks_off(void) {
  reset();
  __ldsan_device_state.flags |= LDSAN_STATE_LDS_CHECKS_OFF;
  store_at(0, 0, 4);
  load_at(64, 0, 4);
  load_at(64, 100, 4);
  CHECK_EQ(reports(), 0);
}

int main(void) {
  unit_device_init(&dev, UNIT_POOL_BYTES(2));
  uint16_t sizes[3] = {ITEMS, 1, 1};
  memcpy(implicitargs + LDSAN_IMPLICITARG_GROUP_SIZE, sizes, sizeof sizes);
  __ldsan_host_implicitarg = (uint64_t)(uintptr_t)implicitargs;
  block = __ldsan_kernel_enter_checked(BLOCK, 0);
  __ldsan_kernel_enter_wave(block, 0);
  CHECK(block != 0);
  __ldsan_host_lds0 = block;
  RUN(test_race_between_waves);
  RUN(test_one_record_per_run);
  RUN(test_same_wave_is_a_warning);
  RUN(test_barrier_orders);
  RUN(test_wave_barrier_orders);
  RUN(test_uninitialized);
  RUN(test_atomics);
  RUN(test_atomic_readers);
  RUN(test_unrecorded_reader);
  RUN(test_new_run);
  RUN(test_epoch_limits);
  RUN(test_barrier_divergence);
  RUN(test_checks_off);
  unit_device_fini(&dev);
  return unit_summary();
}
