/* ldsan HSA tools library: dispatches and queue errors. Every queue the
 * program creates is made an intercept queue (hsa_amd_queue_intercept_create,
 * the runtime's interface for tools), so ldsan sees each AQL packet before the
 * GPU does. A kernel dispatch of a watched code object gets two changes:
 *  - an ldsan signal as its completion signal: when the GPU completes it, a
 *    runtime signal handler hands the dispatch to ldsan's worker thread
 *    (hsa_worker.c), which prints its reports (through the host library, which
 *    ends the process if one stops it), copies the dispatch's timestamps into
 *    the program's signal and only then completes it;
 *  - right after it, a barrier-AND packet that waits on an ldsan "gate" signal
 *    the worker opens after the reports: every later packet of the queue
 *    waits for it. The HIP runtime puts no completion signal on its kernel
 *    packets (CLR VirtualGPU::dispatchGenericAqlPacket, ROCm 5.2-7.x, unless the
 *    dispatch is profiled); hipStreamSynchronize, hipDeviceSynchronize and
 *    events wait on a barrier or marker packet after the kernel instead
 *    (VirtualGPU::dispatchBarrierPacket), which the GPU completes as soon as
 *    the kernel ends. With the gate, that packet completes after ldsan's
 *    reports, whatever the program waits on.
 * The queue's error callback is wrapped the same way: on a trap ldsan's reports
 * come first, and the runtime's abort only if ldsan had nothing to say.
 * Cooperative queues are left alone: ROCr hands every caller one shared queue
 * and never calls their callbacks (GpuAgent::QueueCreate); their reports come
 * out at exit, on a trap's abort (hsa_abort.c) or at the next drain.
 * Threading: submit runs on the submitting thread, handlers and error callbacks
 * on the runtime's threads; the free list of dispatch records has a lock. */
#define _GNU_SOURCE
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <hsa/amd_hsa_signal.h>

#include "hsa_tool.h"

#define PACKET_BYTES 64u
#define SUBMIT_BATCH 32u  /* packets read per writer call (each may become two) */

/* One queue the program created. Kept for the process's life (the runtime may
 * call the error callback until the queue is destroyed). */
typedef struct ldsan_queue {
  struct ldsan_queue *next;
  ldsan_hsa_queue_error_cb user_callback;
  void *user_data;
  ldsan_hsa_agent *agent;  /* NULL: not a GPU agent ldsan knows */
} ldsan_queue;

/* One watched dispatch in flight: ldsan's completion signal, the gate the
 * barrier after it waits on, and the program's completion signal (0: none). */
typedef struct tracked {
  ldsan_hsa_job job;  /* first: the worker's job is the record */
  struct tracked *next_free;
  hsa_signal_t ours, gate, program;
  ldsan_image *image;
  ldsan_dispatch_info info;
  char kernel[256];
  uint64_t launch[LDSAN_MAX_LAUNCH_FRAMES];  /* the submitting thread's stack */
} tracked;

static pthread_mutex_t mu = PTHREAD_MUTEX_INITIALIZER;
static ldsan_queue *queues;
static tracked *free_list;

/* ours counts down twice: the dispatch completes it from 2 to 1 (its handler
 * then posts the worker's job), the gate barrier from 1 to 0. A record is free
 * for another dispatch only then: a barrier still waiting on its gate must not
 * see the gate closed again. */
static tracked *tracked_get(void) {
  pthread_mutex_lock(&mu);
  tracked **p = &free_list;
  while (*p && ldsan_hsa.signal_load_relaxed((*p)->ours) != 0) p = &(*p)->next_free;
  tracked *t = *p;
  if (t) *p = t->next_free;
  pthread_mutex_unlock(&mu);
  if (t) {
    ldsan_hsa.signal_store_relaxed(t->ours, 2);
    ldsan_hsa.signal_store_relaxed(t->gate, 1);
    return t;
  }
  t = calloc(1, sizeof *t);
  if (!t) return NULL;
  if (ldsan_hsa.signal_create(2, 0, NULL, &t->ours) != HSA_STATUS_SUCCESS) {
    free(t);
    return NULL;
  }
  if (ldsan_hsa.signal_create(1, 0, NULL, &t->gate) != HSA_STATUS_SUCCESS) {
    ldsan_hsa.signal_destroy(t->ours);
    free(t);
    return NULL;
  }
  return t;
}

static void tracked_put(tracked *t) {
  pthread_mutex_lock(&mu);
  t->next_free = free_list;
  free_list = t;
  pthread_mutex_unlock(&mu);
}

/* The worker's job for one dispatch the GPU completed: its reports, then what
 * the program sees of its completion. */
static void dispatch_finish(ldsan_hsa_job *job) {
  tracked *t = (tracked *)job;
  ldsan_host_dispatch_done(t->image, &t->info);  /* does not return if a report stops the program */
  if (t->program.handle) {
    /* The command processor wrote the dispatch's timestamps into ldsan's signal,
     * where the program (hipEventElapsedTime, a profiler) would read them from
     * its own: hsa_amd_profiling_get_dispatch_time reads start_ts and end_ts of
     * the signal it is given (ROCr hsa_ext_amd.cpp, amd_hsa_signal.h). */
    const amd_signal_t *from = (const amd_signal_t *)(uintptr_t)t->ours.handle;
    amd_signal_t *to = (amd_signal_t *)(uintptr_t)t->program.handle;
    to->start_ts = from->start_ts;
    to->end_ts = from->end_ts;
    ldsan_hsa.signal_subtract_screlease(t->program, 1);
  }
  ldsan_hsa.signal_store_screlease(t->gate, 0);  /* the queue goes on */
  tracked_put(t);
}

/* Runs on the runtime's async events thread once the GPU completed the
 * dispatch: hands it to ldsan's worker (hsa_worker.c). */
static bool dispatch_completed(hsa_signal_value_t value, void *arg) {
  (void)value;
  tracked *t = arg;
  t->job.run = dispatch_finish;
  ldsan_hsa_worker_post(&t->job);
  return false;  /* one-shot: the signal goes back to the free list */
}

static uint32_t groups(uint32_t items, uint16_t per_group) {
  return per_group ? (items + per_group - 1u) / per_group : 0u;
}

/* The barrier-AND packet after a watched dispatch: it waits for the dispatch
 * (barrier bit) and for the gate, and makes every later packet wait for it;
 * its completion takes the record's signal to 0 (tracked_get). */
static void gate_packet(hsa_barrier_and_packet_t *b, const tracked *t) {
  memset(b, 0, sizeof *b);
  b->dep_signal[0] = t->gate;
  b->completion_signal = t->ours;
  b->header = (uint16_t)((HSA_PACKET_TYPE_BARRIER_AND << HSA_PACKET_HEADER_TYPE) | (1u << HSA_PACKET_HEADER_BARRIER) |
                         (HSA_FENCE_SCOPE_NONE << HSA_PACKET_HEADER_SCACQUIRE_FENCE_SCOPE) |
                         (HSA_FENCE_SCOPE_NONE << HSA_PACKET_HEADER_SCRELEASE_FENCE_SCOPE));
}

/* Points a watched dispatch's completion at an ldsan signal and returns its
 * record, for the gate packet after it; leaves others alone (NULL). */
static tracked *watch_dispatch(hsa_kernel_dispatch_packet_t *p) {
  tracked *none = NULL;
  uint16_t type = (uint16_t)((p->header >> HSA_PACKET_HEADER_TYPE) & ((1u << HSA_PACKET_HEADER_WIDTH_TYPE) - 1u));
  if (type != HSA_PACKET_TYPE_KERNEL_DISPATCH) return none;
  ldsan_hsa_kernel k;
  tracked *t;
  char name[256];
  if (ldsan_hsa_find_kernel(p->kernel_object, &k, name, sizeof name) != 0 || !(t = tracked_get())) return none;
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
  /* Not put back on failure: its signals are not at 0, so it is never reused. */
  if (ldsan_hsa.amd_signal_async_handler(t->ours, HSA_SIGNAL_CONDITION_LT, 2, dispatch_completed, t) !=
      HSA_STATUS_SUCCESS)
    return none;
  p->completion_signal = t->ours;
  return t;
}

/* The intercept handler: rewrites watched dispatches, puts a gate after each,
 * passes every packet on in order. */
static void on_submit(const void *packets, uint64_t count, uint64_t user_index, void *data,
                      ldsan_hsa_packet_writer writer) {
  (void)user_index;
  (void)data;
  hsa_kernel_dispatch_packet_t batch[2 * SUBMIT_BATCH];
  const unsigned char *in = packets;
  for (uint64_t done = 0; done < count;) {
    uint64_t n = count - done < SUBMIT_BATCH ? count - done : SUBMIT_BATCH, out = 0;
    for (uint64_t i = 0; i < n; i++) {
      memcpy(&batch[out], in + (done + i) * PACKET_BYTES, PACKET_BYTES);
      const tracked *t = watch_dispatch(&batch[out++]);
      if (t) gate_packet((hsa_barrier_and_packet_t *)&batch[out++], t);
    }
    writer(batch, out);
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
  /* A cooperative queue is one queue ROCr shares between all its callers: it
   * must not be wrapped in an intercept queue (which would own and delete it),
   * and its error callback is ROCr's own in any case. */
  if (type == HSA_QUEUE_TYPE_COOPERATIVE) {
    free(q);
    return ldsan_hsa.queue_create(agent, size, type, callback, data, private_segment_size, group_segment_size, queue);
  }
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
  ldsan_hsa_worker_stop();
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
    ldsan_hsa.signal_destroy(t->gate);
    free(t);
  }
  pthread_mutex_unlock(&mu);
}
