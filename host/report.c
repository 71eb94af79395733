/* ldsan host library: formats one report record as an ASan-style report.
 * Order as compiler-rt: headline, access line, frame, description of the
 * address (LDS variable, layout), shadow dump, SUMMARY. Every value printed
 * comes from the record, the kernel descriptor, the block header or the shadow.
 * Threading: callers hold the report mutex (drain.c). */
#define _POSIX_C_SOURCE 200809L
#include <string.h>
#include <unistd.h>

#include "report_ctx.h"

#define MAX_LAYOUT_LINES 16  /* variables listed around the one hit */
#define UNKNOWN_BLOCK_EXTENT (256u << 10)  /* bytes; above any GPU's LDS (gfx950: 160 KiB) */

static const char *kind_name(uint32_t kind) {
  switch (kind) {
#define LDSAN_REPORT_KIND(ENUM, value, name, description) case value: return name;
#include "ldsan/report_kinds.def"
#undef LDSAN_REPORT_KIND
  default: return "unknown-crash";
  }
}

/* Bug name when the recorded shadow value alone does not decide (0, 1..7):
 * from where the address is, else like ASan from the next granule's shadow. */
static const char *inconclusive_name(const ldsan_report_record *r, const ldsan_device_memory *mem,
                                     uint64_t shadow_offset, const ldsan_location *loc) {
  switch (loc ? loc->where : LDSAN_WHERE_UNKNOWN) {
  case LDSAN_WHERE_HEADER: case LDSAN_WHERE_SLOT: return "lds-buffer-underflow";
  case LDSAN_WHERE_DYNAMIC_AFTER: return "dynamic-lds-buffer-overflow";
  case LDSAN_WHERE_UNKNOWN: break;
  default: return "lds-buffer-overflow";
  }
  uint8_t next;
  if (mem && ldsan_shadow_read(mem, shadow_offset, r->address + LDSAN_SHADOW_GRANULE, &next) == 0 && next >= 8) {
    const char *n = ldsan_shadow_bug_name(next);
    if (n) return n;
  }
  return (r->block && r->address >= r->block) ? "lds-buffer-overflow" : "unknown-crash";
}

static const char *bug_name(const ldsan_report_record *r, const ldsan_device_memory *mem,
                            uint64_t shadow_offset, const ldsan_location *loc) {
  if (r->kind != LDSAN_REPORT_BAD_ACCESS) return kind_name(r->kind);
  uint8_t s = (uint8_t)r->shadow_byte;
  if (s < 8) return inconclusive_name(r, mem, shadow_offset, loc);
  /* An LDS redzone byte below a variable (the slot's padding before the first
   * one) is an underflow of that variable, whatever byte the compiler wrote. */
  int lds_byte = s == LDSAN_SHADOW_LDS_REDZONE || s == LDSAN_SHADOW_LDS_BLOCK_HEADER || s == LDSAN_SHADOW_LDS_COMPILER_SLOT;
  if (lds_byte && loc && (loc->where == LDSAN_WHERE_BEFORE || loc->where == LDSAN_WHERE_HEADER || loc->where == LDSAN_WHERE_SLOT))
    return "lds-buffer-underflow";
  const char *n = ldsan_shadow_bug_name(s);
  return n ? n : "unknown-crash";
}

const char *ldsan_host_bug_name(const ldsan_report_record *record) {
  return bug_name(record, NULL, 0, NULL);
}

/* The kernel's demangled name from its descriptor, else from `fallback` (a
 * symbol name), else "<unknown kernel>"; returns whether it is known. */
static int kernel_name(const ldsan_desc *desc, const char *fallback, char *out, size_t n) {
  const char *raw = desc->valid ? ldsan_desc_string(desc, desc->header.name) : NULL;
  if (!raw) raw = fallback;
  if (raw && *raw) {
    ldsan_demangle(raw, out, n);
    return 1;
  }
  snprintf(out, n, "<unknown kernel>");
  return 0;
}

void ldsan_report_ctx_init(report_ctx *c, const ldsan_report_record *r, const ldsan_device_memory *mem,
                           const ldsan_dispatch_info *dispatch) {
  memset(c, 0, sizeof *c);
  c->r = r;
  c->mem = mem;
  c->dispatch = dispatch;
  if (r->block && mem && mem->read &&
      mem->read(mem->ctx, r->block - LDSAN_BLOCK_HEADER_SIZE, &c->hdr, sizeof c->hdr) == 0)
    /* magic is 0 once freed but self survives; a reused chunk names another kernel. */
    c->hdr_ok = c->hdr.self == r->block && (!r->kernel_desc || c->hdr.kernel_desc == r->kernel_desc);
  uint64_t desc_addr = r->kernel_desc ? r->kernel_desc : (c->hdr_ok ? c->hdr.kernel_desc : 0);
  ldsan_desc_read(&c->desc, mem, desc_addr);
  c->dyn = r->dynamic_size ? r->dynamic_size : (c->hdr_ok ? c->hdr.dynamic_size : 0);

  c->kernel_known = kernel_name(&c->desc, dispatch ? dispatch->kernel_name : NULL, c->kernel, sizeof c->kernel);

  c->loc.where = LDSAN_WHERE_UNKNOWN;
  c->loc.var = -1;
  if (r->block) {
    c->view.block = r->block;
    c->view.dynamic_size = c->dyn;
    c->view.desc = c->desc.valid ? &c->desc : NULL;
    uint64_t used = c->desc.valid ? (uint64_t)c->desc.header.static_size + c->dyn : 0;
    /* The header's chunk size only while its seal vouches for it (abi.h): in
     * recover mode the program may have written over it. */
    if (c->hdr_ok && c->hdr.chunk_seal == ldsan_chunk_seal(r->block, c->hdr.chunk_size, c->hdr.size_class) &&
        c->hdr.chunk_size > LDSAN_BLOCK_HEADER_SIZE && c->hdr.chunk_size < (1ull << 40))
      c->view.chunk_end = r->block - LDSAN_BLOCK_HEADER_SIZE + c->hdr.chunk_size;
    else if (c->desc.valid)
      c->view.chunk_end = r->block + ((used + 7) & ~7ull) + LDSAN_DYNAMIC_TAIL_REDZONE;
    else  /* extent unknown: assume the largest LDS a workgroup can have */
      c->view.chunk_end = r->block + UNKNOWN_BLOCK_EXTENT;
    c->in_block = r->address + LDSAN_BLOCK_HEADER_SIZE >= r->block && r->address < c->view.chunk_end;
    if (c->in_block) c->loc = ldsan_desc_locate(&c->desc, (int64_t)(r->address - r->block), c->dyn);
    if (c->in_block && c->loc.where == LDSAN_WHERE_UNKNOWN) c->loc.offset = (int64_t)(r->address - r->block);
  }
  /* Outside LDS, in ASan's heap or next to it: the emulator's hipMalloc memory (asan_heap.c). */
  uint8_t s = (uint8_t)r->shadow_byte;
  if (r->kind == LDSAN_REPORT_BAD_ACCESS && !c->in_block && (s < 8 || s == 0xfa || s == 0xfb || s == 0xfd))
    c->heap_ok = ldsan_heap_region_of(r->address, &c->heap);
  c->bug = bug_name(r, mem, dispatch ? dispatch->shadow_offset : 0, c->in_block ? &c->loc : NULL);
}

void ldsan_report_ctx_free(report_ctx *c) { ldsan_desc_free(&c->desc); }

const char *ldsan_report_bug_name(const ldsan_report_record *r, const ldsan_device_memory *mem,
                                  const ldsan_dispatch_info *dispatch) {
  report_ctx c;
  ldsan_report_ctx_init(&c, r, mem, dispatch);
  ldsan_report_ctx_free(&c);
  return c.bug;
}

/* "file:line:col" (or "file:line", "file") of frame f into buf; "" without a file. */
void ldsan_report_format_source(char *buf, size_t len, const ldsan_frame *f) {
  if (!f->file) { buf[0] = 0; return; }
  if (f->line && f->column) snprintf(buf, len, "%s:%u:%u", f->file, f->line, f->column);
  else if (f->line) snprintf(buf, len, "%s:%u", f->file, f->line);
  else snprintf(buf, len, "%s", f->file);
}

void ldsan_report_ctx_symbolize(report_ctx *c) {
  c->nframes = c->program = 0;
  c->function = NULL;
  c->source[0] = 0;
  const ldsan_dispatch_info *di = c->dispatch;
  if (!c->r->pc || !di || !di->symbolize) return;
  int n = di->symbolize(di->symbolize_ctx, c->r->pc, c->frames, LDSAN_MAX_FRAMES);
  c->nframes = n < 0 ? 0 : n > LDSAN_MAX_FRAMES ? LDSAN_MAX_FRAMES : n;
  if (c->nframes && !ldsan_flags_get()->symbolize) {  /* bare pc: where the code is, nothing more */
    ldsan_frame bare = {NULL, NULL, 0, 0, c->frames[0].module, c->frames[0].module_offset};
    c->frames[0] = bare;
    c->nframes = bare.module ? 1 : 0;
  }
  if (!c->nframes) return;
  c->program = ldsan_program_frame(c->frames, c->nframes);
  c->function = c->frames[c->program].function;
  ldsan_report_format_source(c->source, sizeof c->source, &c->frames[c->program]);
}

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
void ldsan_report_frames(FILE *out, const report_ctx *c) {
  unsigned long long pc = (unsigned long long)c->r->pc;
  if (!pc) { fprintf(out, "    #0 <pc unknown> in kernel %s\n", c->kernel); return; }
  if (!c->nframes) { fprintf(out, "    #0 0x%llx  (<unknown module>)\n", pc); return; }
  for (int i = 0; i < c->nframes; i++) {
    const ldsan_frame *f = &c->frames[i];
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
  (void)kernel_name(&f.desc, NULL, kernel, sizeof kernel);
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

/* ASan's form: "SUMMARY: AddressSanitizer: <bug> <file:line:col> in <function>" from
 * the program's frame ("(<module>+0x<offset>)" without a line; else the kernel). */
void ldsan_report_print_summary(FILE *out, const report_ctx *c) {
  if (!ldsan_flags_get()->print_summary) return;
  fprintf(out, "SUMMARY: AddressSanitizer: %s ", c->bug);
  const ldsan_frame *f = &c->frames[c->program];
  if (c->source[0]) fprintf(out, "%s ", c->source);
  else if (c->nframes && f->module) fprintf(out, "(%s+0x%llx) ", f->module, (unsigned long long)f->module_offset);
  fprintf(out, "in %s\n", c->function ? c->function : c->kernel);
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

static void print_access(FILE *out, ldsan_decorator d, const report_ctx *c, const ldsan_report_extra *extra) {
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
  ldsan_report_frames(out, c);
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
  if (ldsan_flags_json()) {
    ldsan_report_print_json(out, &c, extra);
  } else {
    ldsan_decorator d = ldsan_decorator_for(out);
    fprintf(out, "%s\n", LDSAN_REPORT_RULE);
    if (r->kind == LDSAN_REPORT_BAD_ACCESS) print_access(out, d, &c, extra);
    else if (ldsan_report_is_hazard(r->kind)) ldsan_report_print_hazard(out, d, &c, extra);
    else ldsan_report_print_allocator(out, d, &c);
  }
  ldsan_report_ctx_free(&c);
}
