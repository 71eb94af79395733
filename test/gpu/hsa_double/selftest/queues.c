/* hsa_double/selftest/queues.c — AQL queues: creation as ROCr checks it,
 * dispatches through the simulated device, a barrier packet, the doorbell
 * protocol, and queue errors (ROCr's AqlQueue::ExceptionHandler: the status,
 * the async-events thread, the queue suspended). */
#define _GNU_SOURCE
#include <pthread.h>
#include <unistd.h>

#include "selftest.h"

void test_dispatch(void) {
  agent_list l = agents();
  device_state d;
  memset(&d, 0, sizeof d);
  d.outcome = HSA_DOUBLE_COMPLETE;
  hsa_double_set_device(device, &d);
  hsa_queue_t *q = NULL;
  /* ROCr hsa_queue_create, then GpuAgent::QueueCreate / CpuAgent::QueueCreate. */
  CHECK_HSA(hsa_queue_create(l.gpu[0], 100, HSA_QUEUE_TYPE_MULTI, NULL, NULL, UINT32_MAX, UINT32_MAX, &q),
            HSA_STATUS_ERROR_INVALID_ARGUMENT);
  CHECK_HSA(hsa_queue_create((hsa_agent_t){12345}, 100, HSA_QUEUE_TYPE_MULTI, NULL, NULL, 0, 0, &q),
            HSA_STATUS_ERROR_INVALID_ARGUMENT); /* the size before the agent */
  CHECK_HSA(hsa_queue_create((hsa_agent_t){12345}, 64, HSA_QUEUE_TYPE_MULTI, NULL, NULL, 0, 0, &q),
            HSA_STATUS_ERROR_INVALID_AGENT);
  CHECK_HSA(hsa_queue_create(l.gpu[0], 64, (hsa_queue_type32_t)3, NULL, NULL, 0, 0, &q),
            HSA_STATUS_ERROR_INVALID_ARGUMENT);
  CHECK_HSA(hsa_queue_create(l.cpu, 64, HSA_QUEUE_TYPE_MULTI, NULL, NULL, UINT32_MAX, UINT32_MAX, &q),
            HSA_STATUS_ERROR); /* no packet processor on a CPU agent */
  CHECK_HSA(hsa_queue_create(l.gpu[0], 0x40000, HSA_QUEUE_TYPE_MULTI, NULL, NULL, 0, 0, &q),
            HSA_STATUS_ERROR_OUT_OF_RESOURCES);
  CHECK_HSA(hsa_queue_create(l.gpu[0], 32, HSA_QUEUE_TYPE_MULTI, NULL, NULL, 0, 0, &q),
            HSA_STATUS_ERROR_INVALID_ARGUMENT);
  CHECK_OK(hsa_queue_create(l.gpu[0], 64, HSA_QUEUE_TYPE_MULTI, NULL, NULL, UINT32_MAX, UINT32_MAX, &q));
  if (!q) return;
  CHECK_EQ(q->size, 64);
  hsa_signal_t done, dep;
  CHECK_OK(hsa_signal_create(1, 0, NULL, &done));
  CHECK_OK(hsa_signal_create(1, 0, NULL, &dep));
  args a = make_args(5);
  hsa_kernel_dispatch_packet_t p = dispatch_packet(g_kernel_object, a.kernarg, done);
  CHECK_EQ(submit(q, &p), 0);
  CHECK_EQ(hsa_signal_wait_scacquire(done, HSA_SIGNAL_CONDITION_EQ, 0, ST_TIMEOUT, HSA_WAIT_STATE_BLOCKED), 0);
  CHECK_EQ(hsa_queue_load_read_index_scacquire(q), 1);
  CHECK_EQ(atomic_load(&d.dispatches), 1);
  CHECK(atomic_load(&d.name_ok));
  int32_t out = 0;
  CHECK_OK(hsa_memory_copy(&out, a.out, 4));
  CHECK_EQ(out, 105);

  /* A barrier-AND holds the next dispatch until its dependency reaches 0. */
  hsa_barrier_and_packet_t b;
  memset(&b, 0, sizeof b);
  b.header = (HSA_PACKET_TYPE_BARRIER_AND << HSA_PACKET_HEADER_TYPE) | (1 << HSA_PACKET_HEADER_BARRIER);
  b.dep_signal[0] = dep;
  submit(q, &b);
  hsa_signal_store_relaxed(done, 1);
  submit(q, &p);
  CHECK_EQ(hsa_signal_wait_scacquire(done, HSA_SIGNAL_CONDITION_EQ, 0, 50 * 1000 * 1000, HSA_WAIT_STATE_BLOCKED), 1);
  CHECK_EQ(atomic_load(&d.dispatches), 1);
  hsa_signal_store_screlease(dep, 0);
  CHECK_EQ(hsa_signal_wait_scacquire(done, HSA_SIGNAL_CONDITION_EQ, 0, ST_TIMEOUT, HSA_WAIT_STATE_BLOCKED), 0);
  CHECK_EQ(atomic_load(&d.dispatches), 2);
  CHECK_EQ(hsa_queue_load_read_index_scacquire(q), 3);

  /* A packet written but not rung is not processed. */
  hsa_signal_store_relaxed(done, 1);
  uint64_t index = hsa_queue_add_write_index_screlease(q, 1);
  uint8_t *slot = (uint8_t *)q->base_address + (index % q->size) * 64;
  memcpy(slot + 2, (uint8_t *)&p + 2, 62);
  __atomic_store_n((uint16_t *)slot, p.header, __ATOMIC_RELEASE);
  usleep(50 * 1000);
  CHECK_EQ(hsa_signal_load_scacquire(done), 1);
  hsa_signal_store_screlease(q->doorbell_signal, (hsa_signal_value_t)index);
  CHECK_EQ(hsa_signal_wait_scacquire(done, HSA_SIGNAL_CONDITION_EQ, 0, ST_TIMEOUT, HSA_WAIT_STATE_BLOCKED), 0);

  CHECK_HSA(hsa_signal_destroy(q->doorbell_signal), HSA_STATUS_ERROR_INVALID_SIGNAL);
  CHECK_OK(hsa_queue_destroy(q));
  CHECK_HSA(hsa_queue_destroy(q), HSA_STATUS_ERROR_INVALID_QUEUE);
  CHECK_OK(hsa_signal_destroy(done));
  CHECK_OK(hsa_signal_destroy(dep));
  free_args(a);
  hsa_double_set_device(NULL, NULL);
}

/* An error puts the queue in error: its callback gets `want` on the
 * async-events thread (the thread async handlers run on), the completion signal
 * is left alone, and the queue takes no further packets. `bad` spoils the
 * packet the way the CP refuses; with none, the device returns `outcome`. */
static void check_queue_error(hsa_double_outcome outcome, void (*bad)(hsa_kernel_dispatch_packet_t *),
                              hsa_status_t want) {
  agent_list l = agents();
  device_state d;
  memset(&d, 0, sizeof d);
  d.outcome = outcome;
  hsa_double_set_device(device, &d);
  queue_error err;
  memset(&err, 0, sizeof err);
  hsa_queue_t *q = NULL;
  CHECK_OK(hsa_queue_create(l.gpu[0], 64, HSA_QUEUE_TYPE_MULTI, on_queue_error, &err, UINT32_MAX, UINT32_MAX, &q));
  hsa_signal_t done;
  CHECK_OK(hsa_signal_create(1, 0, NULL, &done));
  args a = make_args(1);
  hsa_kernel_dispatch_packet_t p = dispatch_packet(g_kernel_object, a.kernarg, done), spoilt = p;
  if (bad) bad(&spoilt);
  submit(q, &spoilt);
  CHECK_EQ(wait_flag(&err.calls, 1), 1);
  CHECK_HSA(err.status, want);
  CHECK_EQ(err.source, q);
  CHECK_EQ(err.thread, async_thread());
  CHECK_EQ(hsa_signal_load_relaxed(done), 1);
  int ran = atomic_load(&d.dispatches);
  submit(q, &p); /* ignored: the queue is suspended */
  usleep(20 * 1000);
  CHECK_EQ(atomic_load(&d.dispatches), ran);
  CHECK_EQ(hsa_signal_load_relaxed(done), 1);
  CHECK_EQ(atomic_load(&err.calls), 1);
  CHECK_OK(hsa_queue_destroy(q));
  CHECK_OK(hsa_signal_destroy(done));
  free_args(a);
  hsa_double_set_device(NULL, NULL);
}

static void no_code(hsa_kernel_dispatch_packet_t *p) { p->kernel_object = 0; }
static void no_dims(hsa_kernel_dispatch_packet_t *p) { p->setup = 0; }
static void big_group(hsa_kernel_dispatch_packet_t *p) { p->workgroup_size_x = 2048; }
static void big_lds(hsa_kernel_dispatch_packet_t *p) { p->group_segment_size = 1u << 20; }
static void agent_packet(hsa_kernel_dispatch_packet_t *p) {
  p->header = (uint16_t)((p->header & ~0xff) | (HSA_PACKET_TYPE_AGENT_DISPATCH << HSA_PACKET_HEADER_TYPE));
}

/* A queue error callback that destroys its own queue (on the async thread). */
static void destroy_own_queue(hsa_status_t status, hsa_queue_t *source, void *data) {
  (void)status;
  CHECK_OK(hsa_queue_destroy(source));
  atomic_fetch_add((atomic_int *)data, 1);
}

void test_queue_errors(void) {
  /* s_trap 2 (llvm.trap): EC_QUEUE_WAVE_ABORT, HSA_STATUS_ERROR_EXCEPTION. */
  check_queue_error(HSA_DOUBLE_TRAP, NULL, HSA_STATUS_ERROR_EXCEPTION);
  /* What the CP refuses: ROCr's statuses for those exception codes. */
  check_queue_error(HSA_DOUBLE_COMPLETE, no_code, HSA_STATUS_ERROR_INVALID_CODE_OBJECT);
  check_queue_error(HSA_DOUBLE_COMPLETE, no_dims, HSA_STATUS_ERROR_INCOMPATIBLE_ARGUMENTS);
  check_queue_error(HSA_DOUBLE_COMPLETE, big_group, HSA_STATUS_ERROR_INVALID_ARGUMENT);
  check_queue_error(HSA_DOUBLE_COMPLETE, big_lds, HSA_STATUS_ERROR_INVALID_ALLOCATION);
  check_queue_error(HSA_DOUBLE_COMPLETE, agent_packet, HSA_STATUS_ERROR_INVALID_PACKET_FORMAT);
  /* The callback may destroy the queue it is called for. */
  agent_list l = agents();
  device_state d;
  memset(&d, 0, sizeof d);
  d.outcome = HSA_DOUBLE_TRAP;
  hsa_double_set_device(device, &d);
  atomic_int destroyed = 0;
  hsa_queue_t *q = NULL;
  CHECK_OK(hsa_queue_create(l.gpu[0], 64, HSA_QUEUE_TYPE_MULTI, destroy_own_queue, &destroyed, 0, 0, &q));
  hsa_signal_t done;
  CHECK_OK(hsa_signal_create(1, 0, NULL, &done));
  hsa_kernel_dispatch_packet_t p = dispatch_packet(g_kernel_object, NULL, done);
  if (q) submit(q, &p);
  CHECK_EQ(wait_flag(&destroyed, 1), 1);
  CHECK_HSA(hsa_queue_destroy(q), HSA_STATUS_ERROR_INVALID_QUEUE);
  CHECK_OK(hsa_signal_destroy(done));
  hsa_double_set_device(NULL, NULL);
}
