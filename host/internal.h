/* ldsan host library: internal prototypes, grouped by the file that defines them.
 * Not installed; unit tests under test/host/ include it to reach the pieces.
 * Threading: everything here is called with the report mutex held (drain.c),
 * except the flags/log functions, which are idempotent and set up once. */
#ifndef LDSAN_HOST_INTERNAL_H
#define LDSAN_HOST_INTERNAL_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "ldsan/host.h"

/* ---- flags.c: ASAN_OPTIONS + LDSAN_OPTIONS (declared once in flags.inc) -- */
typedef int ldsan_flag_bool;
typedef int ldsan_flag_int;
typedef int ldsan_flag_level;     /* 0, 1 or 2 */
typedef int ldsan_flag_threads;   /* 0 (one per core) .. LDSAN_MAX_EMU_THREADS */
typedef int ldsan_flag_stack_kb;  /* 0 (built in) or LDSAN_MIN_STACK_KB .. LDSAN_MAX_STACK_KB */
#define LDSAN_MAX_EMU_THREADS 1024
#define LDSAN_MIN_STACK_KB 16
#define LDSAN_MAX_STACK_KB (1 << 20)
typedef int ldsan_flag_seconds;   /* 0 (never) .. LDSAN_MAX_SECONDS */
#define LDSAN_MAX_SECONDS 1000000
/* lds_pool_size: up to 1 TiB (the store and its shadow are summed and mapped). */
#define LDSAN_MAX_LDS_POOL_SIZE (1ull << 40)
/* What each option type accepts: the text a parser gives as "expected" when
 * it refuses a value (host/flags.c), and the values column of the options
 * page (tools/options_doc.c, docs/options.md). Numbers as the limits above. */
#define LDSAN_VALUES_bool "0 or 1"
#define LDSAN_VALUES_int "an integer"
#define LDSAN_VALUES_level "0, 1 or 2"
#define LDSAN_VALUES_threads "0 (one per core, at most 64) or 1 to 1024 workers"
#define LDSAN_VALUES_stack_kb "0 (the built-in size) or 16 to 1048576 KiB"
#define LDSAN_VALUES_seconds "0 (never) or 1 to 1000000 seconds"
#define LDSAN_VALUES_size "a size in bytes up to 1 TiB (optionally with K, M or G)"
#define LDSAN_VALUES_color "auto, always or never"
#define LDSAN_VALUES_format "text or json"
#define LDSAN_VALUES_path "stderr, stdout or a path"
#define LDSAN_VALUES_string "any text, also empty"
typedef unsigned long long ldsan_flag_size; /* bytes */
typedef char ldsan_flag_color[8];    /* "auto" | "always" | "never" */
typedef char ldsan_flag_format[8];   /* "text" | "json" */
typedef char *ldsan_flag_path;       /* "stderr" | "stdout" | file prefix; heap, any length */
typedef char *ldsan_flag_string;     /* heap, any length, may be empty */

typedef struct ldsan_flags {
#define LDSAN_FLAG(type, name, default_value, description) ldsan_flag_##type name;
#include "flags.inc"
#undef LDSAN_FLAG
} ldsan_flags;

/* The emulator's knobs from the current options, the LDSAN_EMU_* environment
 * variables winning (ldsan_host_emu_options without the one-time init). */
void ldsan_flags_emu_options(ldsan_emu_options *out);

/* Where an options string comes from. ASAN_OPTIONS sets only the options of
 * flags.inc's table 2 and skips every other key silently. */
typedef enum ldsan_options_source { LDSAN_FROM_LDSAN_OPTIONS, LDSAN_FROM_ASAN_OPTIONS } ldsan_options_source;

/* The current options (defaults until ldsan_host_init ran). Never NULL. */
const ldsan_flags *ldsan_flags_get(void);
/* Resets every option to its default. */
void ldsan_flags_set_defaults(void);
/* Frees the options' heap memory (library unload); defaults come back on next use. */
void ldsan_flags_release(void);
/* Applies an LDSAN_OPTIONS string over the current options. Messages go to
 * `out`: "ldsan: warning:" (unknown option) or "ldsan: error:" (malformed:
 * bad value, no value, unterminated quote; the option keeps its value).
 * Returns the number of messages. */
int ldsan_flags_parse(const char *options, FILE *out);
/* The same for a string from `source`; *errors (may be NULL) gets the number of errors. */
int ldsan_flags_parse_from(const char *options, ldsan_options_source source, FILE *out, int *errors);
/* What ldsan_host_init does: defaults, then ASAN_OPTIONS, then LDSAN_OPTIONS
 * (either may be NULL). Returns the number of errors (ldsan_host_init then exits 1). */
int ldsan_flags_load(const char *asan_options, const char *ldsan_options, FILE *out);
/* Whether reports are JSON lines (report_format=json). */
int ldsan_flags_json(void);

/* ---- log.c: where reports go (option log_path) --------------------------- */
/* The configured report stream; opens "<log_path>.<pid>" on first use. */
FILE *ldsan_log_stream(void);
/* Tests: send reports to `f` instead (NULL restores log_path). */
void ldsan_log_override(FILE *f);
/* Closes the log file (if one is open); the next report opens it again. */
void ldsan_log_close(void);

/* ---- decorator.c: colours by role (option color) ------------------------- */
typedef struct ldsan_decorator {
  int on;  /* emit ANSI escapes */
} ldsan_decorator;
/* A decorator for `out` honouring color=auto|always|never. */
ldsan_decorator ldsan_decorator_for(FILE *out);
const char *ldsan_deco_bold(ldsan_decorator d);
const char *ldsan_deco_warning(ldsan_decorator d);   /* headline, SUMMARY-worthy */
const char *ldsan_deco_access(ldsan_decorator d);    /* READ/WRITE line */
const char *ldsan_deco_location(ldsan_decorator d);  /* "is located ..." */
const char *ldsan_deco_variable(ldsan_decorator d);  /* LDS variable names */
const char *ldsan_deco_shadow(ldsan_decorator d, uint8_t shadow_byte);
const char *ldsan_deco_end(ldsan_decorator d);

/* ---- demangle.c ----------------------------------------------------------- */
/* Writes the demangled form of `name` into buf (or `name` itself when it is not
 * a mangled C++ name or no demangler is available). Returns buf. */
const char *ldsan_demangle(const char *name, char *buf, size_t len);

/* ---- descriptor.c: the kernel LDS descriptor blob ------------------------ */
#define LDSAN_DESC_MAX_SIZE (1u << 20)   /* bytes; a larger total_size is garbage */

typedef struct ldsan_desc {
  int valid;                 /* 1: header, records and strings checked */
  char why[160];             /* when !valid: what was wrong, quoting the bad value */
  uint64_t address;          /* device address it was read from */
  ldsan_kernel_desc header;
  const ldsan_var_desc *vars;/* header.var_count records inside blob */
  unsigned char *blob;       /* owned copy of the whole blob */
} ldsan_desc;

/* Reads and validates the descriptor at `address` (0 gives !valid, why "none").
 * Never trusts the blob: every count, size and string offset is bounds-checked. */
void ldsan_desc_read(ldsan_desc *d, const ldsan_device_memory *mem, uint64_t address);
void ldsan_desc_free(ldsan_desc *d);
/* String at blob offset `off`, or NULL (offset 0, out of range, unterminated). */
const char *ldsan_desc_string(const ldsan_desc *d, uint32_t off);

/* Where an LDS-block offset falls relative to the kernel's variables. */
typedef enum ldsan_where {
  LDSAN_WHERE_UNKNOWN,       /* no valid descriptor or no block */
  LDSAN_WHERE_HEADER,        /* before the block: its header */
  LDSAN_WHERE_SLOT,          /* the compiler's pointer slot (or its redzone) */
  LDSAN_WHERE_INSIDE,        /* inside variable `var` */
  LDSAN_WHERE_AFTER,         /* `distance` bytes after the end of `var` */
  LDSAN_WHERE_BEFORE,        /* `distance` bytes before the start of `var` */
  LDSAN_WHERE_DYNAMIC_AFTER, /* `distance` bytes after the end of dynamic LDS */
  LDSAN_WHERE_PAST_BLOCK,    /* beyond every variable and the dynamic tail */
} ldsan_where;

typedef struct ldsan_location {
  ldsan_where where;
  int var;                   /* index into desc vars, -1 none */
  int64_t offset;            /* the address as an LDS offset (block-relative) */
  uint64_t distance;         /* bytes before/after/inside as `where` says */
} ldsan_location;

/* Locates LDS offset `off` (may be negative) among the variables of `d`.
 * dynamic_size: the dispatch's exact dynamic LDS size. */
int ldsan_desc_first_var_after(const ldsan_desc *d, int64_t off);
ldsan_location ldsan_desc_locate(const ldsan_desc *d, int64_t off, uint32_t dynamic_size);
/* Size of variable i as laid out in this dispatch (dynamic: dynamic_size). */
uint64_t ldsan_var_size(const ldsan_desc *d, int i, uint32_t dynamic_size);
/* Display name of variable i: source name, else demangled IR name. */
const char *ldsan_var_name(const ldsan_desc *d, int i, char *buf, size_t len);

/* ---- shadow_dump.c -------------------------------------------------------- */
/* Reads the shadow byte of addr through mem, the shadow being where
 * shadow_offset says (ldsan_dispatch_info.shadow_offset); returns 0 on success. */
int ldsan_shadow_read(const ldsan_device_memory *mem, uint64_t shadow_offset, uint64_t addr, uint8_t *out);
/* The bug name for shadow value `s` (ASan's and ldsan's), or NULL if unknown. */
const char *ldsan_shadow_bug_name(uint8_t s);

typedef struct ldsan_block_view {
  uint64_t block;            /* block address, 0 unknown */
  uint64_t chunk_end;        /* first address past the chunk's tail redzone */
  uint32_t dynamic_size;
  const ldsan_desc *desc;    /* valid descriptor, or NULL */
} ldsan_block_view;

/* Prints ASan's "Shadow bytes around the buggy address" block for `addr`
 * (whose recorded shadow value was `recorded`). If the live shadow no longer
 * holds `recorded` and `view` describes the block, prints the shadow the
 * descriptor implies instead and says so. Then the legend if print_legend. */
void ldsan_shadow_dump(FILE *out, ldsan_decorator d, const ldsan_device_memory *mem, uint64_t shadow_offset,
                       uint64_t addr, uint8_t recorded, const ldsan_block_view *view);

/* ---- report.c (report_ctx.h: the report path's own prototypes) ------------- */
/* Extra facts drain.c adds to a report (dedup). */
typedef struct ldsan_report_extra {
  uint32_t same_lanes;       /* other work-items with the same kernel+source site (or pc)+bug, not printed */
  uint32_t same_workgroups;  /* distinct workgroups among them and this record */
  /* The records of this record's workgroup folded into this report, this one
   * first (NULL: only this record is known). */
  const ldsan_report_record *const *folded;
  uint32_t folded_count;
  uint32_t folded_repeats;   /* work-items of this workgroup the folded records' writers counted (repeats) */
  int by_source;             /* folded by source location (pcs of one line and column, inlined frames alike), not by pc */
} ldsan_report_extra;

/* ---- report_kind.c: what a record is (its bug name: report_ctx.h) -------- */
/* Whether a report kind is one of the hazards (a second access in other_*). */
int ldsan_report_is_hazard(uint32_t kind);
/* Whether a record is an error (else a warning: LDSAN_REPORT_WARNING). */
int ldsan_report_is_error(const ldsan_report_record *r);
/* "read-after-write", ... for an ldsan_hazard; NULL for 0 or unknown. */
const char *ldsan_hazard_name(uint32_t hazard);
/* The record's second access as a record of its own (pc, work-item, lane, size, flags). */
void ldsan_report_other_record(const ldsan_report_record *r, ldsan_report_record *other);

/* ---- stop.c: whether what was reported stops the program ------------------- */
/* What a drain (or one printed record) found that bears on stopping. */
typedef struct ldsan_stop_facts {
  uint32_t errors;           /* error records (not LDSAN_REPORT_WARNING) */
  uint32_t fatal;            /* of those, not recoverable (not LDSAN_ACCESS_NOABORT) */
  uint32_t lost, dropped;    /* records never finished, reports the channel could not take */
  int bad_channel;           /* the channel's header cannot be trusted */
} ldsan_stop_facts;
/* Adds record r to f. */
void ldsan_stop_note(ldsan_stop_facts *f, const ldsan_report_record *r);
/* Whether f stops the program under the current options (the rule: stop.c). */
int ldsan_stop_decide(const ldsan_stop_facts *f);
/* "==PID==ABORTING", the line before the end (ldsan_host_die). */
void ldsan_stop_announce(FILE *out);
/* The device's share of the rule, for ldsan_device_state.flags
 * (LDSAN_STATE_HALT_ON_ERROR: trap on a fatal error). */
uint32_t ldsan_stop_device_flags(void);

/* ---- symbolize.c: the external symbolizer (ldsan_symbolize_module) ---------- */
/* Tests: stops the symbolizer, empties the cache (frames returned before become
 * invalid), forgets an earlier failure (the next failure warns again) and sets
 * the answer timeout in ms (<= 0: the default, 30 s). The next lookup starts the
 * symbolizer the options name then. */
void ldsan_symbolizer_reset(int timeout_ms);
/* Process id of the running symbolizer, 0 if none (tests). */
long ldsan_symbolizer_pid(void);

/* ---- program_frame.c: the program's own frame among a pc's frames --------- */
/* Whether frame f's file is a header of the HIP runtime or of the compiler's
 * resource directory (the rule is in program_frame.c). */
int ldsan_frame_in_toolchain_header(const ldsan_frame *f);
/* Index of the innermost of frames[0..n) outside those headers; the last
 * frame if all are in them; 0 when n <= 0. */
int ldsan_program_frame(const ldsan_frame *frames, int n);

/* ---- asan_heap.c: a bad address in host ASan's heap (the emulator's hipMalloc) */
#define LDSAN_HEAP_STACK_FRAMES 64  /* frames kept of an allocation's (a free's) host stack */
typedef struct ldsan_heap_region {
  uint64_t begin, size;      /* the chunk the user asked for: [begin, begin + size) */
  int alloc_thread;          /* ASan's thread number (T0 the main thread), -1 unknown */
  int free_thread;
  uint32_t alloc_depth;      /* frames in alloc_pcs (return addresses, innermost first) */
  uint32_t free_depth;       /* 0: the chunk is live */
  uint64_t alloc_pcs[LDSAN_HEAP_STACK_FRAMES];
  uint64_t free_pcs[LDSAN_HEAP_STACK_FRAMES];
} ldsan_heap_region;
/* Whether host ASan knows addr as (next to) one of its heap chunks; fills h.
 * 0 in a program without ASan, and for every other kind of memory. */
int ldsan_heap_region_of(uint64_t addr, ldsan_heap_region *h);
/* ldsan_symbolize_host_pc for a pc of those stacks (ASan's interceptor named as ASan names it). */
int ldsan_heap_symbolize(uint64_t pc, ldsan_frame *frames, int max_frames);
/* "before", "after" or "inside of" the region, and how many bytes. */
const char *ldsan_heap_relation(uint64_t addr, const ldsan_heap_region *h, uint64_t *distance);

/* ---- locks.c: the library's locks, nested in this order, and fork() -------- */
void ldsan_images_lock(void);  /* the code objects' registry (images.c) */
void ldsan_images_unlock(void);
void ldsan_report_lock(void);  /* one drain or report printed at a time */
void ldsan_report_unlock(void);
void ldsan_stores_lock(void);  /* the LDS stores (images.c) */
void ldsan_stores_unlock(void);
/* Makes fork() take the library's locks around itself (once; pthread_atfork). */
void ldsan_host_fork_safe(void);

/* ---- launch_site.c ------------------------------------------------------------ */
/* Prints where the dispatch was launched (its launch_pcs, runtime frames
 * dropped), headed by the kernel's name; nothing when unknown. */
void ldsan_print_launch_site(FILE *out, const ldsan_dispatch_info *d, const char *kernel);
/* "    #<index> 0x<pc> in <function> <file>:<line>:<col>" of a host frame. */
void ldsan_print_host_frame(FILE *out, int index, uint64_t pc, const ldsan_frame *f);

/* ---- die.c: one death per process ------------------------------------------ */
/* Claims the right to end the process: 1 for the first caller (and again for
 * the same thread), 0 if another thread already did. */
int ldsan_die_claim(void);
/* 1 when another thread has claimed death: the caller must print nothing more. */
int ldsan_dying_elsewhere(void);
/* Never returns (pause() loop): what threads do while another one dies. */
__attribute__((noreturn)) void ldsan_block_forever(void);

#endif /* LDSAN_HOST_INTERNAL_H */
