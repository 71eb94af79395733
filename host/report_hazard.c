/* ldsan host library: the LDS hazard reports of the CPU emulator's checks
 * (core_lds_check.c): lds-data-race (two work-items of one workgroup touch
 * a byte in one barrier interval, one of them writing), lds-uninitialized-read
 * (no work-item of the workgroup wrote the byte), and wave-sync-dependence (a
 * lane read what another lane of its wave wrote, with no barrier or wave
 * barrier between: works only in lockstep). Printed like a bounds report
 * (report.c's pieces), with the second access when there is one. */
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "report_ctx.h"

static void print_hazard_access(FILE *out, ldsan_decorator d, const report_ctx *c, const char *what) {
  const ldsan_report_record *r = c->r;
  fprintf(out, "%s%s%s of size %llu at 0x%llx by ", ldsan_deco_access(d), what,
          (r->flags & LDSAN_ACCESS_WRITE) ? "WRITE" : "READ", (unsigned long long)r->size,
          (unsigned long long)r->access_address);
  ldsan_report_ids(out, r);
  fprintf(out, "%s:\n", ldsan_deco_end(d));
  ldsan_report_frames(out, c);
}

/* The advice that ends each kind of report. */
static const char *hazard_hint(const char *bug, int same_wave) {
  if (!strcmp(bug, "lds-uninitialized-read"))
    return "HINT: no work-item of this workgroup wrote these bytes since its LDS block was taken; LDS starts with "
           "whatever the previous workgroup left. Write them first (check the halo and partial-tile cases), and "
           "put __syncthreads() between the writes and the reads.";
  if (same_wave)
    return "HINT: the two accesses are in one wave: a 64-lane GPU executes them in order, so this works there, "
           "but on wave32 GPUs (RDNA) lanes 0-31 and 32-63 are different waves, and a compiler may keep or reorder "
           "such accesses: put __syncthreads() between them, or exchange the value with __shfl. The results of "
           "this run are not changed.";
  return "HINT: nothing orders the two accesses: put __syncthreads() between them (or make both atomic).";
}

void ldsan_report_print_hazard(const char *bug, const char *what, int error, int same_wave,
                               const ldsan_report_record *access, const ldsan_report_record *other,
                               const ldsan_device_memory *mem, const ldsan_dispatch_info *dispatch, FILE *out) {
  report_ctx ac, oc;
  ldsan_report_ctx_init(&ac, access, mem, dispatch);
  ldsan_report_ctx_symbolize(&ac);
  if (other) {
    ldsan_report_ctx_init(&oc, other, mem, dispatch);
    ldsan_report_ctx_symbolize(&oc);
  }
  ldsan_decorator d = ldsan_decorator_for(out);
  fprintf(out, "%s\n%s==%ld==%s: %s: %s in kernel %s: %s%s\n", LDSAN_REPORT_RULE, ldsan_deco_warning(d),
          (long)getpid(), error ? "ERROR" : "WARNING", error ? "AddressSanitizer" : "ldsan", bug, ac.kernel, what,
          ldsan_deco_end(d));
  if (error) fprintf(out, "    (found by the CPU emulator's LDS checks; they do not stop the dispatch)\n");
  print_hazard_access(out, d, &ac, "");
  if (other) print_hazard_access(out, d, &oc, "previous ");
  fputc('\n', out);
  ldsan_report_describe_address(out, d, &ac);
  fputc('\n', out);
  fprintf(out, "%s\n", hazard_hint(bug, same_wave));
  if (ldsan_flags_get()->print_summary) {
    fprintf(out, "SUMMARY: %s: %s ", error ? "AddressSanitizer" : "ldsan", bug);
    if (ac.source[0]) fprintf(out, "%s ", ac.source);
    fprintf(out, "in %s", ac.function ? ac.function : ac.kernel);
    if (other) fprintf(out, " (previous access at %s)", oc.source[0] ? oc.source : "an unknown line");
    fputc('\n', out);
  }
  ldsan_report_ctx_free(&ac);
  if (other) ldsan_report_ctx_free(&oc);
}
