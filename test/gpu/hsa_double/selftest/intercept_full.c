/* hsa_double/selftest/intercept_full.c — intercept queues as each ROCm release
 * runs them (ROCr InterceptQueue, rewritten in 6.0): a full hardware ring
 * (ROCr's own retry BARRIER_AND, seen through the packet observer, and the
 * left-over packets submitted from the async thread), a doorbell rung inside
 * a handler (deferred to the async thread), the packet writer called twice
 * (6.0+ only), and the size check of 6.0+. */
#define _GNU_SOURCE
#include <pthread.h>
#include <signal.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <unistd.h>

#include "selftest.h"

#define N 41 /* user packets: 0 alone, then 1..40 with one doorbell ring */

typedef struct {
  atomic_int hold, running, ran;
  int order[N]; /* user index of each dispatch, in the order the device ran them */
} full_device;

static hsa_double_outcome run_marked(void *ctx, hsa_agent_t agent, const hsa_kernel_dispatch_packet_t *p) {
  (void)agent;
  full_device *d = ctx;
  atomic_fetch_add(&d->running, 1);
  while (atomic_load(&d->hold)) usleep(200);
  int k = atomic_fetch_add(&d->ran, 1);
  if (k < N) d->order[k] = (int)(uintptr_t)p->kernarg_address - 1;
  return HSA_DOUBLE_COMPLETE;
}

/* The first BARRIER_AND with a completion signal the hardware queue took
 * (the handler's own barriers have none). */
typedef struct {
  int barriers;
  uint64_t barrier_index;
  hsa_barrier_and_packet_t barrier;
} observed;

static void observe(void *ctx, hsa_agent_t agent, const hsa_queue_t *queue, uint64_t index, const void *packet) {
  (void)agent, (void)queue;
  observed *o = ctx;
  hsa_barrier_and_packet_t b;
  memcpy(&b, packet, sizeof b);
  if (((b.header >> HSA_PACKET_HEADER_TYPE) & 0xff) != HSA_PACKET_TYPE_BARRIER_AND || !b.completion_signal.handle)
    return;
  if (o->barriers++ == 0) {
    o->barrier_index = index;
    o->barrier = b;
  }
}

static unsigned long g_handler_thread[N];

/* Each user packet becomes two: a no-op barrier, then the packet. */
static void expand(const void *pkts, uint64_t count, uint64_t user_index, void *data, hsa_double_packet_writer w) {
  (void)data, (void)count;
  if (user_index < N) g_handler_thread[user_index] = (unsigned long)pthread_self();
  hsa_barrier_and_packet_t two[2];
  memset(&two[0], 0, sizeof two[0]);
  two[0].header = HSA_PACKET_TYPE_BARRIER_AND << HSA_PACKET_HEADER_TYPE;
  memcpy(&two[1], pkts, sizeof two[1]);
  w(two, 2);
}

/* Writes a packet into q without ringing its doorbell; returns its index. */
static uint64_t write_only(hsa_queue_t *q, const void *packet) {
  uint64_t index = hsa_queue_add_write_index_screlease(q, 1);
  uint8_t *slot = (uint8_t *)q->base_address + (index % q->size) * 64;
  memcpy(slot + 2, (const uint8_t *)packet + 2, 62);
  __atomic_store_n((uint16_t *)slot, *(const uint16_t *)packet, __ATOMIC_RELEASE);
  return index;
}

/* The GPU holds user packet 0; 40 more arrive with one doorbell ring. Two
 * hardware slots each: 1..31 fit (hardware 2..63), 32 does not, so ROCr puts
 * its retry barrier at 64 and 32 waits. 5.x goes on with 33..40 in the same
 * call (all waiting behind 32); 6.0+ stops after 32 and does 33..40 on the
 * async thread once the barrier completed. Nothing overtakes. */
static void full_ring(void) {
  agent_list l = agents();
  full_device d;
  memset(&d, 0, sizeof d);
  atomic_store(&d.hold, 1);
  observed o;
  memset(&o, 0, sizeof o);
  memset(g_handler_thread, 0, sizeof g_handler_thread);
  hsa_double_set_device(run_marked, &d);
  hsa_double_set_packet_observer(observe, &o);
  hsa_queue_t *q = NULL;
  CHECK_OK(hsa_double_queue_intercept_create(l.gpu[0], 64, HSA_QUEUE_TYPE_MULTI, NULL, NULL, 0, 0, &q));
  if (!q) return;
  CHECK_OK(hsa_double_queue_intercept_register(q, expand, NULL));
  hsa_signal_t done;
  CHECK_OK(hsa_signal_create(N, 0, NULL, &done));
  hsa_kernel_dispatch_packet_t p = dispatch_packet(0xdead000, (void *)(uintptr_t)1, done);
  submit(q, &p);
  CHECK_EQ(wait_flag(&d.running, 1), 1);
  uint64_t last = 0;
  for (int i = 1; i < N; i++) {
    p.kernarg_address = (void *)(uintptr_t)(i + 1);
    last = write_only(q, &p);
  }
  hsa_signal_store_screlease(q->doorbell_signal, (hsa_signal_value_t)last);
  unsigned long self = (unsigned long)pthread_self();
  int v6 = release_at_least("6.0");
  CHECK_EQ(hsa_queue_load_read_index_scacquire(q), v6 ? 33 : N);
  for (int i = 0; i < (v6 ? 33 : N); i++) CHECK_EQ(g_handler_thread[i], self);
  CHECK_EQ(atomic_load(&d.ran), 0);
  atomic_store(&d.hold, 0);
  CHECK_EQ(hsa_signal_wait_scacquire(done, HSA_SIGNAL_CONDITION_EQ, 0, ST_TIMEOUT, HSA_WAIT_STATE_BLOCKED), 0);
  CHECK_EQ(atomic_load(&d.ran), N);
  for (int i = 0; i < N; i++) CHECK_EQ(d.order[i], i);
  unsigned long async = async_thread();
  if (v6)
    for (int i = 33; i < N; i++) CHECK_EQ(g_handler_thread[i], async); /* processed after the barrier */
  /* ROCr's packet: BARRIER_AND, barrier bit, no fences, no dependencies, its own completion signal. */
  CHECK_EQ(o.barriers, 1);
  CHECK_EQ(o.barrier_index, 64);
  uint16_t h = o.barrier.header;
  CHECK_EQ((h >> HSA_PACKET_HEADER_TYPE) & 0xff, HSA_PACKET_TYPE_BARRIER_AND);
  CHECK_EQ((h >> HSA_PACKET_HEADER_BARRIER) & 1, 1);
  CHECK_EQ((h >> HSA_PACKET_HEADER_SCACQUIRE_FENCE_SCOPE) & 3, HSA_FENCE_SCOPE_NONE);
  CHECK_EQ((h >> HSA_PACKET_HEADER_SCRELEASE_FENCE_SCOPE) & 3, HSA_FENCE_SCOPE_NONE);
  for (int i = 0; i < 5; i++) CHECK_EQ(o.barrier.dep_signal[i].handle, 0);
  CHECK(o.barrier.completion_signal.handle != done.handle);
  CHECK_OK(hsa_queue_destroy(q));
  CHECK_OK(hsa_signal_destroy(done));
  hsa_double_set_packet_observer(NULL, NULL);
  hsa_double_set_device(NULL, NULL);
}

/* ---- a doorbell rung from inside a handler ---------------------------------------------- */

typedef struct {
  hsa_queue_t *other;
  atomic_int inner_calls;
  unsigned long inner_thread;
} nested;

static nested g_nested;

static void inner(const void *pkts, uint64_t count, uint64_t user_index, void *data, hsa_double_packet_writer w) {
  (void)user_index, (void)data;
  g_nested.inner_thread = (unsigned long)pthread_self();
  atomic_fetch_add(&g_nested.inner_calls, 1);
  w(pkts, count);
}

static void outer(const void *pkts, uint64_t count, uint64_t user_index, void *data, hsa_double_packet_writer w) {
  (void)user_index, (void)data;
  submit(g_nested.other, pkts); /* rings the other intercept queue's doorbell */
  w(pkts, count);
}

static void nested_doorbell(void) {
  agent_list l = agents();
  memset(&g_nested, 0, sizeof g_nested);
  hsa_queue_t *a = NULL, *b = NULL;
  CHECK_OK(hsa_double_queue_intercept_create(l.gpu[0], 64, HSA_QUEUE_TYPE_MULTI, NULL, NULL, 0, 0, &a));
  CHECK_OK(hsa_double_queue_intercept_create(l.gpu[0], 64, HSA_QUEUE_TYPE_MULTI, NULL, NULL, 0, 0, &b));
  if (!a || !b) return;
  g_nested.other = b;
  CHECK_OK(hsa_double_queue_intercept_register(a, outer, NULL));
  CHECK_OK(hsa_double_queue_intercept_register(b, inner, NULL));
  hsa_signal_t done;
  CHECK_OK(hsa_signal_create(2, 0, NULL, &done));
  hsa_kernel_dispatch_packet_t p = dispatch_packet(0xdead000, NULL, done);
  submit(a, &p);
  CHECK_EQ(hsa_signal_wait_scacquire(done, HSA_SIGNAL_CONDITION_EQ, 0, ST_TIMEOUT, HSA_WAIT_STATE_BLOCKED), 0);
  CHECK_EQ(atomic_load(&g_nested.inner_calls), 1);
  CHECK_EQ(g_nested.inner_thread, async_thread()); /* "If called recursively defer to async doorbell thread." */
  CHECK_OK(hsa_queue_destroy(a));
  CHECK_OK(hsa_queue_destroy(b));
  CHECK_OK(hsa_signal_destroy(done));
}

/* ---- the packet writer, twice from one handler -------------------------------------------- */

static void twice(const void *pkts, uint64_t count, uint64_t user_index, void *data, hsa_double_packet_writer w) {
  (void)user_index, (void)data;
  w(pkts, count);
  w(pkts, count);
}

/* Returns after both copies ran (6.0+); in 5.x ROCr's PacketWriter runs off its
 * interceptor list, and the double stops the process with a message. */
static void writer_twice(void) {
  agent_list l = agents();
  hsa_queue_t *q = NULL;
  CHECK_OK(hsa_double_queue_intercept_create(l.gpu[0], 64, HSA_QUEUE_TYPE_MULTI, NULL, NULL, 0, 0, &q));
  if (!q) return;
  CHECK_OK(hsa_double_queue_intercept_register(q, twice, NULL));
  hsa_signal_t done;
  CHECK_OK(hsa_signal_create(2, 0, NULL, &done));
  hsa_kernel_dispatch_packet_t p = dispatch_packet(0xdead000, NULL, done);
  submit(q, &p);
  CHECK_EQ(hsa_signal_wait_scacquire(done, HSA_SIGNAL_CONDITION_EQ, 0, ST_TIMEOUT, HSA_WAIT_STATE_BLOCKED), 0);
  CHECK_OK(hsa_queue_destroy(q));
  CHECK_OK(hsa_signal_destroy(done));
}

int intercept_child(const char *name) {
  if (strcmp(name, "writer-twice-5.2")) return -1;
  setenv("HSA_DOUBLE_AGENTS", "gfx90a:xnack+", 1);
  setenv("HSA_DOUBLE_ROCM", "5.2", 1);
  if (hsa_init() != HSA_STATUS_SUCCESS) return 3;
  writer_twice();
  fprintf(stderr, "child: returned\n");
  hsa_shut_down();
  return 0;
}

void phase_intercept_releases(void) {
  setenv("HSA_DOUBLE_AGENTS", "gfx90a:xnack+", 1);
  const char *rels[] = {"5.2", "5.7", "6.0", "6.2.1", "7"};
  for (int i = 0; i < 5; i++) {
    setenv("HSA_DOUBLE_ROCM", rels[i], 1);
    CHECK_OK(hsa_init());
    /* 6.0+ refuses size < 3 first; 5.x asks the agent first. */
    hsa_queue_t *q = NULL;
    CHECK_HSA(hsa_double_queue_intercept_create((hsa_agent_t){12345}, 2, HSA_QUEUE_TYPE_MULTI, NULL, NULL, 0, 0, &q),
              release_at_least("6.0") ? HSA_STATUS_ERROR_INVALID_ARGUMENT : HSA_STATUS_ERROR_INVALID_AGENT);
    full_ring();
    nested_doorbell();
    if (release_at_least("6.0")) writer_twice();
    CHECK_OK(hsa_shut_down());
  }
  unsetenv("HSA_DOUBLE_ROCM");
  char out[4096];
  int st = run_child("writer-twice-5.2", out, sizeof out);
  CHECK(WIFSIGNALED(st) && WTERMSIG(st) == SIGABRT);
  CHECK_HAS(out, "called the packet writer once too often");
}
