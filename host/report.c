/* ldsan host library: one report, the dispatcher. The only file that knows
 * every printer: it picks JSON (option report_format=json) or the text report
 * of the record's kind (report_text.c: a bad access; report_hazard.c: the LDS
 * hazards; report_allocator.c: allocator failures and unknown kinds). Also
 * the public single-record entry, ldsan_host_print_record: one context, one
 * report, and stop.c's answer (the ABORTING line).
 * Threading: ldsan_report_print's callers hold the report mutex (drain.c). */
#include "report_ctx.h"

void ldsan_report_print(FILE *out, const report_ctx *c, const ldsan_report_extra *extra) {
  if (ldsan_flags_json()) {
    ldsan_report_print_json(out, c, extra);
    return;
  }
  ldsan_decorator d = ldsan_decorator_for(out);
  fprintf(out, "%s\n", LDSAN_REPORT_RULE);
  if (c->r->kind == LDSAN_REPORT_BAD_ACCESS) ldsan_report_print_access(out, d, c, extra);
  else if (ldsan_report_is_hazard(c->r->kind)) ldsan_report_print_hazard(out, d, c, extra);
  else ldsan_report_print_allocator(out, d, c);
}

void ldsan_host_print_record(const ldsan_report_record *record, const ldsan_device_memory *mem,
                             const ldsan_dispatch_info *dispatch, FILE *out) {
  ldsan_host_init();
  ldsan_report_lock();
  if (!out) out = ldsan_log_stream();
  report_ctx c;
  ldsan_report_ctx_init(&c, record, mem, dispatch);
  ldsan_report_ctx_symbolize(&c);
  ldsan_report_print(out, &c, NULL);
  ldsan_report_ctx_free(&c);
  ldsan_stop_facts facts = {0};
  ldsan_stop_note(&facts, record);
  if (ldsan_stop_decide(&facts)) ldsan_stop_announce(out);
  fflush(out);
  ldsan_report_unlock();
}
