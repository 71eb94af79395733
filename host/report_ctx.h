/* ldsan host library: what report.c gathers for one report, shared with the
 * JSON printer (report_json.c). Private to those two files. */
#ifndef LDSAN_HOST_REPORT_CTX_H
#define LDSAN_HOST_REPORT_CTX_H

#include "internal.h"

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
  /* Filled by ldsan_report_ctx_symbolize (dispatch->symbolize, option symbolize): */
  ldsan_frame frames[LDSAN_MAX_FRAMES];  /* the pc's frames, innermost first */
  int nframes;               /* 0: nothing known about the pc */
  int program;               /* the program's own frame: frames[program] is the innermost outside
                                the HIP and compiler headers (ldsan_program_frame) */
  const char *function;      /* frames[program].function, NULL unknown */
  char source[512];          /* frames[program] as "file:line:col" ("file:line", "file"), "" unknown */
} report_ctx;

void ldsan_report_ctx_init(report_ctx *c, const ldsan_report_record *r, const ldsan_device_memory *mem,
                           const ldsan_dispatch_info *dispatch);
/* Asks the backend's symbolizer about the record's pc once; fills c->frames,
 * c->program, c->function and c->source (option symbolize=0: frames[0]'s
 * module only). The frames keep the header frames; function and source, the
 * location a report names, are the program's line. */
void ldsan_report_ctx_symbolize(report_ctx *c);
void ldsan_report_ctx_free(report_ctx *c);

/* Pieces of the text report, shared with the hazard reports (report_hazard.c). */
#define LDSAN_REPORT_RULE "================================================================="
/* "thread (work-item) (x,y,z) lane l of workgroup (x,y,z)" */
void ldsan_report_ids(FILE *out, const ldsan_report_record *r);
/* The record's pc as ASan frames ("    #N 0x<pc> in <function> <file>:<line>:<col>"). */
void ldsan_report_frames(FILE *out, const report_ctx *c);
/* "0x... is located N bytes inside of LDS variable 'x' ..." and the LDS offset line. */
void ldsan_report_describe_address(FILE *out, ldsan_decorator d, const report_ctx *c);

/* "on amdgpu device N (name)" of the headline. */
void ldsan_report_device_words(FILE *out, const ldsan_dispatch_info *dispatch);
/* "SUMMARY: AddressSanitizer: <bug> <file:line:col> in <function>" (option print_summary). */
void ldsan_report_print_summary(FILE *out, const report_ctx *c);
/* report_allocator.c: the text report of the allocator kinds (pool exhausted, ...). */
void ldsan_report_print_allocator(FILE *out, ldsan_decorator d, const report_ctx *c);

/* Frame f as "file:line:col" ("file:line", "file") into buf; "" without a file. */
void ldsan_report_format_source(char *buf, size_t len, const ldsan_frame *f);
/* "N more work-items (...) made the same <bug> at this pc ..." (option dedup). */
void ldsan_report_print_folded(FILE *out, const report_ctx *c, const ldsan_report_extra *extra);
/* report_hazard.c: the text report of a hazard record (report_kinds.def from LDS_DATA_RACE). */
void ldsan_report_print_hazard(FILE *out, ldsan_decorator d, const report_ctx *c, const ldsan_report_extra *extra);

/* asan_heap.c: "0x... is located N bytes after M-byte region [b,e)" and the
 * host stack that allocated it ("allocated by thread T0 here:"; a freed
 * chunk: "freed by", then "previously allocated by"). Needs c->heap_ok. */
void ldsan_report_describe_heap(FILE *out, ldsan_decorator d, const report_ctx *c);

/* report_json.c: the report as one JSON line (option report_format=json). */
void ldsan_report_print_json(FILE *out, const report_ctx *c, const ldsan_report_extra *extra);

#endif /* LDSAN_HOST_REPORT_CTX_H */
