/* ldsan host library: the warning of the CPU emulator's option
 * report_wave_sync: a lane read LDS that another lane of its wave wrote with
 * no barrier or wave barrier between. Printed like a report (report.c's
 * pieces), with both accesses. */
#include <stdio.h>
#include <unistd.h>

#include "report_ctx.h"

static void print_wave_access(FILE *out, ldsan_decorator d, const report_ctx *c, const char *what) {
  const ldsan_report_record *r = c->r;
  fprintf(out, "%s%s of size %llu at 0x%llx by ", ldsan_deco_access(d), what, (unsigned long long)r->size,
          (unsigned long long)r->access_address);
  ldsan_report_ids(out, r);
  fprintf(out, "%s:\n", ldsan_deco_end(d));
  ldsan_report_frames(out, c);
}

void ldsan_report_print_wave_sync(const ldsan_report_record *read, const ldsan_report_record *write,
                                  const ldsan_device_memory *mem, const ldsan_dispatch_info *dispatch, FILE *out) {
  report_ctx rc, wc;
  ldsan_report_ctx_init(&rc, read, mem, dispatch);
  ldsan_report_ctx_init(&wc, write, mem, dispatch);
  ldsan_report_ctx_symbolize(&rc);
  ldsan_report_ctx_symbolize(&wc);
  ldsan_decorator d = ldsan_decorator_for(out);
  fprintf(out, "%s\n%s==%ld==WARNING: ldsan: wave-sync-dependence in kernel %s: lane %u reads LDS that lane %u of "
          "its wave wrote, with no barrier or wave barrier between%s\n", LDSAN_REPORT_RULE, ldsan_deco_warning(d), (long)getpid(),
          rc.kernel, read->lane, write->lane, ldsan_deco_end(d));
  print_wave_access(out, d, &rc, "READ");
  print_wave_access(out, d, &wc, "previous WRITE");
  fputc('\n', out);
  ldsan_report_describe_address(out, d, &rc);
  fputc('\n', out);
  fprintf(out, "HINT: the read sees the write only because the CPU emulator, like a GPU running 64-lane waves, "
          "executes the wave's lanes in lockstep. On wave32 GPUs (RDNA) lanes 0-31 and 32-63 are different waves, "
          "and a compiler may keep or reorder such accesses: put __syncthreads() between the write and the read, "
          "or exchange the value with __shfl. This run's results are not changed by the warning.\n");
  if (ldsan_flags_get()->print_summary) {
    fprintf(out, "SUMMARY: ldsan: wave-sync-dependence ");
    if (rc.source[0]) fprintf(out, "%s ", rc.source);
    fprintf(out, "in %s (written at %s)\n", rc.function ? rc.function : rc.kernel, wc.source[0] ? wc.source : "?");
  }
  ldsan_report_ctx_free(&rc);
  ldsan_report_ctx_free(&wc);
}
