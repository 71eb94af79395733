/* ldsan host library: reports of the LDS hazard kinds (report_kinds.def from
 * LDS_DATA_RACE on): lds-data-race (two work-items of one workgroup touch a
 * byte in one barrier interval, one of them writing), lds-uninitialized-read
 * (no work-item of the workgroup wrote the byte), wave-sync-dependence (a lane
 * read what another lane of its wave wrote, with no barrier or wave barrier
 * between: works only in lockstep) and barrier-divergence (a barrier not every
 * live work-item reached). The record's access comes first, then the second
 * one (other_*, c->other_rec), both symbolized; the rest is the bounds
 * report's pieces (report_parts.c). Threading: callers hold the report mutex. */
#include <unistd.h>

#include "report_ctx.h"

static void print_ids(FILE *out, const uint32_t id[3]) { fprintf(out, "(%u,%u,%u)", id[0], id[1], id[2]); }

/* The headline after "in kernel K: ". */
static void print_what(FILE *out, const ldsan_report_record *r) {
  int same_wave = (r->flags & LDSAN_ACCESS_SAME_WAVE) != 0;
  switch (r->kind) {
  case LDSAN_REPORT_LDS_DATA_RACE:
    fprintf(out, "%s %s work-items ", ldsan_hazard_name(r->hazard) ? ldsan_hazard_name(r->hazard) : "conflict",
            same_wave ? "within one wave by" : "by");
    print_ids(out, r->workitem_id);
    if (r->flags & LDSAN_REPORT_OTHER_UNKNOWN) {
      fputs(" and a work-item of another wave with no barrier between", out);
      break;
    }
    fputs(" and ", out);
    print_ids(out, r->other_workitem_id);
    fputs(" with no barrier between", out);
    break;
  case LDSAN_REPORT_LDS_UNINIT_READ:
    fputs("read of LDS no work-item of the workgroup wrote", out);
    break;
  case LDSAN_REPORT_WAVE_SYNC_DEPENDENCE:
    fprintf(out, "lane %u reads LDS that lane %u of its wave wrote, with no barrier or wave barrier between",
            r->lane, r->other_lane);
    break;
  case LDSAN_REPORT_BARRIER_DIVERGENCE:
    fputs("work-item ", out);
    print_ids(out, r->workitem_id);
    if (r->hazard == LDSAN_HAZARD_BARRIER_SKIPPED) {
      fputs(" reaches a barrier after its wave passed another one without it: work-item ", out);
      print_ids(out, r->other_workitem_id);
      fputs(" of its wave passed that one more times", out);
    } else if (r->other_pc) {
      fputs(" waits at a barrier while work-item ", out);
      print_ids(out, r->other_workitem_id);
      fputs(same_wave ? " of its wave waits at another one" : " waits at another one", out);
    } else {
      fputs(" waits at a barrier that work-item ", out);
      print_ids(out, r->other_workitem_id);
      fputs(same_wave ? " of its wave never reaches: it returned" : " never reaches: it returned", out);
    }
    break;
  default: break;
  }
}

/* One of the two accesses: r (the record or c->other_rec), symbolized as s. */
static void print_hazard_access(FILE *out, ldsan_decorator d, const report_ctx *c, const ldsan_report_record *r,
                                const report_site *s, const char *previous) {
  if (r->kind == LDSAN_REPORT_BARRIER_DIVERGENCE && !r->pc) {  /* the work-item that returned */
    fprintf(out, "%s%s", ldsan_deco_access(d), previous);
    ldsan_report_ids(out, r);
    fprintf(out, " returned from the kernel without reaching it%s\n", ldsan_deco_end(d));
    return;
  }
  fprintf(out, "%s%s", ldsan_deco_access(d), previous);
  if (r->kind == LDSAN_REPORT_BARRIER_DIVERGENCE)
    fputs("barrier by ", out);
  else {
    fprintf(out, "%s%s", (r->flags & LDSAN_ACCESS_ATOMIC) ? "atomic " : "", (r->flags & LDSAN_ACCESS_WRITE) ? "WRITE" : "READ");
    if (r->size) fprintf(out, " of size %llu", (unsigned long long)r->size);  /* 0: the device keeps no size */
    fprintf(out, " at 0x%llx by ", (unsigned long long)r->access_address);
  }
  if (r->flags & LDSAN_REPORT_OTHER_UNKNOWN) {  /* the device did not record who (lds_checks.c) */
    fprintf(out, "a work-item of another wave (not recorded)%s\n", ldsan_deco_end(d));
    return;
  }
  ldsan_report_ids(out, r);
  fprintf(out, "%s:\n", ldsan_deco_end(d));
  ldsan_report_frames(out, s, r->pc, c->kernel);
}

/* The advice that ends each kind of report. */
static const char *hazard_hint(const ldsan_report_record *r) {
  switch (r->kind) {
  case LDSAN_REPORT_LDS_UNINIT_READ:
    return "HINT: no work-item of this workgroup wrote these bytes since its LDS block was taken; LDS starts with "
           "whatever the previous workgroup left. Write them first (check the halo and partial-tile cases), and "
           "put __syncthreads() between the writes and the reads.";
  case LDSAN_REPORT_BARRIER_DIVERGENCE:
    if (r->hazard == LDSAN_HAZARD_BARRIER_SKIPPED)
      return "HINT: every work-item of a workgroup must pass each __syncthreads() the same number of times: a "
             "barrier in a loop whose trip count differs between work-items (or in an if some skip) makes "
             "their wave pass it without them, and the barrier then releases the wrong work-items. Give the "
             "loop the same trip count for every work-item (let the extra iterations skip only the work).";
    return "HINT: every work-item of a workgroup must reach the same __syncthreads(): a work-item that returns "
           "early or takes another branch leaves the others waiting for it (on the GPU: a hang, or a barrier "
           "that releases the wrong work-items). Move the barrier out of the condition, or let every work-item "
           "reach it and skip only the work.";
  default: break;
  }
  if (r->flags & LDSAN_ACCESS_SAME_WAVE)
    return "HINT: the two accesses are in one wave: a 64-lane GPU executes them in order, so this works there, "
           "but on wave32 GPUs (RDNA) lanes 0-31 and 32-63 are different waves, and a compiler may keep or reorder "
           "such accesses: put __syncthreads() between them, or exchange the value with __shfl. The results of "
           "this run are not changed.";
  return "HINT: nothing orders the two accesses: put __syncthreads() between them (or make both atomic).";
}

void ldsan_report_print_hazard(FILE *out, ldsan_decorator d, const report_ctx *c, const ldsan_report_extra *extra) {
  const ldsan_report_record *r = c->r;
  int error = ldsan_report_is_error(r), has_other = c->has_other;
  fprintf(out, "%s==%ld==%s: %s: %s in kernel %s: ", ldsan_deco_warning(d), (long)getpid(),
          error ? "ERROR" : "WARNING", error ? "AddressSanitizer" : "ldsan", c->bug, c->kernel);
  print_what(out, r);
  fprintf(out, "%s\n", ldsan_deco_end(d));
  print_hazard_access(out, d, c, r, &c->site, "");
  if (has_other)
    print_hazard_access(out, d, c, &c->other_rec, &c->other,
                        r->kind == LDSAN_REPORT_BARRIER_DIVERGENCE ? (r->other_pc ? "other " : "") : "previous ");
  if (extra && extra->same_lanes) ldsan_report_print_folded(out, c, extra);
  if (r->flags & LDSAN_REPORT_DEFERRED)
    fprintf(out, "    (found by the CPU emulator's LDS checks, which do not stop the dispatch)\n");
  else if (r->flags & LDSAN_ACCESS_NOABORT)
    fprintf(out, "    (recoverable check: the lane continued)\n");
  ldsan_print_launch_site(out, c->dispatch, c->kernel);
  fputc('\n', out);
  if (r->kind != LDSAN_REPORT_BARRIER_DIVERGENCE) {
    ldsan_report_describe_address(out, d, c);
    fputc('\n', out);
  }
  fprintf(out, "%s\n", hazard_hint(r));
  if (ldsan_flags_get()->print_summary) {
    /* The program's lines (c->site.source: a barrier's frame 0 is __work_group_barrier
     * in amd_device_functions.h). */
    fprintf(out, "SUMMARY: %s: %s ", error ? "AddressSanitizer" : "ldsan", c->bug);
    if (c->site.source[0]) fprintf(out, "%s ", c->site.source);
    fprintf(out, "in %s", c->site.function ? c->site.function : c->kernel);
    if (has_other && r->other_pc)
      fprintf(out, " (%s at %s)", r->kind == LDSAN_REPORT_BARRIER_DIVERGENCE ? "other barrier" : "previous access",
              c->other.source[0] ? c->other.source : "an unknown line");
    fputc('\n', out);
  }
}
