/* ldsan HSA tools library: the thread that does ldsan's slow work off the
 * runtime's threads. ROCr runs every hsa_amd_signal_async_handler handler and
 * every queue error callback of the process on one async events thread, one
 * after another (ROCr core/runtime/runtime.cpp Runtime::AsyncEventsLoop, ROCm
 * 5.2-6.2.0; from 6.2.1 memory faults have a second thread): a handler that
 * drains and symbolizes for seconds would hold up all of them, the HIP
 * runtime's own included. Handlers post a job here and return. Jobs run in the
 * order posted, on one thread started at the first job and stopped (joined) at
 * OnUnload: ROCr dlcloses its tools right after (Runtime::CloseTools), and a
 * thread left running in an unmapped library would crash the process.
 * Threading: the job list has a lock; a job's node is part of the job's own
 * record (no allocation on the handler's path). */
#define _GNU_SOURCE
#include <pthread.h>

#include "hsa_tool.h"

static pthread_mutex_t mu = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t wake = PTHREAD_COND_INITIALIZER, idle = PTHREAD_COND_INITIALIZER;
static ldsan_hsa_job *head, **tail = &head;
static int started, busy, stopping;
static pthread_t worker;

static void *worker_main(void *arg) {
  (void)arg;
  pthread_mutex_lock(&mu);
  for (;;) {
    while (!head && !stopping) {
      pthread_cond_broadcast(&idle);
      pthread_cond_wait(&wake, &mu);
    }
    if (!head) break;  /* stopping, and nothing left */
    ldsan_hsa_job *job = head;
    head = job->next;
    if (!head) tail = &head;
    busy = 1;
    pthread_mutex_unlock(&mu);
    job->run(job);  /* may end the process (a report that stops the program) */
    pthread_mutex_lock(&mu);
    busy = 0;
  }
  pthread_cond_broadcast(&idle);
  pthread_mutex_unlock(&mu);
  return NULL;
}

/* In a forked child the worker does not exist: start afresh. */
static void after_fork_child(void) {
  pthread_mutex_init(&mu, NULL);
  head = NULL;
  tail = &head;
  started = busy = stopping = 0;
}

static void start_locked(void) {
  if (pthread_create(&worker, NULL, worker_main, NULL) == 0) {
    started = 1;
    static int at_fork;
    if (!at_fork) at_fork = !pthread_atfork(NULL, NULL, after_fork_child);
  }
}

void ldsan_hsa_worker_post(ldsan_hsa_job *job) {
  pthread_mutex_lock(&mu);
  if (!started) start_locked();
  if (!started) {  /* no thread: do the work here, late rather than never */
    pthread_mutex_unlock(&mu);
    job->run(job);
    return;
  }
  job->next = NULL;
  *tail = job;
  tail = &job->next;
  pthread_cond_signal(&wake);
  pthread_mutex_unlock(&mu);
}

void ldsan_hsa_worker_flush(void) {
  pthread_mutex_lock(&mu);
  while (started && (head || busy)) pthread_cond_wait(&idle, &mu);
  pthread_mutex_unlock(&mu);
}

void ldsan_hsa_worker_stop(void) {
  pthread_mutex_lock(&mu);
  if (!started) {
    pthread_mutex_unlock(&mu);
    return;
  }
  stopping = 1;
  pthread_cond_signal(&wake);
  pthread_mutex_unlock(&mu);
  pthread_join(worker, NULL);  /* it runs what is left first */
  pthread_mutex_lock(&mu);
  started = stopping = 0;
  pthread_mutex_unlock(&mu);
}
