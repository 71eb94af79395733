/* hsa_double/selftest/async.c — hsa_amd_signal_async_handler: when handlers
 * run, how often, and on which thread, with queue errors and memory faults. */
#define _GNU_SOURCE
#include <pthread.h>
#include <stdlib.h>
#include <unistd.h>

#include "selftest.h"

typedef struct {
  atomic_int calls;
  hsa_signal_value_t value;
} handler_state;

/* Asks to stay registered twice: ROCr calls it again while the condition holds. */
static bool on_signal(hsa_signal_value_t value, void *arg) {
  handler_state *h = arg;
  h->value = value;
  return atomic_fetch_add(&h->calls, 1) + 1 < 3;
}

void test_async_handler(void) {
  hsa_signal_t s;
  CHECK_OK(hsa_signal_create(1, 0, NULL, &s));
  handler_state h;
  memset(&h, 0, sizeof h);
  CHECK_OK(hsa_amd_signal_async_handler(s, HSA_SIGNAL_CONDITION_LT, 1, on_signal, &h));
  usleep(20 * 1000);
  CHECK_EQ(atomic_load(&h.calls), 0);
  hsa_signal_subtract_screlease(s, 1);
  CHECK_EQ(wait_flag(&h.calls, 3), 3);
  usleep(20 * 1000);
  CHECK_EQ(atomic_load(&h.calls), 3);
  CHECK_EQ(h.value, 0);
  CHECK_HSA(hsa_amd_signal_async_handler(s, HSA_SIGNAL_CONDITION_EQ, 0, NULL, NULL), HSA_STATUS_ERROR_INVALID_ARGUMENT);
  CHECK_OK(hsa_signal_destroy(s));
}

/* ---- which thread, and one after another ------------------------------------------------------- */

typedef struct {
  atomic_int started, finished, release;
  unsigned long thread;
} slow_handler;

/* Holds the async thread until told to go (at most 10 s). */
static bool slow(hsa_signal_value_t value, void *arg) {
  (void)value;
  slow_handler *h = arg;
  h->thread = (unsigned long)pthread_self();
  atomic_store(&h->started, 1);
  for (int i = 0; i < 10000 && !atomic_load(&h->release); i++) usleep(1000);
  atomic_store(&h->finished, 1);
  return false;
}

typedef struct {
  atomic_int calls;
  atomic_int slow_was_running; /* the slow handler had not finished when this ran */
  unsigned long thread;
  slow_handler *slow;
} fault_seen;

static hsa_status_t claim_fault(const hsa_amd_event_t *e, void *data) {
  (void)e;
  fault_seen *f = data;
  f->thread = (unsigned long)pthread_self();
  atomic_store(&f->slow_was_running, !atomic_load(&f->slow->finished));
  atomic_fetch_add(&f->calls, 1);
  return HSA_STATUS_SUCCESS;
}

/* ROCr Runtime::SetAsyncSignalHandler / AsyncEventsLoop: user handlers, queue
 * error callbacks and VM-fault handlers share one thread and run one after
 * another until 6.2.0; from 6.2.1 VM faults have a thread of their own, so a
 * slow user handler delays queue errors but no longer memory faults. */
static void check_threads(const char *rel) {
  setenv("HSA_DOUBLE_ROCM", rel, 1);
  CHECK_OK(hsa_init());
  agent_list l = agents();
  slow_handler h;
  memset(&h, 0, sizeof h);
  fault_seen f;
  memset(&f, 0, sizeof f);
  f.slow = &h;
  CHECK_OK(hsa_amd_register_system_event_handler(claim_fault, &f));
  hsa_signal_t s, done;
  CHECK_OK(hsa_signal_create(1, 0, NULL, &s));
  CHECK_OK(hsa_signal_create(1, 0, NULL, &done));
  CHECK_OK(hsa_amd_signal_async_handler(s, HSA_SIGNAL_CONDITION_EQ, 0, slow, &h));
  hsa_signal_store_screlease(s, 0);
  CHECK_EQ(wait_flag(&h.started, 1), 1);
  /* A trap in one queue, a memory fault in another, while the slow handler runs. */
  device_state trap, fault;
  memset(&trap, 0, sizeof trap);
  memset(&fault, 0, sizeof fault);
  trap.outcome = HSA_DOUBLE_TRAP;
  fault.outcome = HSA_DOUBLE_MEMFAULT;
  queue_error err;
  memset(&err, 0, sizeof err);
  hsa_queue_t *qt = NULL, *qf = NULL;
  CHECK_OK(hsa_queue_create(l.gpu[0], 64, HSA_QUEUE_TYPE_MULTI, on_queue_error, &err, 0, 0, &qt));
  CHECK_OK(hsa_queue_create(l.gpu[0], 64, HSA_QUEUE_TYPE_MULTI, on_queue_error, &err, 0, 0, &qf));
  hsa_kernel_dispatch_packet_t p = dispatch_packet(0xdead000, NULL, done);
  hsa_double_set_device(device, &trap);
  if (qt) submit(qt, &p);
  CHECK_EQ(wait_flag(&trap.dispatches, 1), 1);
  hsa_double_set_device(device, &fault);
  if (qf) submit(qf, &p);
  CHECK_EQ(wait_flag(&fault.dispatches, 1), 1);
  if (release_at_least("6.2.1")) CHECK_EQ(wait_flag(&f.calls, 1), 1); /* the fault does not wait */
  else usleep(100 * 1000);
  CHECK_EQ(atomic_load(&err.calls), 0); /* the queue error waits for the slow handler */
  if (!release_at_least("6.2.1")) CHECK_EQ(atomic_load(&f.calls), 0); /* so does the fault */
  atomic_store(&h.release, 1);
  CHECK_EQ(wait_flag(&err.calls, 1), 1);
  CHECK_EQ(wait_flag(&f.calls, 1), 1);
  CHECK_EQ(err.thread, h.thread);
  if (release_at_least("6.2.1")) {
    CHECK(f.thread != h.thread);
    CHECK(atomic_load(&f.slow_was_running));
  } else {
    CHECK_EQ(f.thread, h.thread);
    CHECK(!atomic_load(&f.slow_was_running));
  }
  CHECK_EQ(atomic_load(&err.calls), 1); /* the memory fault never reached the queue's callback */
  if (qt) CHECK_OK(hsa_queue_destroy(qt));
  if (qf) CHECK_OK(hsa_queue_destroy(qf));
  hsa_double_set_device(NULL, NULL);
  CHECK_OK(hsa_signal_destroy(done));
  /* A signal destroyed while its handler runs: hsa_signal_destroy does not wait. */
  memset(&h, 0, sizeof h);
  CHECK_OK(hsa_amd_signal_async_handler(s, HSA_SIGNAL_CONDITION_EQ, 1, slow, &h));
  hsa_signal_store_screlease(s, 1);
  CHECK_EQ(wait_flag(&h.started, 1), 1);
  CHECK_OK(hsa_signal_destroy(s));
  CHECK_EQ(atomic_load(&h.finished), 0);
  atomic_store(&h.release, 1);
  CHECK_EQ(wait_flag(&h.finished, 1), 1);
  CHECK_OK(hsa_shut_down());
}

static bool never(hsa_signal_value_t value, void *arg) {
  (void)value, (void)arg;
  return false;
}

/* Which signals take a handler (ROCr hsa_amd_signal_create, then
 * hsa_amd_signal_async_handler): with interrupts on, only interrupt signals,
 * i.e. not GPU_ONLY, not IPC (accepted again in develop), and not with
 * consumers none of which is a CPU. */
static void check_signal_kinds(const char *rel, const char *interrupt) {
  setenv("HSA_DOUBLE_ROCM", rel, 1);
  if (interrupt) setenv("HSA_ENABLE_INTERRUPT", interrupt, 1);
  CHECK_OK(hsa_init());
  agent_list l = agents();
  int on = !interrupt || strcmp(interrupt, "0");
  hsa_status_t refused = on ? HSA_STATUS_ERROR_INVALID_SIGNAL : HSA_STATUS_SUCCESS;
  hsa_agent_t gpu_only[1] = {l.gpu[0]}, with_cpu[2] = {l.gpu[0], l.cpu}, twice[2] = {l.cpu, l.cpu};
  struct {
    uint32_t n;
    hsa_agent_t *consumers;
    uint64_t attributes;
    hsa_status_t want;
  } kinds[] = {
      {0, NULL, 0, HSA_STATUS_SUCCESS},
      {2, with_cpu, 0, HSA_STATUS_SUCCESS},
      {1, gpu_only, 0, refused},
      {0, NULL, HSA_AMD_SIGNAL_AMD_GPU_ONLY, refused},
      {0, NULL, HSA_AMD_SIGNAL_IPC, !strcmp(rel, "7") ? HSA_STATUS_SUCCESS : refused},
  };
  for (size_t i = 0; i < sizeof kinds / sizeof kinds[0]; i++) {
    hsa_signal_t s = {0};
    CHECK_OK(hsa_amd_signal_create(1, kinds[i].n, kinds[i].consumers, kinds[i].attributes, &s));
    CHECK_HSA(hsa_amd_signal_async_handler(s, HSA_SIGNAL_CONDITION_EQ, 0, never, NULL), kinds[i].want);
    CHECK_OK(hsa_signal_destroy(s));
  }
  hsa_signal_t s;
  if (on) CHECK_HSA(hsa_amd_signal_create(1, 2, twice, 0, &s), HSA_STATUS_ERROR_INVALID_ARGUMENT);
  CHECK_OK(hsa_shut_down());
  unsetenv("HSA_ENABLE_INTERRUPT");
}

void phase_threads(void) {
  check_signal_kinds("5.2", NULL);
  check_signal_kinds("6.3", NULL);
  check_signal_kinds("7", NULL);
  check_signal_kinds("6.2", "0");
  setenv("HSA_DOUBLE_AGENTS", "gfx90a:xnack+", 1);
  const char *rels[] = {"5.2", "6.0", "6.2", "6.2.1", "6.3", "7"};
  for (int i = 0; i < 6; i++) check_threads(rels[i]);
  unsetenv("HSA_DOUBLE_ROCM");
}
