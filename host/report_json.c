/* ldsan host library: a report as one JSON object on one line (option
 * report_format=json), for log scanners and CI. The schema is in
 * docs/reports.md ("JSON reports"); field order is fixed. 64-bit values (addresses, pc) are
 * hex strings: many JSON readers hold numbers as doubles, exact only to 2^53.
 * Strings are escaped (quotes, backslashes, control characters) and bytes
 * that are not UTF-8 become U+FFFD, so the line is valid JSON whatever the
 * device memory held. Threading: callers hold the report mutex (drain.c). */
#define _POSIX_C_SOURCE 200809L
#include <unistd.h>

#include "report_ctx.h"

/* Length of the valid UTF-8 sequence at s (1..4), or 0. */
static int utf8_len(const unsigned char *s) {
  int n = s[0] >= 0xf0 && s[0] <= 0xf4 ? 4 : s[0] >= 0xe0 ? 3 : s[0] >= 0xc2 && s[0] < 0xe0 ? 2 : 0;
  if (s[0] >= 0xf5) n = 0;
  for (int i = 1; i < n; i++)
    if ((s[i] & 0xc0) != 0x80) return 0;
  if (n == 3 && ((s[0] == 0xe0 && s[1] < 0xa0) || (s[0] == 0xed && s[1] >= 0xa0))) return 0;  /* overlong, surrogate */
  if (n == 4 && ((s[0] == 0xf0 && s[1] < 0x90) || (s[0] == 0xf4 && s[1] >= 0x90))) return 0;  /* overlong, > U+10FFFF */
  return n;
}

/* s as a JSON string, or null. */
static void json_str(FILE *out, const char *s) {
  if (!s) { fputs("null", out); return; }
  fputc('"', out);
  for (const unsigned char *p = (const unsigned char *)s; *p;) {
    unsigned char ch = *p;
    if (ch == '"' || ch == '\\') { fputc('\\', out); fputc(ch, out); p++; continue; }
    if (ch < 0x20) {
      switch (ch) {
      case '\n': fputs("\\n", out); break;
      case '\r': fputs("\\r", out); break;
      case '\t': fputs("\\t", out); break;
      case '\b': fputs("\\b", out); break;
      case '\f': fputs("\\f", out); break;
      default: fprintf(out, "\\u%04x", ch);
      }
      p++;
      continue;
    }
    if (ch < 0x80) { fputc(ch, out); p++; continue; }
    int n = utf8_len(p);
    if (n) { fwrite(p, 1, (size_t)n, out); p += n; }
    else { fputs("\\ufffd", out); p++; }
  }
  fputc('"', out);
}

static void json_hex(FILE *out, uint64_t v) { fprintf(out, "\"0x%llx\"", (unsigned long long)v); }

static void json_ids(FILE *out, const uint32_t id[3]) { fprintf(out, "[%u,%u,%u]", id[0], id[1], id[2]); }

/* The variable the address is attributed to, or -1 (none, the slot, the header). */
static int json_var(const report_ctx *c) {
  if (!c->in_block || c->loc.var < 0) return -1;
  switch (c->loc.where) {
  case LDSAN_WHERE_INSIDE: case LDSAN_WHERE_AFTER: case LDSAN_WHERE_BEFORE: case LDSAN_WHERE_DYNAMIC_AFTER:
    return c->loc.var;
  default:
    return -1;
  }
}

/* "read"/"write" for an access (bounds or hazard report), else null. */
static const char *json_access(const ldsan_report_record *r) {
  if (r->kind != LDSAN_REPORT_BAD_ACCESS && (!ldsan_report_is_hazard(r->kind) || r->kind == LDSAN_REPORT_BARRIER_DIVERGENCE))
    return NULL;
  return (r->flags & LDSAN_ACCESS_WRITE) ? "write" : "read";
}

/* A hazard's second access (c->other_rec): {"thread","lane","pc","function","location","access","size","atomic"}. */
static void json_other(FILE *out, const report_ctx *c) {
  const ldsan_report_record *o = &c->other_rec;
  fputs("{\"thread\":", out);
  if (o->flags & LDSAN_REPORT_OTHER_UNKNOWN) fputs("null,\"lane\":null", out);  /* not recorded (lds_checks.c) */
  else {
    json_ids(out, o->workitem_id);
    fprintf(out, ",\"lane\":%u", o->lane);
  }
  fputs(",\"pc\":", out);
  if (o->pc) json_hex(out, o->pc);
  else fputs("null", out);
  fputs(",\"function\":", out);
  json_str(out, c->other.function);
  fputs(",\"location\":", out);
  json_str(out, c->other.source[0] ? c->other.source : NULL);
  fputs(",\"access\":", out);
  json_str(out, json_access(o));
  if (o->size) fprintf(out, ",\"size\":%llu", (unsigned long long)o->size);
  else fputs(",\"size\":null", out);  /* the device keeps no size */
  fprintf(out, ",\"atomic\":%s}", (o->flags & LDSAN_ACCESS_ATOMIC) ? "true" : "false");
}

/* One host stack of a heap region: {"thread":n|null,"frames":[{"pc","function","location"}, ...]}. */
static void json_host_stack(FILE *out, int thread, const uint64_t *pcs, uint32_t depth) {
  if (thread >= 0) fprintf(out, "{\"thread\":%d,\"frames\":[", thread);
  else fputs("{\"thread\":null,\"frames\":[", out);
  int first = 1;
  for (uint32_t i = 0; i < depth; i++) {
    ldsan_frame frames[LDSAN_MAX_FRAMES];
    int n = ldsan_heap_symbolize(pcs[i], frames, LDSAN_MAX_FRAMES);
    for (int k = 0; k < (n > 0 ? n : 1); k++) {
      char source[512] = "";
      if (n > 0) ldsan_report_format_source(source, sizeof source, &frames[k]);
      fputs(first ? "{\"pc\":" : ",{\"pc\":", out);
      first = 0;
      json_hex(out, pcs[i]);
      fputs(",\"function\":", out);
      json_str(out, n > 0 ? frames[k].function : NULL);
      fputs(",\"location\":", out);
      json_str(out, source[0] ? source : NULL);
      fputc('}', out);
    }
  }
  fputs("]}", out);
}

/* The heap region of a global address (asan_heap.c): {"kind":"heap","begin","size","offset",
 * "allocated_by","freed_by"}, or null. */
static void json_region(FILE *out, const report_ctx *c) {
  if (!c->heap_ok) { fputs("null", out); return; }
  const ldsan_heap_region *h = &c->heap;
  fputs("{\"kind\":\"heap\",\"begin\":", out);
  json_hex(out, h->begin);
  fprintf(out, ",\"size\":%llu,\"offset\":%lld,\"allocated_by\":", (unsigned long long)h->size,
          (long long)(c->r->address - h->begin));
  json_host_stack(out, h->alloc_thread, h->alloc_pcs, h->alloc_depth);
  fputs(",\"freed_by\":", out);
  if (h->free_depth) json_host_stack(out, h->free_thread, h->free_pcs, h->free_depth);
  else fputs("null", out);
  fputc('}', out);
}

void ldsan_report_print_json(FILE *out, const report_ctx *c, const ldsan_report_extra *extra) {
  const ldsan_report_record *r = c->r;
  const ldsan_report_record *const only[1] = {r};
  const ldsan_report_record *const *threads = only;
  uint32_t n = 1;
  if (extra && extra->folded && extra->folded_count) { threads = extra->folded; n = extra->folded_count; }
  uint32_t more = extra ? extra->same_lanes : 0;
  uint32_t here = n - 1, other_wgs = extra && extra->same_workgroups > 1 ? extra->same_workgroups - 1 : 0;

  fprintf(out, "{\"ldsan_report\":1,\"pid\":%ld,\"type\":", (long)getpid());
  json_str(out, c->bug);
  fputs(",\"kernel\":", out);
  json_str(out, c->kernel_known ? c->kernel : NULL);
  int v = json_var(c);
  char name[256];
  fputs(",\"variable\":", out);
  json_str(out, v >= 0 ? ldsan_var_name(&c->desc, v, name, sizeof name) : NULL);
  if (v >= 0)
    fprintf(out, ",\"variable_size\":%llu,\"offset\":%lld",
            (unsigned long long)ldsan_var_size(&c->desc, v, c->dyn),
            (long long)(c->loc.offset - (int64_t)c->desc.vars[v].offset));
  else
    fputs(",\"variable_size\":null,\"offset\":null", out);
  if (c->in_block) fprintf(out, ",\"lds_offset\":%lld", (long long)c->loc.offset);
  else fputs(",\"lds_offset\":null", out);
  fputs(",\"access\":", out);
  json_str(out, json_access(r));
  fprintf(out, ",\"size\":%llu,\"workgroup\":", (unsigned long long)r->size);
  json_ids(out, r->workgroup_id);
  fputs(",\"threads\":[", out);
  for (uint32_t i = 0; i < n; i++) {
    if (i) fputc(',', out);
    json_ids(out, threads[i]->workitem_id);
  }
  fputs("],\"addresses\":[", out);
  for (uint32_t i = 0; i < n; i++) {
    if (i) fputc(',', out);
    json_hex(out, threads[i]->address);
  }
  fprintf(out, "],\"more_work_items\":%u,\"other_workgroups\":%u,\"pc\":", more > here ? more - here : 0,
          other_wgs);
  if (r->pc) json_hex(out, r->pc);
  else fputs("null", out);
  fputs(",\"function\":", out);
  json_str(out, c->site.function);
  fputs(",\"location\":", out);
  json_str(out, c->site.source[0] ? c->site.source : NULL);
  fputs(",\"device\":", out);
  json_str(out, c->dispatch ? c->dispatch->device_name : NULL);
  fprintf(out, ",\"device_index\":%d,\"recoverable\":%s,\"severity\":\"%s\",\"hazard\":",
          c->dispatch ? c->dispatch->device : 0, (r->flags & LDSAN_ACCESS_NOABORT) ? "true" : "false",
          ldsan_report_is_error(r) ? "error" : "warning");
  json_str(out, ldsan_hazard_name(r->hazard));
  fprintf(out, ",\"same_wave\":%s,\"other\":", (r->flags & LDSAN_ACCESS_SAME_WAVE) ? "true" : "false");
  if (c->has_other) json_other(out, c);
  else fputs("null", out);
  fputs(",\"region\":", out);
  json_region(out, c);
  fputs("}\n", out);
}
