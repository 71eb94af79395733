/* hsa_double/selftest/cooperative.c — cooperative queues as ROCr has them
 * (GpuAgent::QueueCreate, InitGWS, GWSRelease): one shared, reference-counted
 * queue per GPU agent whatever the caller asks, its size ROCr's (0x40 packets,
 * 0x4000 in develop), the runtime's internal-queue notifier told about it, and
 * a new one after the last reference is gone. (Its errors go to
 * DefaultErrorHandler: faults.c.) */
#define _GNU_SOURCE
#include <stdlib.h>
#include <unistd.h>

#include "selftest.h"

typedef struct {
  atomic_int calls;
  const hsa_queue_t *queue;
  hsa_agent_t agent;
} notified;

static void on_internal_queue(const hsa_queue_t *queue, hsa_agent_t agent, void *data) {
  notified *n = data;
  n->queue = queue;
  n->agent = agent;
  atomic_fetch_add(&n->calls, 1);
}

static void check_cooperative(const char *rel, uint32_t want_size) {
  setenv("HSA_DOUBLE_ROCM", rel, 1);
  CHECK_OK(hsa_init());
  agent_list l = agents();
  bool coop = false;
  CHECK_OK(hsa_agent_get_info(l.gpu[0], (hsa_agent_info_t)HSA_AMD_AGENT_INFO_COOPERATIVE_QUEUES, &coop));
  CHECK(coop);
  notified n;
  memset(&n, 0, sizeof n);
  CHECK_OK(hsa_double_runtime_queue_create_register(on_internal_queue, &n));
  CHECK_HSA(hsa_double_runtime_queue_create_register(on_internal_queue, &n), HSA_STATUS_ERROR); /* one notifier */
  queue_error err;
  memset(&err, 0, sizeof err);
  hsa_queue_t *a = NULL, *b = NULL, *c = NULL, *other = NULL;
  CHECK_OK(hsa_queue_create(l.gpu[0], 64, HSA_QUEUE_TYPE_COOPERATIVE, on_queue_error, &err, 0, 0, &a));
  CHECK_OK(hsa_queue_create(l.gpu[0], 4096, HSA_QUEUE_TYPE_COOPERATIVE, NULL, NULL, 1024, 1024, &b));
  CHECK_OK(hsa_queue_create(l.gpu[1], 64, HSA_QUEUE_TYPE_COOPERATIVE, NULL, NULL, 0, 0, &other));
  if (!a || !b || !other) return;
  CHECK(a == b); /* the same queue, whatever was asked */
  CHECK(a != other); /* one per agent */
  CHECK_EQ(a->type, HSA_QUEUE_TYPE_COOPERATIVE);
  CHECK_EQ(a->size, want_size);
  CHECK_EQ(atomic_load(&n.calls), 2);
  CHECK(n.queue == other);
  CHECK_EQ(n.agent.handle, l.gpu[1].handle);
  /* It runs dispatches like any queue. */
  device_state d;
  memset(&d, 0, sizeof d);
  hsa_double_set_device(device, &d);
  hsa_signal_t done;
  CHECK_OK(hsa_signal_create(1, 0, NULL, &done));
  hsa_kernel_dispatch_packet_t p = dispatch_packet(0xdead000, NULL, done);
  submit(a, &p);
  CHECK_EQ(hsa_signal_wait_scacquire(done, HSA_SIGNAL_CONDITION_EQ, 0, ST_TIMEOUT, HSA_WAIT_STATE_BLOCKED), 0);
  /* Destroy drops a reference; the last one destroys it; then a new one. */
  CHECK_OK(hsa_queue_destroy(a));
  hsa_signal_store_relaxed(done, 1);
  submit(b, &p); /* still alive: one reference left */
  CHECK_EQ(hsa_signal_wait_scacquire(done, HSA_SIGNAL_CONDITION_EQ, 0, ST_TIMEOUT, HSA_WAIT_STATE_BLOCKED), 0);
  CHECK_OK(hsa_queue_destroy(b));
  CHECK_HSA(hsa_queue_destroy(b), HSA_STATUS_ERROR_INVALID_QUEUE);
  CHECK_OK(hsa_queue_create(l.gpu[0], 64, HSA_QUEUE_TYPE_COOPERATIVE, NULL, NULL, 0, 0, &c));
  CHECK_EQ(atomic_load(&n.calls), 3); /* created again */
  if (c) CHECK_OK(hsa_queue_destroy(c));
  CHECK_OK(hsa_queue_destroy(other));
  CHECK_OK(hsa_signal_destroy(done));
  CHECK_EQ(atomic_load(&err.calls), 0);
  hsa_double_set_device(NULL, NULL);
  CHECK_OK(hsa_shut_down());
}

void phase_cooperative(void) {
  setenv("HSA_DOUBLE_AGENTS", "gfx90a:xnack+,gfx942:xnack+", 1);
  check_cooperative("5.2", 64);
  check_cooperative("6.3", 64);
  check_cooperative("7", 0x4000);
  unsetenv("HSA_DOUBLE_ROCM");
}
