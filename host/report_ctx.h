/* ldsan host library: the report context, everything one report says about
 * one record, gathered once (report_ctx.c) and read by everything that looks
 * at a record after it leaves the channel: the drain's redundancy test and
 * dedup key (dedup.c), the dispatcher (report.c) and the printers.
 * Who calls whom (no file calls back up this list):
 *   drain.c, report.c (ldsan_host_print_record)
 *     -> report_ctx.c   builds the context (with report_kind.c's bug name)
 *     -> dedup.c        redundancy test, dedup key
 *     -> report.c       dispatcher: the only file that knows every printer
 *          -> report_text.c (bounds), report_hazard.c, report_allocator.c, report_json.c
 *               -> report_parts.c (text pieces), report_kind.c (what a record is), asan_heap.c
 *     -> stop.c         whether it all stops the program
 * Private to the host library (and its unit tests). */
#ifndef LDSAN_HOST_REPORT_CTX_H
#define LDSAN_HOST_REPORT_CTX_H

#include "internal.h"

/* One pc as a report names it: its frames and the program's own line among them. */
typedef struct report_site {
  ldsan_frame frames[LDSAN_MAX_FRAMES];  /* the pc's frames, innermost first */
  int nframes;               /* 0: nothing known about the pc */
  int program;               /* the program's own frame: frames[program] is the innermost outside
                                the HIP and compiler headers (ldsan_program_frame) */
  const char *function;      /* frames[program].function, NULL unknown */
  char source[512];          /* frames[program] as "file:line:col" ("file:line", "file"), "" unknown */
} report_site;

typedef struct report_ctx {
  const ldsan_report_record *r;
  const ldsan_device_memory *mem;
  const ldsan_dispatch_info *dispatch;
  ldsan_desc desc;
  ldsan_block_header hdr;
  int hdr_ok;                /* hdr was read and names this block (self == block) */
  uint32_t dyn;              /* exact dynamic LDS size */
  ldsan_block_view view;     /* the block's extent, for locating and the shadow dump */
  int in_block;              /* the bad address lies in the block's chunk */
  ldsan_location loc;
  int heap_ok;               /* a bad access outside the block, in host ASan's heap: heap says where */
  ldsan_heap_region heap;
  const char *bug;
  int kernel_known;          /* kernel holds a name (else "<unknown kernel>") */
  char kernel[512];
  /* A hazard's second access (every hazard kind but lds-uninitialized-read):
   * other_rec is the record as that access's own (ldsan_report_other_record). */
  int has_other;
  ldsan_report_record other_rec;
  /* Filled by ldsan_report_ctx_symbolize (dispatch->symbolize, option symbolize): */
  int symbolized;
  report_site site;          /* r->pc */
  report_site other;         /* other_rec.pc, when has_other */
} report_ctx;

/* ---- report_ctx.c: building the context ----------------------------------- */
/* Reads what the record names (block header, kernel descriptor, heap region),
 * locates the address and names the bug. No symbolization. */
void ldsan_report_ctx_init(report_ctx *c, const ldsan_report_record *r, const ldsan_device_memory *mem,
                           const ldsan_dispatch_info *dispatch);
/* Asks the backend's symbolizer about the record's pc (and the second
 * access's) once; fills c->site (c->other) (option symbolize=0: frames[0]'s
 * module only). The frames keep the header frames; function and source, the
 * location a report names, are the program's line. Idempotent. */
void ldsan_report_ctx_symbolize(report_ctx *c);
void ldsan_report_ctx_free(report_ctx *c);
/* The kernel's demangled name from its descriptor, else from `fallback` (a
 * symbol name), else "<unknown kernel>"; returns whether it is known. */
int ldsan_report_kernel_name(const ldsan_desc *desc, const char *fallback, char *out, size_t n);
/* Frame f as "file:line:col" ("file:line", "file") into buf; "" without a file. */
void ldsan_report_format_source(char *buf, size_t len, const ldsan_frame *f);

/* ---- report_kind.c: the bug name (the rest of it is in internal.h) -------- */
/* Bug name of record r; loc (NULL: not in its block) and the shadow after the
 * address (through mem, at shadow_offset) decide what the recorded shadow
 * value alone does not. A static string. */
const char *ldsan_report_bug_of(const ldsan_report_record *r, const ldsan_device_memory *mem, uint64_t shadow_offset,
                                const ldsan_location *loc);

/* ---- report.c: the dispatcher --------------------------------------------- */
/* Prints one full report of a symbolized context (no ABORTING line): JSON
 * (report_format=json), else the text report of its kind. */
void ldsan_report_print(FILE *out, const report_ctx *c, const ldsan_report_extra *extra);

/* ---- the printers, called by report.c only -------------------------------- */
/* report_text.c: the text report of a bad access (LDSAN_REPORT_BAD_ACCESS). */
void ldsan_report_print_access(FILE *out, ldsan_decorator d, const report_ctx *c, const ldsan_report_extra *extra);
/* report_hazard.c: the text report of a hazard record (report_kinds.def from LDS_DATA_RACE). */
void ldsan_report_print_hazard(FILE *out, ldsan_decorator d, const report_ctx *c, const ldsan_report_extra *extra);
/* report_allocator.c: the text report of the allocator kinds (pool exhausted, ...). */
void ldsan_report_print_allocator(FILE *out, ldsan_decorator d, const report_ctx *c);
/* report_json.c: the report as one JSON line (option report_format=json). */
void ldsan_report_print_json(FILE *out, const report_ctx *c, const ldsan_report_extra *extra);

/* ---- report_parts.c: pieces of the text reports, shared by the printers --- */
#define LDSAN_REPORT_RULE "================================================================="
/* "thread (work-item) (x,y,z) lane l of workgroup (x,y,z)" */
void ldsan_report_ids(FILE *out, const ldsan_report_record *r);
/* pc's frames as ASan's ("    #N 0x<pc> in <function> <file>:<line>:<col>"); kernel: when pc is 0. */
void ldsan_report_frames(FILE *out, const report_site *s, uint64_t pc, const char *kernel);
/* "0x... is located N bytes inside of LDS variable 'x' ..." and the LDS offset line. */
void ldsan_report_describe_address(FILE *out, ldsan_decorator d, const report_ctx *c);
/* "on amdgpu device N (name)" of the headline. */
void ldsan_report_device_words(FILE *out, const ldsan_dispatch_info *dispatch);
/* "SUMMARY: AddressSanitizer: <bug> <file:line:col> in <function>" (option print_summary). */
void ldsan_report_print_summary(FILE *out, const report_ctx *c);
/* "N more work-items (...) made the same <bug> at this pc ..." (option dedup). */
void ldsan_report_print_folded(FILE *out, const report_ctx *c, const ldsan_report_extra *extra);

/* ---- asan_heap.c ---------------------------------------------------------- */
/* "0x... is located N bytes after M-byte region [b,e)" and the
 * host stack that allocated it ("allocated by thread T0 here:"; a freed
 * chunk: "freed by", then "previously allocated by"). Needs c->heap_ok. */
void ldsan_report_describe_heap(FILE *out, ldsan_decorator d, const report_ctx *c);

/* ---- dedup.c: which records make one report ------------------------------- */
/* Records of one dispatch that dedup treats as one report. */
typedef struct ldsan_dedup_key {
  uint32_t kind, write, hazard, same_wave;
  uint64_t kernel_desc, pc, where;  /* where: LDS offset when the pc is unknown */
  uint64_t other_pc;                /* hazards: the pc pair */
  uint64_t site, other_site;        /* the pcs' source locations (source_site), 0 unknown */
  const char *bug;                  /* static string from the bug-name tables */
} ldsan_dedup_key;
/* Whether c's record says again what another report of the same access says:
 * an lds-uninitialized-read whose bytes all lie outside every LDS variable
 * of the kernel (redzones, padding, the compiler's slot) was out of bounds,
 * and its bounds report says so (the drain prints one report per bad
 * access, and counts the record as folded into that one: deduplicated). */
int ldsan_dedup_is_redundant(const report_ctx *c);
/* Forgets the source sites looked up so far (each drain: another dispatch's
 * pcs may be another code object's). */
void ldsan_dedup_forget_sites(void);
/* c's key; dedup: option dedup (0: no source sites are looked up). */
ldsan_dedup_key ldsan_dedup_key_of(const report_ctx *c, int dedup);
int ldsan_dedup_same(const ldsan_dedup_key *a, const ldsan_dedup_key *b);

#endif /* LDSAN_HOST_REPORT_CTX_H */
