/* ldsan host library: the text report of a bad LDS (or global) access,
 * LDSAN_REPORT_BAD_ACCESS. Order as compiler-rt: headline, access line,
 * frames, description of the address (LDS variable, layout), shadow dump,
 * SUMMARY. Threading: callers hold the report mutex (drain.c). */
#define _POSIX_C_SOURCE 200809L
#include <unistd.h>

#include "report_ctx.h"

#define MAX_LAYOUT_LINES 16  /* variables listed around the one hit */

static void marker(FILE *out, const ldsan_location *l) {
  const char *how = l->where == LDSAN_WHERE_INSIDE ? "inside" : l->where == LDSAN_WHERE_BEFORE ? "before" : "after";
  if (l->where == LDSAN_WHERE_DYNAMIC_AFTER)
    fprintf(out, " <== memory access is %llu bytes after the end of dynamic LDS", (unsigned long long)l->distance);
  else
    fprintf(out, " <== memory access is %llu bytes %s this variable", (unsigned long long)l->distance, how);
}

static void print_layout(FILE *out, ldsan_decorator d, const report_ctx *c) {
  if (!c->in_block || !c->desc.valid) return;
  const ldsan_kernel_desc *h = &c->desc.header;
  fprintf(out, "LDS layout of %s (block 0x%llx, static %u bytes, dynamic %u bytes):\n", c->kernel,
          (unsigned long long)c->r->block, h->static_size, c->dyn);
  if (c->loc.where == LDSAN_WHERE_HEADER)
    fprintf(out, "  [-%u, 0) ldsan block header <== memory access is %llu bytes before the block\n",
            LDSAN_BLOCK_HEADER_SIZE, (unsigned long long)c->loc.distance);
  int n = (int)h->var_count, first = 0, last = n;
  if (n > MAX_LAYOUT_LINES) {
    int centre = c->loc.var >= 0 ? c->loc.var : 0;
    first = centre - MAX_LAYOUT_LINES / 2 < 0 ? 0 : centre - MAX_LAYOUT_LINES / 2;
    last = first + MAX_LAYOUT_LINES > n ? n : first + MAX_LAYOUT_LINES;
  }
  if (first > 0) fprintf(out, "  ... %d more variable(s)\n", first);
  for (int i = first; i < last; i++) {
    const ldsan_var_desc *v = &c->desc.vars[i];
    uint64_t size = ldsan_var_size(&c->desc, i, c->dyn);
    char name[256];
    fprintf(out, "  [%u, %llu) ", v->offset, (unsigned long long)(v->offset + size));
    if (v->flags & LDSAN_VAR_COMPILER_SLOT) fputs("compiler LDS pointer slot", out);
    else {
      fprintf(out, "%s'%s'%s %s%llu", ldsan_deco_variable(d), ldsan_var_name(&c->desc, i, name, sizeof name),
              ldsan_deco_end(d), (v->flags & LDSAN_VAR_DYNAMIC) ? "dynamic, size " : "size ",
              (unsigned long long)size);
      if (!(v->flags & LDSAN_VAR_DYNAMIC)) fprintf(out, ", redzone %u", v->redzone);
    }
    if (c->loc.where == LDSAN_WHERE_SLOT && i == c->loc.var)
      fprintf(out, " <== memory access is %llu bytes into the slot", (unsigned long long)c->loc.distance);
    else if (i == c->loc.var) marker(out, &c->loc);
    fputc('\n', out);
  }
  if (last < n) fprintf(out, "  ... %d more variable(s)\n", n - last);
  if (c->loc.where == LDSAN_WHERE_DYNAMIC_AFTER && c->loc.var < 0) {
    fprintf(out, "  [%u, %llu) dynamic LDS, size %u", h->static_size,
            (unsigned long long)h->static_size + c->dyn, c->dyn);
    marker(out, &c->loc);
    fputc('\n', out);
  }
}

void ldsan_report_print_access(FILE *out, ldsan_decorator d, const report_ctx *c, const ldsan_report_extra *extra) {
  const ldsan_report_record *r = c->r;
  fprintf(out, "%s==%ld==ERROR: AddressSanitizer: %s on address 0x%llx at pc 0x%llx ", ldsan_deco_warning(d),
          (long)getpid(), c->bug, (unsigned long long)r->address, (unsigned long long)r->pc);
  ldsan_report_device_words(out, c->dispatch);
  fprintf(out, "%s\n%s%s of size %llu at 0x%llx ", ldsan_deco_end(d), ldsan_deco_access(d),
          (r->flags & LDSAN_ACCESS_WRITE) ? "WRITE" : "READ", (unsigned long long)r->size,
          (unsigned long long)(r->access_address ? r->access_address : r->address));
  if (r->access_address && r->access_address != r->address)
    fprintf(out, "(first bad byte 0x%llx) ", (unsigned long long)r->address);
  ldsan_report_ids(out, r);
  fprintf(out, " in kernel %s%s\n", c->kernel, ldsan_deco_end(d));
  ldsan_report_frames(out, &c->site, r->pc, c->kernel);
  if (extra && extra->same_lanes) ldsan_report_print_folded(out, c, extra);
  if (r->flags & LDSAN_ACCESS_NOABORT) fprintf(out, "    (recoverable check: the lane continued)\n");
  ldsan_print_launch_site(out, c->dispatch, c->kernel);
  fputc('\n', out);
  ldsan_report_describe_address(out, d, c);
  fputc('\n', out);
  if (c->in_block && c->desc.valid) { print_layout(out, d, c); fputc('\n', out); }
  ldsan_shadow_dump(out, d, c->mem, c->dispatch ? c->dispatch->shadow_offset : 0, r->address,
                    (uint8_t)r->shadow_byte, c->view.block ? &c->view : NULL);
  ldsan_report_print_summary(out, c);
}
