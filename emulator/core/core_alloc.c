/* ldsan emulator core: the memory of the emulator's own state (the core's and
 * the HIP layer's tables, workers, fiber stacks, LDS windows, dispatches; not
 * the program's hipMalloc), and the one way the emulator gives up. Out of
 * memory there is no way on (a module constructor cannot fail, a launch has
 * no error for it): the emulator prints one line saying how many bytes it
 * could not have, for what, and what to do, and exits 1. A failure the
 * emulator can live with (ldsan_emu_try_alloc) returns NULL to the caller.
 *
 * Test-only: LDSAN_EMU_FAIL_ALLOC=<n> makes the n-th allocation through this
 * file fail as if memory had run out, after a line saying so on stderr
 * (test/emulator/alloc_failures.sh runs a program once per allocation of its
 * start-up). Not an ldsan option: read here, once, with getenv. */
#include <errno.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "core_internal.h"

void ldsan_emu_die(const char *fmt, ...) {
  char line[1024];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(line, sizeof line, fmt, ap);
  va_end(ap);
  fprintf(stderr, "ldsan-emu: fatal: %s\n", line);
  fflush(stdout);
  /* _exit: other threads may still run kernels, and exit handlers (the host
   * library's final drain, LeakSanitizer) would run beside them. */
  _exit(1);
}

static void emu_out_of_memory(size_t n, const char *what) {
  ldsan_emu_die("cannot allocate %zu bytes for %s: out of memory; free memory or raise the process's limit "
                "(ulimit -v, its cgroup's memory.max) and rerun", n, what);
}

/* ---- LDSAN_EMU_FAIL_ALLOC (test-only) ------------------------------------ */
static unsigned long fail_at;  /* 0: none */
static atomic_ulong allocations;

static void emu_read_fail_at(void) {
  const char *v = getenv("LDSAN_EMU_FAIL_ALLOC");
  char *end;
  if (!v || !*v) return;
  errno = 0;
  unsigned long n = strtoul(v, &end, 10);
  if (*end || errno || v[0] == '-') {
    fprintf(stderr, "ldsan-emu: warning: LDSAN_EMU_FAIL_ALLOC=%s is not a positive number; no allocation fails "
            "(this test-only variable takes the number of the allocation to fail, from 1)\n", v);
    return;
  }
  fail_at = n;
}

/* 1: this allocation (n bytes for what) is the one to fail. */
static int emu_injected_failure(size_t n, const char *what) {
  static pthread_once_t once = PTHREAD_ONCE_INIT;
  pthread_once(&once, emu_read_fail_at);
  if (!fail_at || atomic_fetch_add_explicit(&allocations, 1, memory_order_relaxed) + 1 != fail_at) return 0;
  fprintf(stderr, "ldsan-emu: test: LDSAN_EMU_FAIL_ALLOC=%lu fails this allocation (%zu bytes for %s)\n", fail_at,
          n, what);
  errno = ENOMEM;
  return 1;
}

/* ---- allocations --------------------------------------------------------- */
void *ldsan_emu_try_alloc(size_t n, size_t align, const char *what) {
  if (emu_injected_failure(n, what)) return NULL;
  if (align <= 16) return calloc(1, n ? n : 1); /* calloc: large sizes come as untouched zero pages */
  void *p = NULL;
  if (posix_memalign(&p, align, n ? n : 1) != 0) return NULL;
  memset(p, 0, n);
  return p;
}

void *ldsan_emu_xalloc(size_t n, size_t align, const char *what) {
  void *p = ldsan_emu_try_alloc(n, align, what);
  if (!p) emu_out_of_memory(n, what);
  return p;
}

void *ldsan_emu_xrealloc(void *p, size_t n, const char *what) {
  void *q = emu_injected_failure(n, what) ? NULL : realloc(p, n ? n : 1);
  if (!q) emu_out_of_memory(n, what);
  return q;
}

void *ldsan_emu_xmap(size_t n, const char *what) {
  void *p = emu_injected_failure(n, what)
                ? MAP_FAILED
                : mmap(NULL, n, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
  if (p == MAP_FAILED) emu_out_of_memory(n, what);
  return p;
}
