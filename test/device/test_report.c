/* Unit tests of device/report.c through the report entry points: every record
 * field, trap vs no-abort vs halt cleared, first bad byte of ranges, channel
 * overflow, the ring protocol (slot reuse, no overwrite, dispatch tag), the
 * built-in channel. */
#include "unit.h"

static unit_device dev;
static uint64_t var; /* char[13] + 19-byte redzone in the arena */

static void reset(void) {
  unit_channel_reset(dev.channel, LDSAN_CHANNEL_CAPACITY);
  __ldsan_host_trap_count = 0;
  __ldsan_device_state.flags = LDSAN_STATE_HALT_ON_ERROR;
}

static void test_record_fields(void) {
  reset();
  __ldsan_host_workgroup_id[0] = 3;
  __ldsan_host_workgroup_id[1] = 4;
  __ldsan_host_workgroup_id[2] = 5;
  __ldsan_host_workitem_id[0] = 6;
  __ldsan_host_workitem_id[1] = 7;
  __ldsan_host_workitem_id[2] = 8;
  __ldsan_host_lane = 42;
  LDSAN_ENTRY(__asan_report_store4)(var + 14);
  CHECK_EQ(dev.channel->next, 1);
  ldsan_report_record *r = &dev.channel->records[0];
  CHECK_EQ(r->state, LDSAN_RECORD_READY);
  CHECK_EQ(r->kind, LDSAN_REPORT_BAD_ACCESS);
  CHECK_EQ(r->address, var + 14);
  CHECK_EQ(r->access_address, var + 14);
  CHECK_EQ(r->size, 4);
  CHECK(r->pc != 0);
  CHECK_EQ(r->kernel_desc, 0);
  CHECK_EQ(r->block, 0);
  CHECK_EQ(r->flags, LDSAN_ACCESS_WRITE);
  CHECK_EQ(r->shadow_byte, LDSAN_SHADOW_LDS_REDZONE); /* granule says 5; the next one names it */
  CHECK_EQ(r->workgroup_id[0], 3);
  CHECK_EQ(r->workgroup_id[1], 4);
  CHECK_EQ(r->workgroup_id[2], 5);
  CHECK_EQ(r->workitem_id[0], 6);
  CHECK_EQ(r->workitem_id[1], 7);
  CHECK_EQ(r->workitem_id[2], 8);
  CHECK_EQ(r->lane, 42);
  CHECK_EQ(r->dynamic_size, 0);
  CHECK_EQ(__ldsan_host_trap_count, 1);
  CHECK_EQ(dev.channel->records[1].state, LDSAN_RECORD_EMPTY);
}

static void test_abort_modes(void) {
  reset();
  LDSAN_ENTRY(__asan_report_load8_noabort)(var + 16);
  CHECK_EQ(dev.channel->records[0].flags, LDSAN_ACCESS_NOABORT);
  CHECK_EQ(__ldsan_host_trap_count, 0);
  LDSAN_ENTRY(__asan_report_exp_load2)(var + 16, 7);
  CHECK_EQ(__ldsan_host_trap_count, 1);
  __ldsan_device_state.flags = 0; /* host asked not to halt */
  LDSAN_ENTRY(__asan_report_store16)(var + 16);
  CHECK_EQ(__ldsan_host_trap_count, 1);
  CHECK_EQ(dev.channel->next, 3);
  CHECK_EQ(dev.channel->records[2].size, 16);
  CHECK_EQ(dev.channel->records[2].flags, LDSAN_ACCESS_WRITE);
}

static void test_ranges(void) {
  reset();
  LDSAN_ENTRY(__asan_report_load_n)(var + 2, 40);
  ldsan_report_record *r = &dev.channel->records[0];
  CHECK_EQ(r->address, var + 13); /* the first bad byte */
  CHECK_EQ(r->access_address, var + 2);
  CHECK_EQ(r->size, 40);
  CHECK_EQ(r->flags, LDSAN_ACCESS_RANGE);
  LDSAN_ENTRY(__asan_report_store_n_noabort)(var + 20, 3);
  CHECK_EQ(dev.channel->records[1].address, var + 20);
  CHECK_EQ(dev.channel->records[1].shadow_byte, LDSAN_SHADOW_LDS_REDZONE);
  CHECK_EQ(dev.channel->records[1].flags, LDSAN_ACCESS_RANGE | LDSAN_ACCESS_WRITE | LDSAN_ACCESS_NOABORT);
  LDSAN_ENTRY(__asan_report_exp_store_n)(var + 12, 4, 0);
  CHECK_EQ(dev.channel->records[2].address, var + 13);
  CHECK_EQ(__ldsan_host_trap_count, 2);
}

static void test_channel_overflow(void) {
  reset();
  dev.channel->capacity = 2;
  for (int i = 0; i < 5; ++i) LDSAN_ENTRY(__asan_report_load1_noabort)(var + 13);
  CHECK_EQ(dev.channel->next, 5);
  CHECK_EQ(dev.channel->dropped, 3);
  CHECK_EQ(dev.channel->records[1].state, LDSAN_RECORD_READY);
  CHECK_EQ(dev.channel->records[2].state, LDSAN_RECORD_EMPTY);
  LDSAN_ENTRY(__asan_report_load1)(var + 13); /* dropped, but still stops the wave */
  CHECK_EQ(dev.channel->dropped, 4);
  CHECK_EQ(__ldsan_host_trap_count, 1);
  dev.channel->capacity = LDSAN_CHANNEL_CAPACITY + 100; /* never past the array */
  dev.channel->next = LDSAN_CHANNEL_CAPACITY;
  LDSAN_ENTRY(__asan_report_load1_noabort)(var + 13);
  CHECK_EQ(dev.channel->dropped, 5);
}

/* The channel is a ring: a drained slot is reused by a later ticket, an
 * undrained one is never overwritten, and each record names its dispatch. */
static void test_ring(void) {
  reset();
  dev.channel->capacity = 4;
  __ldsan_host_implicitarg = 0x7000;
  for (int i = 0; i < 4; ++i) LDSAN_ENTRY(__asan_report_load1_noabort)(var + 13);
  CHECK_EQ(dev.channel->records[3].dispatch, 0x7000);
  CHECK_EQ(dev.channel->dropped, 0);
  /* The host drains slot 1 only (another dispatch's record, say). */
  __atomic_store_n(&dev.channel->records[1].state, LDSAN_RECORD_EMPTY, __ATOMIC_RELEASE);
  __ldsan_host_implicitarg = 0x8000;
  uint32_t k = ldsan_first_slot(0x8000);
  LDSAN_ENTRY(__asan_report_load1_noabort)(var + 13); /* ticket 4 -> slot 0: taken; to the reserve */
  CHECK_EQ(dev.channel->records[0].dispatch, 0x7000);
  CHECK_EQ(dev.channel->dropped, 0);
  CHECK_EQ(dev.channel->first_owner[k], 0x8000);
  CHECK_EQ(dev.channel->first[k].state, LDSAN_RECORD_READY);
  CHECK_EQ(dev.channel->first[k].dispatch, 0x8000);
  LDSAN_ENTRY(__asan_report_load1_noabort)(var + 13); /* ticket 5 -> slot 1: free again */
  CHECK_EQ(dev.channel->records[1].state, LDSAN_RECORD_READY);
  CHECK_EQ(dev.channel->records[1].dispatch, 0x8000);
  CHECK_EQ(dev.channel->next, 6);
  /* A slot another lane is still writing is not taken either: the dispatch
   * has its reserve record, so the drop is counted there. */
  dev.channel->records[2].state = LDSAN_RECORD_WRITING;
  dev.channel->next = 2;
  LDSAN_ENTRY(__asan_report_load1_noabort)(var + 13);
  CHECK_EQ(dev.channel->records[2].state, LDSAN_RECORD_WRITING);
  CHECK_EQ(dev.channel->dropped, 0);
  CHECK_EQ(dev.channel->first_dropped[k], 1);
  /* Capacity 0: every report is dropped, none written. */
  dev.channel->capacity = 0;
  LDSAN_ENTRY(__asan_report_load1_noabort)(var + 13);
  CHECK_EQ(dev.channel->dropped, 1);
  __ldsan_host_implicitarg = 0;
}

/* The first-report reserve (abi.h): with the ring full of one dispatch's
 * records, every other dispatch still gets its first error recorded, and its
 * later drops are counted as its own; only with every reserve slot another
 * dispatch's is a report counted in `dropped`. */
static void test_first_report_reserve(void) {
  reset();
  dev.channel->capacity = 4;
  __ldsan_host_implicitarg = 0x7000;
  for (int i = 0; i < 4; ++i) LDSAN_ENTRY(__asan_report_load1_noabort)(var + 13);
  for (uint64_t d = 0x10000; d < 0x10000 + 8 * 0x1000; d += 0x1000) {
    __ldsan_host_implicitarg = d;
    for (int i = 0; i < 3; ++i) LDSAN_ENTRY(__asan_report_load1_noabort)(var + 13);
  }
  CHECK_EQ(dev.channel->dropped, 0);
  uint32_t recorded = 0, counted = 0;
  for (uint32_t k = 0; k < LDSAN_CHANNEL_FIRST; k++) {
    if (!dev.channel->first_owner[k]) continue;
    CHECK_EQ(dev.channel->first[k].state, LDSAN_RECORD_READY);
    CHECK_EQ(dev.channel->first[k].dispatch, dev.channel->first_owner[k]);
    CHECK_EQ(dev.channel->first_dropped[k], 2);
    recorded++;
    counted += dev.channel->first_dropped[k];
  }
  CHECK_EQ(recorded, 8);
  CHECK_EQ(counted, 16);
  /* Every slot another dispatch's: the report is counted in dropped. */
  for (uint32_t k = 0; k < LDSAN_CHANNEL_FIRST; k++)
    if (!dev.channel->first_owner[k]) dev.channel->first_owner[k] = 0x5000 + k;
  __ldsan_host_implicitarg = 0x90000;
  LDSAN_ENTRY(__asan_report_load1_noabort)(var + 13);
  CHECK_EQ(dev.channel->dropped, 1);
  __ldsan_host_implicitarg = 0;
}

static void test_builtin_channel(void) {
  reset();
  uint64_t mine = __ldsan_device_state.channel;
  __ldsan_device_state.channel = 0;
  CHECK_EQ(__ldsan_builtin_channel.abi_version, LDSAN_ABI_VERSION);
  CHECK_EQ(__ldsan_builtin_channel.capacity, LDSAN_CHANNEL_CAPACITY);
  LDSAN_ENTRY(__asan_report_load4_noabort)(var + 13);
  CHECK_EQ(__ldsan_builtin_channel.next, 1);
  CHECK_EQ(__ldsan_builtin_channel.records[0].state, LDSAN_RECORD_READY);
  CHECK_EQ(__ldsan_builtin_channel.records[0].address, var + 13);
  CHECK_EQ(dev.channel->next, 0);
  __ldsan_device_state.channel = mine;
}

/* The static initializer, before any test rewrote the state. */
static void test_state_initializer(void) {
  CHECK_EQ(__ldsan_device_state.abi_version, LDSAN_ABI_VERSION);
  CHECK_EQ(__ldsan_device_state.flags, LDSAN_STATE_HALT_ON_ERROR);
  CHECK_EQ(__ldsan_device_state.channel, 0);
  CHECK_EQ(__ldsan_device_state.pool_base, (uint64_t)(uintptr_t)__ldsan_builtin_pool); /* the built-in pool */
  CHECK_EQ(__ldsan_device_state.pool_size, LDSAN_BUILTIN_POOL_SIZE);
}

int main(void) {
  RUN(test_state_initializer);
  unit_device_init(&dev, UNIT_POOL_BYTES(1));
  var = dev.base + 4096;
  LDSAN_ENTRY(__asan_poison_region)(var + 13, 19);
  RUN(test_record_fields);
  RUN(test_abort_modes);
  RUN(test_ranges);
  RUN(test_channel_overflow);
  RUN(test_ring);
  RUN(test_first_report_reserve);
  RUN(test_builtin_channel);
  unit_device_fini(&dev);
  return unit_summary();
}
