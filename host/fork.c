/* ldsan host library: fork() while another thread holds one of its locks.
 * The child of fork() has only the thread that called it, so a lock another
 * thread held then would stay held for ever in the child, and the child's
 * first report, or its first code object, would wait for ever. Around fork()
 * the forking thread takes the library's locks itself, in the order the
 * library nests them (images, then reports, then LDS stores; the symbolizer
 * has its own handlers, symbolize.c), and gives them back in the parent and
 * in the child. Registered once, with the first code object (images.c). */
#include <pthread.h>

#include "internal.h"

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
