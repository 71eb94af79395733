/* hsa_double/selftest/faults.c — errors ROCr itself may end the process for:
 * GPU memory faults (Runtime::VMFaultHandler: the system event handlers in
 * order, then "Memory access fault by GPU node-..." and abort unless one
 * returned SUCCESS; never the queue's callback), and queues without a callback
 * of their own (Queue::DefaultErrorHandler: "Queue at %p inactivated due to
 * async error:" and abort). What must abort runs in a child process. */
#define _GNU_SOURCE
#include <pthread.h>
#include <signal.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <unistd.h>

#include "selftest.h"

typedef struct {
  atomic_int calls;
  int order;                  /* calls of any handler before this one's first */
  hsa_amd_event_t event;
  unsigned long thread;
  hsa_status_t answer;
} event_handler;

static atomic_int g_event_calls;
static int g_child; /* in a child: handlers say what they saw */

static hsa_status_t on_event(const hsa_amd_event_t *e, void *data) {
  event_handler *h = data;
  if (atomic_fetch_add(&h->calls, 1) == 0) {
    h->order = atomic_fetch_add(&g_event_calls, 1);
    h->event = *e;
    h->thread = (unsigned long)pthread_self();
  }
  if (g_child)
    fprintf(stderr, "child: handler saw event %d at 0x%llx, reasons 0x%x\n", (int)e->event_type,
            (unsigned long long)e->memory_fault.virtual_address, e->memory_fault.fault_reason_mask);
  return h->answer;
}

/* One dispatch on a fresh queue of gpu[0] with the device returning `outcome`. */
static hsa_queue_t *run_one(device_state *d, hsa_queue_type32_t type, void (*cb)(hsa_status_t, hsa_queue_t *, void *),
                            void *data, hsa_signal_t done) {
  agent_list l = agents();
  hsa_double_set_device(device, d);
  hsa_queue_t *q = NULL;
  CHECK_OK(hsa_queue_create(l.gpu[0], 64, type, cb, data, 0, 0, &q));
  if (!q) return NULL;
  if (g_child) fprintf(stderr, "child: queue %p, agent %p\n", (void *)q, (void *)l.gpu[0].handle);
  hsa_kernel_dispatch_packet_t p = dispatch_packet(0xdead000, NULL, done);
  submit(q, &p);
  return q;
}

/* ---- children: each ends in abort() unless ROCr would not abort ------------------------------ */

int faults_child(const char *name) {
  g_child = 1;
  setenv("HSA_DOUBLE_AGENTS", "gfx90a:xnack+", 1);
  if (hsa_init() != HSA_STATUS_SUCCESS) return 3;
  device_state d;
  memset(&d, 0, sizeof d);
  d.fault_address = 0x1234000;
  d.fault_reason = HSA_AMD_MEMORY_FAULT_READ_ONLY | HSA_AMD_MEMORY_FAULT_IMPRECISE;
  queue_error err;
  memset(&err, 0, sizeof err);
  event_handler h;
  memset(&h, 0, sizeof h);
  h.answer = HSA_STATUS_ERROR;
  hsa_signal_t done;
  hsa_signal_create(1, 0, NULL, &done);
  if (!strcmp(name, "queue-default") || !strcmp(name, "queue-quiet")) {
    d.outcome = HSA_DOUBLE_TRAP;
    run_one(&d, HSA_QUEUE_TYPE_MULTI, NULL, NULL, done);
  } else if (!strcmp(name, "coop-trap")) { /* the cooperative queue ignores the caller's callback */
    d.outcome = HSA_DOUBLE_TRAP;
    run_one(&d, HSA_QUEUE_TYPE_COOPERATIVE, on_queue_error, &err, done);
  } else if (!strncmp(name, "vm-", 3)) {
    d.outcome = HSA_DOUBLE_MEMFAULT;
    if (!strcmp(name, "vm-unhandled")) hsa_amd_register_system_event_handler(on_event, &h);
    run_one(&d, HSA_QUEUE_TYPE_MULTI, on_queue_error, &err, done);
  } else {
    return -1;
  }
  usleep(300 * 1000);
  fprintf(stderr, "child: alive, %d queue callback(s)\n", atomic_load(&err.calls));
  hsa_shut_down();
  return 0;
}

static int aborted(int status) { return WIFSIGNALED(status) && WTERMSIG(status) == SIGABRT; }

/* "child: queue 0x..., agent 0x..." from the child's output: both pointers. */
static void child_pointers(const char *out, void **queue, void **agent) {
  const char *at = strstr(out, "child: queue ");
  *queue = *agent = NULL;
  if (at) sscanf(at, "child: queue %p, agent %p", queue, agent);
}

static void check_children(void) {
  char out[8192], want[256];
  void *q, *agent;
  int st = run_child("queue-default", out, sizeof out);
  child_pointers(out, &q, &agent);
  CHECK(aborted(st));
  snprintf(want, sizeof want, "Queue at %p inactivated due to async error:\n\tHSA_STATUS_ERROR_EXCEPTION", q);
  CHECK_HAS(out, want);
  /* HSA_ENABLE_QUEUE_FAULT_MESSAGE=0: DefaultErrorHandler neither prints nor aborts. */
  setenv("HSA_ENABLE_QUEUE_FAULT_MESSAGE", "0", 1);
  st = run_child("queue-quiet", out, sizeof out);
  unsetenv("HSA_ENABLE_QUEUE_FAULT_MESSAGE");
  CHECK(WIFEXITED(st) && WEXITSTATUS(st) == 0);
  CHECK(!strstr(out, "inactivated"));
  CHECK_HAS(out, "child: alive");
  /* A cooperative queue: DefaultErrorHandler, never the caller's callback. */
  st = run_child("coop-trap", out, sizeof out);
  child_pointers(out, &q, &agent);
  CHECK(aborted(st));
  snprintf(want, sizeof want, "Queue at %p inactivated due to async error:", q);
  CHECK_HAS(out, want);
  CHECK(!strstr(out, "child: alive"));
  /* A memory fault no handler claims: the handlers first, then ROCr's line, then abort. */
  st = run_child("vm-unhandled", out, sizeof out);
  child_pointers(out, &q, &agent);
  CHECK(aborted(st));
  CHECK_HAS(out, "child: handler saw event 0 at 0x1234000, reasons 0x22");
  snprintf(want, sizeof want,
           "Memory access fault by GPU node-1 (Agent handle: %p) on address 0x1234000(may not be exact address). "
           "Reason: Write access to a read-only page.\n", agent);
  CHECK_HAS(out, want);
  const char *seen = strstr(out, "child: handler saw"), *line = strstr(out, "Memory access fault");
  CHECK(seen && line && seen < line);
  st = run_child("vm-none", out, sizeof out);
  CHECK(aborted(st));
  CHECK_HAS(out, "Memory access fault by GPU node-1");
  setenv("HSA_ENABLE_VM_FAULT_MESSAGE", "0", 1); /* no line, still the abort */
  st = run_child("vm-quiet", out, sizeof out);
  unsetenv("HSA_ENABLE_VM_FAULT_MESSAGE");
  CHECK(aborted(st));
  CHECK(!strstr(out, "Memory access fault"));
}

/* ---- in this process: faults a handler claims, and no handler at all ----------------------- */

static void claimed_fault(void) {
  event_handler h1, h2;
  memset(&h1, 0, sizeof h1);
  memset(&h2, 0, sizeof h2);
  h1.answer = HSA_STATUS_ERROR;
  h2.answer = HSA_STATUS_SUCCESS;
  atomic_store(&g_event_calls, 0);
  CHECK_OK(hsa_amd_register_system_event_handler(on_event, &h1));
  CHECK_OK(hsa_amd_register_system_event_handler(on_event, &h2));
  device_state d;
  memset(&d, 0, sizeof d);
  d.outcome = HSA_DOUBLE_MEMFAULT;
  d.fault_address = 0xbad000;
  d.fault_reason = HSA_AMD_MEMORY_FAULT_PAGE_NOT_PRESENT;
  queue_error err;
  memset(&err, 0, sizeof err);
  hsa_signal_t done;
  CHECK_OK(hsa_signal_create(1, 0, NULL, &done));
  hsa_queue_t *q = run_one(&d, HSA_QUEUE_TYPE_MULTI, on_queue_error, &err, done);
  CHECK_EQ(wait_flag(&h2.calls, 1), 1);
  CHECK_EQ(atomic_load(&h1.calls), 1);
  CHECK_EQ(h1.order, 0); /* in registration order */
  CHECK_EQ(h2.order, 1);
  CHECK_EQ(h1.event.event_type, HSA_AMD_GPU_MEMORY_FAULT_EVENT);
  CHECK_EQ(h1.event.memory_fault.agent.handle, agents().gpu[0].handle);
  CHECK_EQ(h1.event.memory_fault.virtual_address, 0xbad000);
  CHECK_EQ(h1.event.memory_fault.fault_reason_mask, HSA_AMD_MEMORY_FAULT_PAGE_NOT_PRESENT);
  /* The exceptions thread of its own from 6.2.1; the one thread before. */
  if (release_at_least("6.2.1")) CHECK(h1.thread != async_thread());
  else CHECK_EQ(h1.thread, async_thread());
  usleep(50 * 1000);
  CHECK_EQ(atomic_load(&err.calls), 0); /* never the queue's callback */
  CHECK_EQ(hsa_signal_load_relaxed(done), 1);
  /* One-shot: the next fault is reported to no one (and does not abort). */
  hsa_queue_t *q2 = run_one(&d, HSA_QUEUE_TYPE_MULTI, on_queue_error, &err, done);
  CHECK_EQ(wait_flag(&d.dispatches, 2), 2);
  usleep(50 * 1000);
  CHECK_EQ(atomic_load(&h1.calls), 1);
  CHECK_EQ(atomic_load(&h2.calls), 1);
  CHECK_EQ(atomic_load(&err.calls), 0);
  if (q) CHECK_OK(hsa_queue_destroy(q));
  if (q2) CHECK_OK(hsa_queue_destroy(q2));
  CHECK_OK(hsa_signal_destroy(done));
  hsa_double_set_device(NULL, NULL);
}

/* HSA_ENABLE_INTERRUPT=0: ROCr binds no VM-fault handler; nobody hears of it. */
static void no_interrupts(void) {
  setenv("HSA_ENABLE_INTERRUPT", "0", 1);
  CHECK_OK(hsa_init());
  event_handler h;
  memset(&h, 0, sizeof h);
  CHECK_OK(hsa_amd_register_system_event_handler(on_event, &h));
  device_state d;
  memset(&d, 0, sizeof d);
  d.outcome = HSA_DOUBLE_MEMFAULT;
  queue_error err;
  memset(&err, 0, sizeof err);
  hsa_signal_t done;
  CHECK_OK(hsa_signal_create(1, 0, NULL, &done));
  hsa_queue_t *q = run_one(&d, HSA_QUEUE_TYPE_MULTI, on_queue_error, &err, done);
  CHECK_EQ(wait_flag(&d.dispatches, 1), 1);
  usleep(50 * 1000);
  CHECK_EQ(atomic_load(&h.calls), 0);
  CHECK_EQ(atomic_load(&err.calls), 0);
  if (q) CHECK_OK(hsa_queue_destroy(q));
  CHECK_OK(hsa_signal_destroy(done));
  hsa_double_set_device(NULL, NULL);
  CHECK_OK(hsa_shut_down());
  unsetenv("HSA_ENABLE_INTERRUPT");
}

void phase_faults(void) {
  setenv("HSA_DOUBLE_AGENTS", "gfx90a:xnack+", 1);
  const char *rels[] = {"5.2", "6.2", "6.2.1", "7"};
  for (int i = 0; i < 4; i++) {
    setenv("HSA_DOUBLE_ROCM", rels[i], 1);
    CHECK_OK(hsa_init());
    claimed_fault();
    CHECK_OK(hsa_shut_down());
  }
  unsetenv("HSA_DOUBLE_ROCM");
  no_interrupts();
  check_children();
}
