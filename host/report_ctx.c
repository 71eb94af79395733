/* ldsan host library: the report context of one record (report_ctx.h), built
 * once per record by the drain (or ldsan_host_print_record): the block header
 * and kernel descriptor the record names, where its address lies (an LDS
 * variable, the block's extent, host ASan's heap), the kernel's name and the
 * bug's; then, only for a record that gets printed, its pcs' frames. Every
 * value comes from the record, the descriptor, the block header or the
 * shadow. Calls no printer. Threading: callers hold the report mutex (drain.c). */
#define _POSIX_C_SOURCE 200809L
#include <string.h>

#include "report_ctx.h"

#define UNKNOWN_BLOCK_EXTENT (256u << 10)  /* bytes; above any GPU's LDS (gfx950: 160 KiB) */

int ldsan_report_kernel_name(const ldsan_desc *desc, const char *fallback, char *out, size_t n) {
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

  c->kernel_known = ldsan_report_kernel_name(&c->desc, dispatch ? dispatch->kernel_name : NULL, c->kernel,
                                             sizeof c->kernel);

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
  c->bug = ldsan_report_bug_of(r, mem, dispatch ? dispatch->shadow_offset : 0, c->in_block ? &c->loc : NULL);
  c->has_other = ldsan_report_is_hazard(r->kind) && r->kind != LDSAN_REPORT_LDS_UNINIT_READ;
  if (c->has_other) ldsan_report_other_record(r, &c->other_rec);
}

void ldsan_report_ctx_free(report_ctx *c) { ldsan_desc_free(&c->desc); }

void ldsan_report_format_source(char *buf, size_t len, const ldsan_frame *f) {
  if (!f->file) { buf[0] = 0; return; }
  if (f->line && f->column) snprintf(buf, len, "%s:%u:%u", f->file, f->line, f->column);
  else if (f->line) snprintf(buf, len, "%s:%u", f->file, f->line);
  else snprintf(buf, len, "%s", f->file);
}

/* pc's frames into s (nothing known: s->nframes 0). */
static void symbolize_pc(report_site *s, uint64_t pc, const ldsan_dispatch_info *di) {
  s->nframes = s->program = 0;
  s->function = NULL;
  s->source[0] = 0;
  if (!pc || !di || !di->symbolize) return;
  int n = di->symbolize(di->symbolize_ctx, pc, s->frames, LDSAN_MAX_FRAMES);
  s->nframes = n < 0 ? 0 : n > LDSAN_MAX_FRAMES ? LDSAN_MAX_FRAMES : n;
  if (s->nframes && !ldsan_flags_get()->symbolize) {  /* bare pc: where the code is, nothing more */
    ldsan_frame bare = {NULL, NULL, 0, 0, s->frames[0].module, s->frames[0].module_offset};
    s->frames[0] = bare;
    s->nframes = bare.module ? 1 : 0;
  }
  if (!s->nframes) return;
  s->program = ldsan_program_frame(s->frames, s->nframes);
  s->function = s->frames[s->program].function;
  ldsan_report_format_source(s->source, sizeof s->source, &s->frames[s->program]);
}

void ldsan_report_ctx_symbolize(report_ctx *c) {
  if (c->symbolized) return;
  c->symbolized = 1;
  symbolize_pc(&c->site, c->r->pc, c->dispatch);
  if (c->has_other) symbolize_pc(&c->other, c->other_rec.pc, c->dispatch);
}
