/* ldsan host library: whether what a drain (or one printed record) found
 * stops the program. The one place that decides it: the drain (drain.c) and
 * ldsan_host_print_record (report.c) ask ldsan_stop_decide and print
 * ldsan_stop_announce's ABORTING line; images.c acts on the drain's answer
 * (ldsan_host_die) and writes the device's share of the rule into each code
 * object's state (ldsan_stop_device_flags).
 *
 * compiler-rt: ScopedInErrorReport's constructor sets
 * halt_on_error_ = fatal || flags()->halt_on_error, `fatal` being true for the
 * checks built without -fsanitize-recover=address (__asan_report_load4, not
 * __asan_report_load4_noabort) and for deadly signals. Its destructor prints
 * the report, runs the report callback, and, if halt_on_error_, prints
 * "==PID==ABORTING" and calls Die() (only the first thread that reaches a
 * crash dies; the others return); otherwise it clears the error and returns.
 *
 * Ours, after the dispatch: the device records its reports and, under
 * LDSAN_STATE_HALT_ON_ERROR, traps on an error that is not recoverable
 * (device/report.c); the host prints them, and the program stops when
 *   1. the channel's header cannot be trusted (ABI version, capacity): always,
 *      whatever halt_on_error says: a kernel may have trapped with no
 *      readable report; or, under halt_on_error (default 1),
 *   2. a record is an error the device did not mark recoverable
 *      (LDSAN_ACCESS_NOABORT, ASan's _noabort) and not a warning
 *      (LDSAN_REPORT_WARNING: a hazard that works on the hardware); or
 *   3. no record is an error but some were lost (a writer stopped
 *      mid-record) or dropped (the channel was full): what stopped them may
 *      have been fatal.
 * Unlike ASan, halt_on_error=0 lets non-recoverable checks go on too (the
 * device does not trap then), and the stop comes at the drain, with every
 * report of the dispatch printed first. Dying is die.c's (ldsan_host_die:
 * once per process, the ABORTING line already printed under the report mutex). */
#define _POSIX_C_SOURCE 200809L
#include <unistd.h>

#include "internal.h"

void ldsan_stop_note(ldsan_stop_facts *f, const ldsan_report_record *r) {
  if (!ldsan_report_is_error(r)) return;
  f->errors++;
  if (!(r->flags & LDSAN_ACCESS_NOABORT)) f->fatal++;
}

int ldsan_stop_decide(const ldsan_stop_facts *f) {
  if (f->bad_channel) return 1;
  if (!ldsan_flags_get()->halt_on_error) return 0;
  return f->fatal || (!f->errors && (f->lost || f->dropped));
}

void ldsan_stop_announce(FILE *out) { fprintf(out, "==%ld==ABORTING\n", (long)getpid()); }

uint32_t ldsan_stop_device_flags(void) { return ldsan_flags_get()->halt_on_error ? LDSAN_STATE_HALT_ON_ERROR : 0; }
