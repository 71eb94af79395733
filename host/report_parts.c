/* ldsan host library: the pieces of the text reports that the bounds,
 * hazard and allocator printers share: the device words of a headline, a
 * work-item's ids, a pc's frames, what the bad address is (an LDS variable,
 * the block layout around it, a finished workgroup's block, global memory,
 * host ASan's heap), the folded work-items and the SUMMARY line. Calls no
 * printer. Threading: callers hold the report mutex (drain.c). */
#define _POSIX_C_SOURCE 200809L
#include <string.h>

#include "report_ctx.h"

void ldsan_report_device_words(FILE *out, const ldsan_dispatch_info *dispatch) {
  fprintf(out, "on amdgpu device %d", dispatch ? dispatch->device : 0);
  if (dispatch && dispatch->device_name) fprintf(out, " (%s)", dispatch->device_name);
}

void ldsan_report_ids(FILE *out, const ldsan_report_record *r) {
  fprintf(out, "thread (work-item) (%u,%u,%u) lane %u of workgroup (%u,%u,%u)", r->workitem_id[0],
          r->workitem_id[1], r->workitem_id[2], r->lane, r->workgroup_id[0], r->workgroup_id[1],
          r->workgroup_id[2]);
}

/* ASan's frame form "    #N 0x<pc> in <function> <file>:<line>:<col>": with
 * no source, "(<module>+0x<offset>)" instead; with no function, no "in". */
void ldsan_report_frames(FILE *out, const report_site *s, uint64_t pc_, const char *kernel) {
  unsigned long long pc = (unsigned long long)pc_;
  if (!pc) { fprintf(out, "    #0 <pc unknown> in kernel %s\n", kernel); return; }
  if (!s->nframes) { fprintf(out, "    #0 0x%llx  (<unknown module>)\n", pc); return; }
  for (int i = 0; i < s->nframes; i++) {
    const ldsan_frame *f = &s->frames[i];
    char source[512];
    ldsan_report_format_source(source, sizeof source, f);
    fprintf(out, "    #%d 0x%llx ", i, pc);
    if (f->function) fprintf(out, "in %s", f->function);
    if (source[0]) fprintf(out, " %s\n", source);
    else if (f->module) fprintf(out, " (%s+0x%llx)\n", f->module, (unsigned long long)f->module_offset);
    else fprintf(out, "%s\n", f->function ? "" : " (<unknown module>)");
  }
}

/* "'tile' of size 256 (k1(int*, int)::tile, declared at mini.hip:12)" */
static void describe_var(FILE *out, ldsan_decorator d, const report_ctx *c, int i) {
  char name[256], full[512];
  const ldsan_var_desc *v = &c->desc.vars[i];
  ldsan_var_name(&c->desc, i, name, sizeof name);
  const char *ir = ldsan_desc_string(&c->desc, v->name);
  const char *file = ldsan_desc_string(&c->desc, v->file);
  if (v->flags & LDSAN_VAR_DYNAMIC)
    fprintf(out, "dynamic LDS %s'%s'%s of size %u (the launch's dynamic LDS size)", ldsan_deco_variable(d), name,
            ldsan_deco_end(d), c->dyn);
  else
    fprintf(out, "LDS variable %s'%s'%s of size %u", ldsan_deco_variable(d), name, ldsan_deco_end(d), v->size);
  full[0] = 0;
  if (ir) ldsan_demangle(ir, full, sizeof full);
  int show_full = full[0] && strcmp(full, name) != 0;
  if (show_full || file) {
    fprintf(out, " (%s", show_full ? full : "");
    if (file) fprintf(out, "%sdeclared at %s:%u", show_full ? ", " : "", file, v->line);
    fputc(')', out);
  }
}

/* An access to a finished workgroup's LDS (record.freed_block): names the
 * variable of that block, its kernel and its workgroup. Returns 0 if the
 * block's header or descriptor cannot be read (the caller says less). */
static int describe_freed(FILE *out, ldsan_decorator d, const report_ctx *c) {
  const ldsan_report_record *r = c->r;
  ldsan_block_header h;
  if (!c->mem || !c->mem->read ||
      c->mem->read(c->mem->ctx, r->freed_block - LDSAN_BLOCK_HEADER_SIZE, &h, sizeof h) != 0 ||
      h.self != r->freed_block)
    return 0;
  report_ctx f; /* the finished workgroup's block as a context of its own */
  memset(&f, 0, sizeof f);
  f.r = r;
  f.mem = c->mem;
  f.dyn = h.dynamic_size;
  ldsan_desc_read(&f.desc, c->mem, h.kernel_desc);
  char kernel[512];
  (void)ldsan_report_kernel_name(&f.desc, NULL, kernel, sizeof kernel);
  unsigned long long a = (unsigned long long)r->address;
  ldsan_location l = ldsan_desc_locate(&f.desc, (int64_t)(r->address - r->freed_block), f.dyn);
  if (l.var >= 0 && l.where == LDSAN_WHERE_INSIDE) {
    fprintf(out, "0x%llx is located %llu bytes inside of ", a, (unsigned long long)l.distance);
    describe_var(out, d, &f, l.var);
  } else {
    fprintf(out, "0x%llx is at LDS offset %lld", a, (long long)(r->address - r->freed_block));
  }
  fprintf(out, " of workgroup (%u,%u,%u) of kernel %s, which has exited (its LDS block at 0x%llx was released)",
          LDSAN_OWNER_X(h.owner), LDSAN_OWNER_Y(h.owner), LDSAN_OWNER_Z(h.owner), kernel,
          (unsigned long long)r->freed_block);
  ldsan_desc_free(&f.desc);
  return 1;
}

void ldsan_report_describe_address(FILE *out, ldsan_decorator d, const report_ctx *c) {
  const ldsan_report_record *r = c->r;
  const ldsan_location *l = &c->loc;
  unsigned long long a = (unsigned long long)r->address, dist = (unsigned long long)l->distance;
  if (c->heap_ok) { ldsan_report_describe_heap(out, d, c); return; }
  uint8_t s = (uint8_t)r->shadow_byte;
  int asan_byte = s >= 8 && (s < LDSAN_SHADOW_LDS_REDZONE || s > LDSAN_SHADOW_LDS_STORE) && ldsan_shadow_bug_name(s);
  fputs(ldsan_deco_location(d), out);
  if (!c->in_block) {
    if (r->shadow_byte == LDSAN_SHADOW_LDS_FREED && r->freed_block && describe_freed(out, d, c)) {
      /* said */
    } else if (r->shadow_byte == LDSAN_SHADOW_LDS_STORE && r->block) {
      int before = r->address < r->block;
      unsigned long long gap = before ? (unsigned long long)(r->block - r->address)
                                      : (unsigned long long)(r->address - c->view.chunk_end);
      fprintf(out, "0x%llx is in ldsan's LDS backing store, %llu bytes %s this workgroup's LDS block [0x%llx, 0x%llx): "
              "memory no workgroup holds (or the store's bookkeeping)", a, gap, before ? "before" : "after",
              (unsigned long long)r->block, (unsigned long long)c->view.chunk_end);
    } else if (r->block)
      fprintf(out, "0x%llx is not in this workgroup's LDS block [0x%llx, 0x%llx): global memory",
              a, (unsigned long long)r->block, (unsigned long long)c->view.chunk_end);
    else if (asan_byte)  /* global memory outside host ASan's heap: a GPU's device memory */
      fprintf(out, "0x%llx is global memory (shadow byte 0x%02x is ASan's, not an LDS one) in no heap chunk host "
              "ASan knows: device memory, whose allocation stack only the HIP runtime has", a, s);
    else
      fprintf(out, "0x%llx is in memory ldsan cannot attribute (the record names no LDS block): unknown LDS variable", a);
    fprintf(out, "%s\n", ldsan_deco_end(d));
    return;
  }
  switch (l->where) {
  case LDSAN_WHERE_UNKNOWN:
    fprintf(out, "0x%llx is at LDS offset %lld of kernel %s: unknown LDS variable (%s)", a,
            (long long)l->offset, c->kernel, c->desc.why);
    break;
  case LDSAN_WHERE_HEADER:
    fprintf(out, "0x%llx is located %llu bytes before the start of the LDS block of kernel %s (in ldsan's block header)",
            a, dist, c->kernel);
    break;
  case LDSAN_WHERE_SLOT:
    fprintf(out, "0x%llx is located %llu bytes into the compiler's LDS pointer slot of kernel %s (LDS offset %lld; no user variable lives there)",
            a, dist, c->kernel, (long long)l->offset);
    break;
  case LDSAN_WHERE_INSIDE:
    fprintf(out, "0x%llx is located %llu bytes inside of ", a, dist);
    describe_var(out, d, c, l->var);
    break;
  case LDSAN_WHERE_AFTER:
  case LDSAN_WHERE_BEFORE:
    fprintf(out, "0x%llx is located %llu bytes %s ", a, dist, l->where == LDSAN_WHERE_AFTER ? "after" : "before");
    describe_var(out, d, c, l->var);
    break;
  case LDSAN_WHERE_DYNAMIC_AFTER:
    fprintf(out, "0x%llx is located %llu bytes after the end of dynamic LDS of size %u (the launch's dynamic LDS size)",
            a, dist, c->dyn);
    if (l->var >= 0) { fputs(": ", out); describe_var(out, d, c, l->var); }
    break;
  case LDSAN_WHERE_PAST_BLOCK:
    fprintf(out, "0x%llx is located past every LDS variable of kernel %s", a, c->kernel);
    break;
  }
  fprintf(out, "%s\n", ldsan_deco_end(d));
  fprintf(out, "  in the LDS of kernel %s: LDS offset %lld", c->kernel, (long long)l->offset);
  if (l->var >= 0 && l->where != LDSAN_WHERE_SLOT) {
    const ldsan_var_desc *v = &c->desc.vars[l->var];
    fprintf(out, ", variable at LDS offset %u..%llu", v->offset,
            (unsigned long long)(v->offset + ldsan_var_size(&c->desc, l->var, c->dyn)));
  }
  fputc('\n', out);
}

/* ASan's form: "SUMMARY: AddressSanitizer: <bug> <file:line:col> in <function>" from
 * the program's frame ("(<module>+0x<offset>)" without a line; else the kernel). */
void ldsan_report_print_summary(FILE *out, const report_ctx *c) {
  if (!ldsan_flags_get()->print_summary) return;
  fprintf(out, "SUMMARY: AddressSanitizer: %s ", c->bug);
  const report_site *s = &c->site;
  const ldsan_frame *f = &s->frames[s->program];
  if (s->source[0]) fprintf(out, "%s ", s->source);
  else if (s->nframes && f->module) fprintf(out, "(%s+0x%llx) ", f->module, (unsigned long long)f->module_offset);
  fprintf(out, "in %s\n", s->function ? s->function : c->kernel);
}

/* "63 more work-items (31 in this workgroup, 32 in 1 other workgroup) made the same ..." */
void ldsan_report_print_folded(FILE *out, const report_ctx *c, const ldsan_report_extra *extra) {
  uint32_t more = extra->same_lanes;
  uint32_t other_wgs = extra->same_workgroups > 1 ? extra->same_workgroups - 1 : 0;
  fprintf(out, "    %u more work-item%s ", more, more == 1 ? "" : "s");
  if (extra->folded && extra->folded_count) {
    uint32_t here = extra->folded_count - 1 + extra->folded_repeats, elsewhere = more - here;
    if (!other_wgs) fprintf(out, "(%sin this workgroup) ", more == 1 ? "" : "all ");
    else if (!here) fprintf(out, "(in %u other workgroup%s) ", other_wgs, other_wgs == 1 ? "" : "s");
    else
      fprintf(out, "(%u in this workgroup, %u in %u other workgroup%s) ", here, elsewhere, other_wgs,
              other_wgs == 1 ? "" : "s");
  } else {  /* which of them share this workgroup is unknown */
    fprintf(out, "(with this one, in %u workgroup%s) ", extra->same_workgroups,
            extra->same_workgroups == 1 ? "" : "s");
  }
  fprintf(out, "made the same %s at this %s in this dispatch; LDSAN_OPTIONS=dedup=0 prints each\n", c->bug,
          !c->r->pc ? "LDS offset" : extra->by_source ? "source location" : "pc");
}
