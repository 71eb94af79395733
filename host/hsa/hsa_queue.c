/* ldsan HSA tools library: dispatches and queue errors. Every queue the
 * program creates is made an intercept queue (hsa_amd_queue_intercept_create,
 * the runtime's interface for tools), so ldsan sees each AQL packet before the
 * GPU does. A kernel dispatch of a watched code object gets an ldsan signal as
 * its completion signal; when the GPU completes it, a runtime signal handler
 * prints the dispatch's reports (through the host library, which ends the
 * process if one stops it) and only then completes the program's own signal:
 * the program never sees the dispatch finish before its reports are out.
 * The queue's error callback is wrapped the same way: on a trap ldsan's reports
 * come first, and the runtime's abort only if ldsan had nothing to say.
 * Threading: submit runs on the submitting thread, handlers and error callbacks
 * on the runtime's threads; the free list of completion signals has a lock. */
#define _GNU_SOURCE
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hsa_tool.h"

#define PACKET_BYTES 64u
#define SUBMIT_BATCH 64u  /* packets rewritten per writer call */

/* One queue the program created. Kept for the process's life (the runtime may
 * call the error callback until the queue is destroyed). */
typedef struct ldsan_queue {
  struct ldsan_queue *next;
  ldsan_hsa_queue_error_cb user_callback;
  void *user_data;
  ldsan_hsa_agent *agent;  /* NULL: not a GPU agent ldsan knows */
} ldsan_queue;

/* One watched dispatch in flight: ldsan's completion signal and the program's. */
typedef struct tracked {
  struct tracked *next_free;
  hsa_signal_t ours, program;
  ldsan_image *image;
  ldsan_dispatch_info info;
  char kernel[256];
  uint64_t launch[LDSAN_MAX_LAUNCH_FRAMES];  /* the submitting thread's stack */
} tracked;

static pthread_mutex_t mu = PTHREAD_MUTEX_INITIALIZER;
static ldsan_queue *queues;
static tracked *free_list;

static tracked *tracked_get(void) {
  pthread_mutex_lock(&mu);
  tracked *t = free_list;
  if (t) free_list = t->next_free;
  pthread_mutex_unlock(&mu);
  if (t) {
    ldsan_hsa.signal_store_relaxed(t->ours, 1);
    return t;
  }
  t = calloc(1, sizeof *t);
  if (t && ldsan_hsa.signal_create(1, 0, NULL, &t->ours) != HSA_STATUS_SUCCESS) {
    free(t);
    t = NULL;
  }
  return t;
}

static void tracked_put(tracked *t) {
  pthread_mutex_lock(&mu);
  t->next_free = free_list;
  free_list = t;
  pthread_mutex_unlock(&mu);
}

/* Runs on the runtime's signal thread once the GPU completed the dispatch. */
static bool dispatch_completed(hsa_signal_value_t value, void *arg) {
  (void)value;
  tracked *t = arg;
  ldsan_host_dispatch_done(t->image, &t->info);  /* does not return if a report stops the program */
  if (t->program.handle) ldsan_hsa.signal_subtract_screlease(t->program, 1);
  tracked_put(t);
  return false;  /* one-shot: the signal goes back to the free list */
}

static uint32_t groups(uint32_t items, uint16_t per_group) {
  return per_group ? (items + per_group - 1u) / per_group : 0u;
}

/* Points a watched dispatch's completion at an ldsan signal; leaves others alone. */
static void watch_dispatch(hsa_kernel_dispatch_packet_t *p) {
  uint16_t type = (uint16_t)((p->header >> HSA_PACKET_HEADER_TYPE) & ((1u << HSA_PACKET_HEADER_WIDTH_TYPE) - 1u));
  if (type != HSA_PACKET_TYPE_KERNEL_DISPATCH) return;
  ldsan_hsa_kernel k;
  tracked *t;
  char name[256];
  if (ldsan_hsa_find_kernel(p->kernel_object, &k, name, sizeof name) != 0 || !(t = tracked_get())) return;
  t->image = k.image;
  snprintf(t->kernel, sizeof t->kernel, "%s", name);
  memset(&t->info, 0, sizeof t->info);
  t->info.kernel_name = t->kernel;
  uint32_t grid[3] = {p->grid_size_x, p->grid_size_y, p->grid_size_z};
  uint16_t wg[3] = {p->workgroup_size_x, p->workgroup_size_y, p->workgroup_size_z};
  for (int i = 0; i < 3; i++) {
    t->info.grid_size[i] = groups(grid[i], wg[i]);
    t->info.block_size[i] = wg[i];
  }
  /* The records this dispatch writes carry its implicit-argument pointer,
   * which lies inside its kernel-argument segment. */
  if (k.kernarg_size) {  /* unknown size: every record (0, 0) */
    t->info.args_begin = (uint64_t)(uintptr_t)p->kernarg_address;
    t->info.args_end = t->info.args_begin + k.kernarg_size;
  }
  /* The intercept handler runs on the thread that rings the doorbell: with the
   * HIP runtime's direct dispatch, the thread that launched the kernel. */
  t->info.launch_depth = ldsan_host_launch_stack(t->launch, LDSAN_MAX_LAUNCH_FRAMES);
  t->info.launch_pcs = t->launch;
  t->program = p->completion_signal;
  if (ldsan_hsa.amd_signal_async_handler(t->ours, HSA_SIGNAL_CONDITION_LT, 1, dispatch_completed, t) !=
      HSA_STATUS_SUCCESS) {
    tracked_put(t);
    return;
  }
  p->completion_signal = t->ours;
}

/* The intercept handler: rewrites watched dispatches, passes every packet on. */
static void on_submit(const void *packets, uint64_t count, uint64_t user_index, void *data,
                      ldsan_hsa_packet_writer writer) {
  (void)user_index;
  (void)data;
  hsa_kernel_dispatch_packet_t batch[SUBMIT_BATCH];
  const unsigned char *in = packets;
  for (uint64_t done = 0; done < count;) {
    uint64_t n = count - done < SUBMIT_BATCH ? count - done : SUBMIT_BATCH;
    memcpy(batch, in + done * PACKET_BYTES, n * PACKET_BYTES);
    for (uint64_t i = 0; i < n; i++) watch_dispatch(&batch[i]);
    writer(batch, n);
    done += n;
  }
}

/* The queue's error callback: ldsan's reports first; the program's callback
 * (the HIP runtime's abort) only if ldsan had nothing that stops the program. */
static void queue_error(hsa_status_t status, hsa_queue_t *source, void *data) {
  ldsan_queue *q = data;
  if (q->agent) ldsan_host_device_error(&q->agent->backend);
  if (q->user_callback) q->user_callback(status, source, q->user_data);
}

hsa_status_t ldsan_hsa_queue_create(hsa_agent_t agent, uint32_t size, hsa_queue_type32_t type,
                                    ldsan_hsa_queue_error_cb callback, void *data, uint32_t private_segment_size,
                                    uint32_t group_segment_size, hsa_queue_t **queue) {
  ldsan_queue *q = calloc(1, sizeof *q);
  if (!q) return ldsan_hsa.queue_create(agent, size, type, callback, data, private_segment_size,
                                        group_segment_size, queue);
  q->user_callback = callback;
  q->user_data = data;
  q->agent = ldsan_hsa_agent_of(agent);
  hsa_status_t st = HSA_STATUS_ERROR;
  if (q->agent && ldsan_hsa.amd_queue_intercept_create && ldsan_hsa.amd_queue_intercept_register) {
    st = ldsan_hsa.amd_queue_intercept_create(agent, size, type, queue_error, q, private_segment_size,
                                              group_segment_size, queue);
    if (st == HSA_STATUS_SUCCESS && ldsan_hsa.amd_queue_intercept_register(*queue, on_submit, q) != HSA_STATUS_SUCCESS)
      fprintf(stderr, "ldsan: warning: cannot watch dispatches on a queue of GPU agent %d (%s): its LDS reports "
              "are printed only when the queue stops or the program exits\n", q->agent->index, q->agent->name);
  }
  /* Not a GPU agent ldsan knows, or no intercept queues: a plain queue, errors still wrapped. */
  if (st != HSA_STATUS_SUCCESS)
    st = ldsan_hsa.queue_create(agent, size, type, queue_error, q, private_segment_size, group_segment_size, queue);
  if (st != HSA_STATUS_SUCCESS) {
    free(q);
    return st;
  }
  pthread_mutex_lock(&mu);
  q->next = queues;
  queues = q;
  pthread_mutex_unlock(&mu);
  return st;
}

void ldsan_hsa_queues_release(void) {
  pthread_mutex_lock(&mu);
  while (queues) {
    ldsan_queue *q = queues;
    queues = q->next;
    free(q);
  }
  while (free_list) {
    tracked *t = free_list;
    free_list = t->next_free;
    ldsan_hsa.signal_destroy(t->ours);
    free(t);
  }
  pthread_mutex_unlock(&mu);
}
