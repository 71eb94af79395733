/* ldsan host library API: turns device report records into ASan-style reports.
 * Used by the CPU emulator and (later) the HSA tools library. Host C only.
 * Thread-safety: ldsan_host_* calls may come from several threads; printing a
 * report is serialized internally so reports never interleave. */
#ifndef LDSAN_HOST_H
#define LDSAN_HOST_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "abi.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Reads n bytes of device memory at addr into dst; returns 0 on success.
 * The emulator's reader is a plain memcpy; a GPU reader copies from the agent. */
typedef struct ldsan_device_memory {
  void *ctx;
  int (*read)(void *ctx, uint64_t addr, void *dst, size_t n);
} ldsan_device_memory;

/* Optional: turns a device pc into "function at file:line"; returns 0 and
 * fills buf on success. NULL means pcs are printed as bare addresses. */
typedef int (*ldsan_symbolizer)(void *ctx, uint64_t pc, char *buf, size_t len);

/* What the host knows about the dispatch the records came from. */
typedef struct ldsan_dispatch_info {
  const char *kernel_name;   /* symbol name as launched, or NULL */
  uint32_t grid_size[3];     /* workgroups per dimension */
  uint32_t block_size[3];    /* work-items per workgroup per dimension */
  int device;                /* agent index */
  const char *device_name;   /* e.g. "gfx90a:xnack+" or "cpu-emulator", or NULL */
  ldsan_symbolizer symbolize;
  void *symbolize_ctx;
} ldsan_dispatch_info;

/* Reads LDSAN_OPTIONS once (idempotent). Unknown or malformed options are
 * reported on stderr as "ldsan: warning: ..." and ignored. */
void ldsan_host_init(void);

/* Prints `ldsan: option help` for every option (LDSAN_OPTIONS=help=1 does it too). */
void ldsan_host_print_help(FILE *out);

/* Whether aborting reports should stop execution (option halt_on_error, default 1). */
int ldsan_host_halt_on_error(void);

/* Exit status to use when a program dies from a report (option exitcode, default 1). */
int ldsan_host_exitcode(void);

/* Prints every READY record of the channel, in claim order, as full reports to
 * the configured log (stderr by default), says how many were dropped or lost,
 * and resets the channel for the next dispatch. Returns the number of error
 * reports printed. `channel` is host-visible memory (a copy is fine). */
int ldsan_host_drain_channel(ldsan_report_channel *channel, const ldsan_device_memory *mem,
                             const ldsan_dispatch_info *dispatch);

/* What one drain saw (additive to the API above: callers that must decide
 * whether to exit use it). */
typedef struct ldsan_drain_stats {
  uint32_t errors;           /* READY error records in the channel */
  uint32_t printed;          /* of those, printed as full reports */
  uint32_t deduplicated;     /* folded into an earlier report (option dedup) */
  uint32_t over_limit;       /* not printed because of option report_limit */
  uint32_t lost;             /* claimed slots never marked READY */
  uint32_t dropped;          /* reports the full channel could not take */
  int must_abort;            /* 1: a record is aborting and halt_on_error is set;
                                "==PID==ABORTING" was printed, the caller should
                                exit(ldsan_host_exitcode()) */
} ldsan_drain_stats;

/* ldsan_host_drain_channel, also filling *stats (may be NULL). */
int ldsan_host_drain_channel_stats(ldsan_report_channel *channel, const ldsan_device_memory *mem,
                                   const ldsan_dispatch_info *dispatch, ldsan_drain_stats *stats);

/* Prints one report for one record (the building block of drain). `out` NULL
 * means the configured log. Ends with "==PID==ABORTING" if the record aborts
 * (halt_on_error set, record not NOABORT); the caller exits. */
void ldsan_host_print_record(const ldsan_report_record *record, const ldsan_device_memory *mem,
                             const ldsan_dispatch_info *dispatch, FILE *out);

/* The stable kebab-case bug name of a record, e.g. "lds-buffer-overflow". */
const char *ldsan_host_bug_name(const ldsan_report_record *record);

#ifdef __cplusplus
}
#endif
#endif /* LDSAN_HOST_H */
