/* ldsan emulator core: what this thread is running. ldsan_emu_self is the
 * worker (NULL outside the worker pool); __ldsan_emu_tls the running
 * work-item's ids and tracking state, read by retargeted device code
 * (include/ldsan/emu/emu_tls.h). Set by the scheduler (core_sched.c), read by
 * the LDS checks and the watchdog: defined here, below all of them. */
#include "core_internal.h"

__thread ldsan_emu_tls_state __ldsan_emu_tls __attribute__((tls_model("initial-exec")));
__thread emu_worker *ldsan_emu_self;
