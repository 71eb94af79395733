/* hsa_double/selftest/packets.c — what the packet processor guarantees (HSA
 * AQL semantics) and the profiling timestamps it writes: a BARRIER_AND holds
 * the queue until every dependency is 0, nothing after a barrier starts
 * before it completed, a packet's barrier bit makes it wait for all earlier
 * ones; hsa_amd_profiling_set_profiler_enabled sets bit 3 of the queue's
 * amd_queue_t.queue_properties (of the hardware queue an intercept queue
 * wraps), and with it each completion signal's amd_signal_t gets start_ts and
 * end_ts (offsets 32/40), which hsa_amd_profiling_get_dispatch_time reads
 * from the signal passed in (ROCr hsa_ext_amd.cpp, GpuAgent::TranslateTime). */
#define _GNU_SOURCE
#include <stddef.h>
#include <stdlib.h>
#include <unistd.h>

#include <hsa/amd_hsa_queue.h>
#include <hsa/amd_hsa_signal.h>

#include "selftest.h"

_Static_assert(offsetof(amd_signal_t, start_ts) == 32 && offsetof(amd_signal_t, end_ts) == 40, "amd_signal_t");

static uint64_t now(void) {
  uint64_t t = 0;
  hsa_system_get_info(HSA_SYSTEM_INFO_TIMESTAMP, &t);
  return t;
}

static hsa_barrier_and_packet_t barrier_and(hsa_signal_t d0, hsa_signal_t d1, hsa_signal_t done) {
  hsa_barrier_and_packet_t b;
  memset(&b, 0, sizeof b);
  b.header = (uint16_t)(HSA_PACKET_TYPE_BARRIER_AND << HSA_PACKET_HEADER_TYPE);
  b.dep_signal[0] = d0;
  b.dep_signal[3] = d1;
  b.completion_signal = done;
  return b;
}

static void check_barriers(void) {
  agent_list l = agents();
  device_state d;
  memset(&d, 0, sizeof d);
  hsa_double_set_device(device, &d);
  hsa_queue_t *q = NULL;
  CHECK_OK(hsa_queue_create(l.gpu[0], 64, HSA_QUEUE_TYPE_MULTI, NULL, NULL, 0, 0, &q));
  if (!q) return;
  hsa_signal_t dep0, dep1, bdone, done;
  CHECK_OK(hsa_signal_create(1, 0, NULL, &dep0));
  CHECK_OK(hsa_signal_create(2, 0, NULL, &dep1));
  CHECK_OK(hsa_signal_create(1, 0, NULL, &bdone));
  CHECK_OK(hsa_signal_create(1, 0, NULL, &done));
  /* A BARRIER_AND (without its barrier bit) waits for all of its dependencies,
   * and the dispatch behind it does not start before it completed. */
  hsa_barrier_and_packet_t b = barrier_and(dep0, dep1, bdone);
  hsa_kernel_dispatch_packet_t p = dispatch_packet(0xdead000, NULL, done);
  p.header &= (uint16_t)~(1u << HSA_PACKET_HEADER_BARRIER);
  submit(q, &b);
  submit(q, &p);
  usleep(30 * 1000);
  CHECK_EQ(hsa_signal_load_relaxed(bdone), 1);
  CHECK_EQ(atomic_load(&d.dispatches), 0);
  hsa_signal_store_screlease(dep0, 0);
  usleep(30 * 1000);
  CHECK_EQ(hsa_signal_load_relaxed(bdone), 1); /* one dependency is not all */
  CHECK_EQ(atomic_load(&d.dispatches), 0);
  hsa_signal_subtract_screlease(dep1, 2);
  CHECK_EQ(hsa_signal_wait_scacquire(done, HSA_SIGNAL_CONDITION_EQ, 0, ST_TIMEOUT, HSA_WAIT_STATE_BLOCKED), 0);
  CHECK_EQ(hsa_signal_load_relaxed(bdone), 0);
  CHECK_EQ(atomic_load(&d.dispatches), 1);
  /* The barrier bit: B waits until A (held in the device) has completed. */
  hsa_signal_t a_done, b_done;
  CHECK_OK(hsa_signal_create(1, 0, NULL, &a_done));
  CHECK_OK(hsa_signal_create(1, 0, NULL, &b_done));
  hsa_kernel_dispatch_packet_t pa = dispatch_packet(0xdead000, NULL, a_done), pb = dispatch_packet(0xdead000, NULL, b_done);
  pa.header &= (uint16_t)~(1u << HSA_PACKET_HEADER_BARRIER);
  atomic_store(&d.hold, 1);
  submit(q, &pa);
  submit(q, &pb);
  CHECK_EQ(wait_flag(&d.running, 1), 1);
  usleep(30 * 1000);
  CHECK_EQ(atomic_load(&d.running), 1); /* B has not started */
  CHECK_EQ(hsa_signal_load_relaxed(b_done), 1);
  atomic_store(&d.hold, 0);
  CHECK_EQ(hsa_signal_wait_scacquire(b_done, HSA_SIGNAL_CONDITION_EQ, 0, ST_TIMEOUT, HSA_WAIT_STATE_BLOCKED), 0);
  CHECK_EQ(hsa_signal_load_relaxed(a_done), 0);
  CHECK_OK(hsa_queue_destroy(q));
  hsa_signal_t all[] = {dep0, dep1, bdone, done, a_done, b_done};
  for (int i = 0; i < 6; i++) CHECK_OK(hsa_signal_destroy(all[i]));
  hsa_double_set_device(NULL, NULL);
}

static uint32_t properties(hsa_queue_t *q) { return ((amd_queue_t *)q)->queue_properties; }

/* One dispatch on q; its completion signal's raw timestamps and what
 * get_dispatch_time says of them. */
static void timed_dispatch(hsa_queue_t *q, int profiled) {
  agent_list l = agents();
  hsa_signal_t done, other;
  CHECK_OK(hsa_signal_create(1, 0, NULL, &done));
  CHECK_OK(hsa_signal_create(1, 0, NULL, &other));
  hsa_kernel_dispatch_packet_t p = dispatch_packet(0xdead000, NULL, done);
  uint64_t before = now();
  submit(q, &p);
  CHECK_EQ(hsa_signal_wait_scacquire(done, HSA_SIGNAL_CONDITION_EQ, 0, ST_TIMEOUT, HSA_WAIT_STATE_BLOCKED), 0);
  uint64_t after = now();
  const amd_signal_t *raw = (const amd_signal_t *)(uintptr_t)done.handle;
  hsa_amd_profiling_dispatch_time_t t = {1, 1};
  CHECK_OK(hsa_amd_profiling_get_dispatch_time(l.gpu[0], done, &t));
  if (profiled) {
    CHECK(raw->start_ts >= before && raw->start_ts <= raw->end_ts && raw->end_ts <= after);
    CHECK_EQ(t.start, raw->start_ts); /* the double's GPU clock is the system clock */
    CHECK_EQ(t.end, raw->end_ts);
  } else {
    CHECK_EQ(raw->start_ts, 0);
    CHECK_EQ(raw->end_ts, 0);
    CHECK_EQ(t.start, 0); /* zero timestamps are not an error */
    CHECK_EQ(t.end, 0);
  }
  /* From the signal passed in, not the last dispatch's. */
  CHECK_OK(hsa_amd_profiling_get_dispatch_time(l.gpu[0], other, &t));
  CHECK_EQ(t.start, 0);
  CHECK_EQ(t.end, 0);
  CHECK_HSA(hsa_amd_profiling_get_dispatch_time(l.gpu[0], done, NULL), HSA_STATUS_ERROR_INVALID_ARGUMENT);
  CHECK_HSA(hsa_amd_profiling_get_dispatch_time((hsa_agent_t){12345}, done, &t), HSA_STATUS_ERROR_INVALID_AGENT);
  CHECK_HSA(hsa_amd_profiling_get_dispatch_time(l.gpu[0], (hsa_signal_t){8}, &t), HSA_STATUS_ERROR_INVALID_SIGNAL);
  CHECK_HSA(hsa_amd_profiling_get_dispatch_time(l.cpu, done, &t), HSA_STATUS_ERROR_INVALID_AGENT);
  CHECK_OK(hsa_signal_destroy(done));
  CHECK_OK(hsa_signal_destroy(other));
}

static void check_profiling(void) {
  agent_list l = agents();
  hsa_queue_t *q = NULL, *iq = NULL;
  CHECK_OK(hsa_queue_create(l.gpu[0], 64, HSA_QUEUE_TYPE_MULTI, NULL, NULL, 0, 0, &q));
  CHECK_OK(hsa_double_queue_intercept_create(l.gpu[0], 64, HSA_QUEUE_TYPE_MULTI, NULL, NULL, 0, 0, &iq));
  if (!q || !iq) return;
  timed_dispatch(q, 0);
  CHECK_EQ(properties(q) & AMD_QUEUE_PROPERTIES_ENABLE_PROFILING, 0);
  CHECK_OK(hsa_amd_profiling_set_profiler_enabled(q, 1));
  CHECK_EQ(properties(q) & AMD_QUEUE_PROPERTIES_ENABLE_PROFILING, 1u << 3);
  timed_dispatch(q, 1);
  CHECK_OK(hsa_amd_profiling_set_profiler_enabled(q, 0));
  CHECK_EQ(properties(q) & AMD_QUEUE_PROPERTIES_ENABLE_PROFILING, 0);
  timed_dispatch(q, 0);
  /* An intercept queue forwards it to the queue it wraps; its own properties stay. */
  CHECK_OK(hsa_amd_profiling_set_profiler_enabled(iq, 1));
  CHECK_EQ(properties(iq) & AMD_QUEUE_PROPERTIES_ENABLE_PROFILING, 0);
  timed_dispatch(iq, 1);
  CHECK_HSA(hsa_amd_profiling_set_profiler_enabled((hsa_queue_t *)(uintptr_t)64, 1), HSA_STATUS_ERROR_INVALID_QUEUE);
  CHECK_OK(hsa_queue_destroy(q));
  CHECK_OK(hsa_queue_destroy(iq));
}

void phase_packets(void) {
  setenv("HSA_DOUBLE_AGENTS", "gfx90a:xnack+", 1);
  CHECK_OK(hsa_init());
  check_barriers();
  check_profiling();
  CHECK_OK(hsa_shut_down());
}
