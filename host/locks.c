/* ldsan host library: its locks, and fork() while another thread holds one.
 * Three locks, always nested in this order: the code objects (images.c's
 * registry), the reports (one drain or report printed at a time: drain.c,
 * report.c) and the LDS stores (images.c). They live here, below the files
 * that take them, so that no file reaches back into the one that drives it.
 * The child of fork() has only the thread that called it, so a lock another
 * thread held then would stay held for ever in the child, and the child's
 * first report, or its first code object, would wait for ever. Around fork()
 * the forking thread takes the three locks itself, in their order, and gives
 * them back in the parent and in the child (the symbolizer has its own
 * handlers, symbolize.c). Registered once, with the first code object. */
#include <pthread.h>

#include "internal.h"

static pthread_mutex_t images_mu = PTHREAD_MUTEX_INITIALIZER;
static pthread_mutex_t report_mu = PTHREAD_MUTEX_INITIALIZER;
static pthread_mutex_t stores_mu = PTHREAD_MUTEX_INITIALIZER;

void ldsan_images_lock(void) { pthread_mutex_lock(&images_mu); }
void ldsan_images_unlock(void) { pthread_mutex_unlock(&images_mu); }
void ldsan_report_lock(void) { pthread_mutex_lock(&report_mu); }
void ldsan_report_unlock(void) { pthread_mutex_unlock(&report_mu); }
void ldsan_stores_lock(void) { pthread_mutex_lock(&stores_mu); }
void ldsan_stores_unlock(void) { pthread_mutex_unlock(&stores_mu); }

static void prepare(void) {
  ldsan_images_lock();
  ldsan_report_lock();
  ldsan_stores_lock();
}

static void release(void) {
  ldsan_stores_unlock();
  ldsan_report_unlock();
  ldsan_images_unlock();
}

static pthread_once_t once = PTHREAD_ONCE_INIT;
static void install(void) { (void)pthread_atfork(prepare, release, release); }

void ldsan_host_fork_safe(void) { pthread_once(&once, install); }
