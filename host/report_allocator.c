/* ldsan host library: the text report of an LDS allocator failure
 * (lds-pool-exhausted, lds-block-too-large, bad-free of an LDS block, a
 * block header overwritten; an unknown kind): what happened, to whom, the
 * frames, and what to do, from report_parts.c's pieces.
 * Threading: callers hold the report mutex (drain.c). */
#include <unistd.h>

#include "report_ctx.h"

/* Bytes of LDS backing store the dispatch's device uses: its store, else the built-in pool. */
static unsigned long long lds_store_bytes(const report_ctx *c) {
  uint64_t n = c->dispatch ? c->dispatch->lds_store_size : 0;
  return n ? (unsigned long long)n : (unsigned long long)LDSAN_BUILTIN_POOL_SIZE;
}

/* Allocator failures: what happened, to whom, and what to do. */
void ldsan_report_print_allocator(FILE *out, ldsan_decorator d, const report_ctx *c) {
  const ldsan_report_record *r = c->r;
  fprintf(out, "%s==%ld==ERROR: AddressSanitizer: %s ", ldsan_deco_warning(d), (long)getpid(), c->bug);
  if (r->kind == LDSAN_REPORT_BAD_FREE || r->kind == LDSAN_REPORT_BLOCK_HEADER_CORRUPTED)
    fprintf(out, "on address 0x%llx ", (unsigned long long)r->address);
  ldsan_report_device_words(out, c->dispatch);
  fprintf(out, "%s\n", ldsan_deco_end(d));
  unsigned long long size = (unsigned long long)r->size;
  switch (r->kind) {
  case LDSAN_REPORT_POOL_EXHAUSTED:
    fprintf(out, "cannot allocate an LDS block of %llu bytes for kernel %s: the LDS backing pool is full\n", size, c->kernel);
    break;
  case LDSAN_REPORT_BLOCK_TOO_LARGE:
    fprintf(out, "cannot allocate an LDS block of %llu bytes for kernel %s: larger than the whole LDS backing store "
            "(%llu bytes)\n", size, c->kernel, lds_store_bytes(c));
    break;
  case LDSAN_REPORT_BAD_FREE:
    fprintf(out, "attempting to free LDS block 0x%llx, which ldsan did not allocate, in kernel %s\n",
            (unsigned long long)r->address, c->kernel);
    break;
  case LDSAN_REPORT_BLOCK_HEADER_CORRUPTED:
    fprintf(out, "the header of LDS block 0x%llx of kernel %s was overwritten: its sizes no longer match its "
            "chunk of %llu bytes; the block was given back by the chunk's size\n",
            (unsigned long long)r->address, c->kernel, size);
    break;
  default:
    fprintf(out, "unknown report kind %u from the device (address 0x%llx, size %llu): is the code object built with the same ldsan?\n",
            r->kind, (unsigned long long)r->address, size);
  }
  fprintf(out, "  by ");
  ldsan_report_ids(out, r);
  fputc('\n', out);
  ldsan_report_frames(out, &c->site, r->pc, c->kernel);
  switch (r->kind) {
  case LDSAN_REPORT_POOL_EXHAUSTED:
    fprintf(out, "HINT: every workgroup in flight holds one block; the LDS backing store holds %llu bytes. Launch "
            "fewer workgroups at once (smaller grid), use less LDS, or give ldsan a larger store "
            "(LDSAN_OPTIONS=lds_pool_size=%lluM: twice this).\n", lds_store_bytes(c),
            lds_store_bytes(c) >= (1ull << 19) ? (2 * lds_store_bytes(c)) >> 20 : 1ull);
    break;
  case LDSAN_REPORT_BLOCK_TOO_LARGE:
    fprintf(out, "HINT: the block is the kernel's static LDS plus the launch's dynamic LDS plus %u bytes; check the "
            "dynamic LDS size of the launch, or give ldsan a larger store (LDSAN_OPTIONS=lds_pool_size=...; "
            "it must exceed the block by 1.5 MiB).\n", 2 * LDSAN_BLOCK_HEADER_SIZE);
    break;
  case LDSAN_REPORT_BAD_FREE:
    fprintf(out, "HINT: the block pointer in LDS slot 0 was overwritten (look for an earlier lds-buffer-underflow), "
            "or the kernel was lowered without ldsan's runtime.\n");
    break;
  case LDSAN_REPORT_BLOCK_HEADER_CORRUPTED:
    fprintf(out, "HINT: the header sits in the 64 bytes before the kernel's first LDS variable: look for an earlier "
            "lds-buffer-underflow of this workgroup (with halt_on_error=0 the bad store happened after its "
            "report).\n");
    break;
  default: break;
  }
  fputc('\n', out);
  ldsan_report_print_summary(out, c);
}
