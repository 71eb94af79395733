/* ldsan host library: one report, the dispatcher. The only file that knows
 * every printer: it picks JSON (option report_format=json) or the text report
 * of the record's kind (report_text.c: a bad access; report_hazard.c: the LDS
 * hazards; report_allocator.c: allocator failures and unknown kinds). Also
 * the drain's questions about a raw record (bug name, redundancy), each
 * answered from a report context of its own (report_ctx.c).
 * Threading: callers hold the report mutex (drain.c). */
#include "report_ctx.h"

static void print(FILE *out, const report_ctx *c, const ldsan_report_extra *extra) {
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

const char *ldsan_report_bug_name(const ldsan_report_record *r, const ldsan_device_memory *mem,
                                  const ldsan_dispatch_info *dispatch) {
  report_ctx c;
  ldsan_report_ctx_init(&c, r, mem, dispatch);
  ldsan_report_ctx_free(&c);
  return c.bug;
}

int ldsan_report_is_redundant(const ldsan_report_record *r, const ldsan_device_memory *mem,
                              const ldsan_dispatch_info *dispatch) {
  if (r->kind != LDSAN_REPORT_LDS_UNINIT_READ || !r->block || !r->size || r->size > 64) return 0;
  report_ctx c;
  ldsan_report_ctx_init(&c, r, mem, dispatch);
  int outside = c.desc.valid && c.in_block && r->address >= r->block;
  for (uint64_t k = 0; outside && k < r->size; k++)
    outside = ldsan_desc_locate(&c.desc, (int64_t)(r->address - r->block + k), c.dyn).where != LDSAN_WHERE_INSIDE;
  ldsan_report_ctx_free(&c);
  return outside;
}

void ldsan_report_print(const ldsan_report_record *r, const ldsan_device_memory *mem,
                        const ldsan_dispatch_info *dispatch, FILE *out, const ldsan_report_extra *extra) {
  report_ctx c;
  ldsan_report_ctx_init(&c, r, mem, dispatch);
  ldsan_report_ctx_symbolize(&c);
  print(out, &c, extra);
  ldsan_report_ctx_free(&c);
}
