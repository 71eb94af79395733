/* hsa_double/selftest/intercept.c — intercept queues (the tools-only
 * hsa_amd_queue_intercept_create/_register, reached through hsa_double.h):
 * handler order, rewriting, and a full hardware ring. */
#define _GNU_SOURCE
#include <unistd.h>

#include "selftest.h"

typedef struct {
  int order[8], n;
  uint64_t user_index;
  hsa_signal_t replacement;
} intercept_state;

static intercept_state g_icpt;

static void icpt_first(const void *pkts, uint64_t count, uint64_t user_index, void *data, hsa_double_packet_writer w) {
  (void)user_index, (void)data;
  if (g_icpt.n < 8) g_icpt.order[g_icpt.n++] = 1;
  w(pkts, count);
}

static void icpt_second(const void *pkts, uint64_t count, uint64_t user_index, void *data, hsa_double_packet_writer w) {
  (void)data;
  if (g_icpt.n < 8) g_icpt.order[g_icpt.n++] = 2;
  g_icpt.user_index = user_index;
  hsa_kernel_dispatch_packet_t copy;
  memcpy(&copy, pkts, sizeof copy);
  copy.completion_signal = g_icpt.replacement;
  w(&copy, count);
}

void test_intercept(void) {
  agent_list l = agents();
  hsa_queue_t *q = NULL;
  CHECK_HSA(hsa_double_queue_intercept_create(l.gpu[0], 2, HSA_QUEUE_TYPE_MULTI, NULL, NULL, 0, 0, &q),
            HSA_STATUS_ERROR_INVALID_ARGUMENT);
  CHECK_OK(hsa_double_queue_intercept_create(l.gpu[0], 64, HSA_QUEUE_TYPE_MULTI, NULL, NULL, 0, 0, &q));
  if (!q) return;
  memset(&g_icpt, 0, sizeof g_icpt);
  CHECK_OK(hsa_double_queue_intercept_register(q, icpt_first, NULL));
  CHECK_OK(hsa_double_queue_intercept_register(q, icpt_second, NULL));
  hsa_signal_t done, replacement;
  CHECK_OK(hsa_signal_create(1, 0, NULL, &done));
  CHECK_OK(hsa_signal_create(1, 0, NULL, &replacement));
  g_icpt.replacement = replacement;
  args a = make_args(2);
  hsa_kernel_dispatch_packet_t p = dispatch_packet(g_kernel_object, a.kernarg, done);
  submit(q, &p);
  submit(q, &p);
  /* Handlers ran in this thread, last registered first, once per packet. */
  CHECK_EQ(g_icpt.n, 4);
  CHECK_EQ(g_icpt.order[0], 2);
  CHECK_EQ(g_icpt.order[1], 1);
  CHECK_EQ(g_icpt.user_index, 1);
  CHECK_EQ(hsa_queue_load_read_index_scacquire(q), 2);
  CHECK_EQ(hsa_signal_wait_scacquire(replacement, HSA_SIGNAL_CONDITION_EQ, -1, ST_TIMEOUT, HSA_WAIT_STATE_BLOCKED), -1);
  CHECK_EQ(hsa_signal_load_relaxed(done), 1);
  CHECK_HSA(hsa_double_queue_intercept_register(q, NULL, NULL), HSA_STATUS_ERROR_INVALID_ARGUMENT);
  CHECK_OK(hsa_queue_destroy(q));
  CHECK_OK(hsa_signal_destroy(done));
  CHECK_OK(hsa_signal_destroy(replacement));
  free_args(a);
}
