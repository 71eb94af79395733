/* ldsan host library: ending the process after a fatal report, as ASan's Die().
 * The first thread to claim death (drain.c claims it under the report mutex,
 * before it unlocks, so no other thread prints after the ABORTING line) flushes
 * the report stream and leaves with _exit: exit handlers and the runtime's own
 * teardown (kernels unregistered, queues destroyed) never run after a report.
 * Every other thread that reaches here blocks for good. Backends' cleanups
 * registered with ldsan_host_at_die run just before the end. */
#define _POSIX_C_SOURCE 200809L
#include <stdatomic.h>
#include <stdlib.h>
#include <unistd.h>

#include "internal.h"

static atomic_int dying;
static void (*_Atomic die_hooks[LDSAN_MAX_DIE_HOOKS])(void);

int ldsan_host_at_die(void (*fn)(void)) {
  for (int i = 0; i < LDSAN_MAX_DIE_HOOKS; i++) {
    void (*expected)(void) = NULL;
    if (atomic_load(&die_hooks[i]) == fn) return 0;
    if (atomic_compare_exchange_strong(&die_hooks[i], &expected, fn)) return 0;
  }
  return -1;
}
static _Thread_local int claimed_here;

int ldsan_die_claim(void) {
  if (claimed_here) return 1;
  int expected = 0;
  if (!atomic_compare_exchange_strong(&dying, &expected, 1)) return 0;
  claimed_here = 1;
  return 1;
}

int ldsan_dying_elsewhere(void) { return atomic_load(&dying) && !claimed_here; }

void ldsan_block_forever(void) {
  for (;;) pause();
}

void ldsan_host_die(void) {
  if (!ldsan_die_claim()) ldsan_block_forever();
  FILE *log = ldsan_log_stream();
  fflush(log);
  fflush(stdout);
  fflush(stderr);
  for (int i = 0; i < LDSAN_MAX_DIE_HOOKS; i++) {
    void (*fn)(void) = atomic_load(&die_hooks[i]);
    if (fn) fn();
  }
  if (ldsan_flags_get()->abort_on_error) abort();
  _exit(ldsan_host_exitcode());
}
