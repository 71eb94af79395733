/* ldsan host library API: turns device report records into ASan-style reports.
 * Used by the CPU emulator and the HSA tools library (host/hsa/). Host C only.
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

/* One frame of a symbolized pc: where the code is (module) and, when debug
 * info says, the source it came from. A pc in inlined code has several frames
 * (the same pc), innermost first, as llvm-symbolizer --inlining gives them. */
typedef struct ldsan_frame {
  const char *function;      /* demangled function name, NULL unknown */
  const char *file;          /* source file as compiled (relative names stay relative), NULL unknown */
  uint32_t line, column;     /* 0 unknown */
  const char *module;        /* file the code is in (executable, code object), NULL unknown */
  uint64_t module_offset;    /* the pc's address in `module`, printed "(module+0x...)" when
                                there is no source line */
} ldsan_frame;

/* Most frames a report prints for one pc. */
#define LDSAN_MAX_FRAMES 16

/* Optional backend callback: what is at device pc `pc` (a record's pc: the
 * return address of the call into the device runtime, so the backend looks up
 * the call, e.g. pc - 1). Fills frames[0..n) and returns n (0: nothing known,
 * the pc prints bare). Strings must stay valid until the report is printed
 * (ldsan_symbolize_module's do until exit). Called with the report mutex held,
 * also under option symbolize=0 (the host then keeps only frames[0].module and
 * module_offset; ldsan_symbolize_module runs nothing then). NULL: bare pcs. */
typedef int (*ldsan_symbolizer)(void *ctx, uint64_t pc, ldsan_frame *frames, int max_frames);

/* Symbolizes `address` in the ELF file `module` (an executable, a shared
 * object, a code object written to a file) with the external symbolizer
 * (llvm-symbolizer-22, else llvm-symbolizer on PATH, or option
 * external_symbolizer_path; one long-lived child process, answers cached per
 * (module, address)). `address` is an ELF virtual address as the file's
 * symbols and line tables use (for a loaded object: pc - load bias); it is
 * looked up as given, so pass a return address minus 1. Fills frames[0..n),
 * innermost first, and returns n >= 1: every frame has module = `module`'s
 * cached copy and module_offset = address (a caller that looked up pc - 1
 * sets it back to the pc's offset for display); function/file/line/column are set
 * where debug info (or the symbol table, for the function) says. When the
 * symbolizer cannot run (one "ldsan: warning:" line per process) or option
 * symbolize=0, the one frame has only module and module_offset. Returns 0 for
 * a NULL/empty module or max_frames <= 0. Strings stay valid until exit.
 * Thread-safe; never blocks longer than the symbolizer's answer timeout (30 s). */
int ldsan_symbolize_module(const char *module, uint64_t address, ldsan_frame *frames, int max_frames);

/* Symbolizes a return address `pc` of this process's own code (the
 * executable or a shared object loaded in it): finds the object and its load
 * bias, then ldsan_symbolize_module on the call before pc. module_offset is the
 * pc's. Returns the number of frames, 0 if pc is in no loaded object. */
int ldsan_symbolize_host_pc(uint64_t pc, ldsan_frame *frames, int max_frames);

/* What the host knows about the dispatch the records came from. */
typedef struct ldsan_dispatch_info {
  const char *kernel_name;   /* symbol name as launched, or NULL */
  uint32_t grid_size[3];     /* workgroups per dimension */
  uint32_t block_size[3];    /* work-items per workgroup per dimension */
  int device;                /* agent index */
  const char *device_name;   /* e.g. "gfx90a:xnack+" or "cpu-emulator", or NULL */
  ldsan_symbolizer symbolize;
  void *symbolize_ctx;
  /* Which records are this dispatch's: those whose `dispatch` field (the
   * implicit-argument pointer) lies in [args_begin, args_end), its kernel
   * argument segment. Both 0: every READY record (one dispatch at a time). */
  uint64_t args_begin, args_end;
  /* 1: no dispatch can be running any more (queue error, exit): slots still
   * WRITING belong to lanes that died mid-record and are counted as lost. */
  int final;
  /* Where the dispatch was launched: the launching host thread's return
   * addresses, innermost first (backtrace(3) at the launch), or none. Reports
   * print them after dropping the frames of the HIP/HSA runtimes and ldsan. */
  const uint64_t *launch_pcs;
  uint32_t launch_depth;
  /* Bytes of the LDS backing store the dispatch's device uses (0: the code
   * object's built-in pool). Filled by the host library. */
  uint64_t lds_store_size;
  /* Where the shadow of the dispatch's LDS blocks is: shadow(addr) = (addr >> 3)
   * + shadow_offset. 0: ASan's (LDSAN_SHADOW_OFFSET); LDSAN_SHADOW_UNREADABLE:
   * nowhere the host knows (an LDS-only code object on its built-in pool).
   * Filled by the host library. */
  uint64_t shadow_offset;
} ldsan_dispatch_info;

#define LDSAN_SHADOW_UNREADABLE UINT64_MAX

/* Most launch frames a backend records (and a report prints). */
#define LDSAN_MAX_LAUNCH_FRAMES 32

/* Records the calling thread's return addresses, innermost first, into pcs (at
 * most max, <= LDSAN_MAX_LAUNCH_FRAMES): what a backend stores in
 * ldsan_dispatch_info.launch_pcs when a dispatch is launched. Returns how many. */
uint32_t ldsan_host_launch_stack(uint64_t *pcs, uint32_t max);

/* Reads the options once (idempotent): ASAN_OPTIONS (only the options ASan
 * shares with ldsan), then LDSAN_OPTIONS over them. An unknown option is a
 * "ldsan: warning: ..." on stderr; a malformed one an "ldsan: error: ...",
 * after which the process exits with status 1. */
void ldsan_host_init(void);

/* Prints `ldsan: option help` for every option (LDSAN_OPTIONS=help=1 does it too). */
void ldsan_host_print_help(FILE *out);

/* Whether aborting reports should stop execution (option halt_on_error, default 1). */
int ldsan_host_halt_on_error(void);

/* Exit status to use when a program dies from a report (option exitcode, default 1). */
int ldsan_host_exitcode(void);

/* The CPU emulator's knobs, from LDSAN_OPTIONS (emu_fibers, emu_threads,
 * emu_stack_kb, ...); the environment variables LDSAN_EMU_FIBERS, LDSAN_EMU_THREADS
 * and LDSAN_EMU_STACK_KB set those options' values under ASAN_OPTIONS and
 * LDSAN_OPTIONS, which win. 0 means the default for each. */
typedef struct ldsan_emu_options {
  int fibers;
  int threads;
  int stack_kb;
  int report_wave_sync;  /* option report_wave_sync */
  int detect_races;      /* option detect_races: 0, 1 (same-wave hazards warn), 2 (they are errors) */
  int detect_uninit;     /* option detect_uninit */
  int abort_on_trap;     /* option abort_on_trap: a device trap ends the process */
  int stall_timeout;     /* option emu_stall_timeout: seconds without progress before a
                            dispatch is reported as stalled and the process ends; 0 never */
} ldsan_emu_options;
void ldsan_host_emu_options(ldsan_emu_options *out);

/* Prints the dispatch's READY records (see ldsan_dispatch_info.args_begin), in
 * ticket order, as full reports to the configured log (stderr by default),
 * gives their slots back, and says how many were dropped or (final drains) lost.
 * Returns the number of error reports printed. `channel` is host-visible memory
 * the device may still write (abi.h protocol). */
int ldsan_host_drain_channel(ldsan_report_channel *channel, const ldsan_device_memory *mem,
                             const ldsan_dispatch_info *dispatch);

/* What one drain saw (additive to the API above: callers that must decide
 * whether to exit use it). */
typedef struct ldsan_drain_stats {
  uint32_t errors;           /* READY error records in the channel, plus 1 for a
                                channel header ldsan cannot trust (must_abort) */
  uint32_t warnings;         /* READY warning records (LDSAN_REPORT_WARNING) */
  uint32_t printed;          /* of those, printed as full reports */
  uint32_t deduplicated;     /* folded into an earlier report (option dedup) */
  uint32_t over_limit;       /* not printed because of option report_limit */
  uint32_t lost;             /* claimed slots never marked READY */
  uint32_t dropped;          /* reports the full channel could not take */
  int must_abort;            /* 1: a record is aborting and halt_on_error is set,
                                or the channel header is bad (always);
                                "==PID==ABORTING" was printed, the caller should
                                exit(ldsan_host_exitcode()) */
} ldsan_drain_stats;

/* ldsan_host_drain_channel, also filling *stats (may be NULL). */
int ldsan_host_drain_channel_stats(ldsan_report_channel *channel, const ldsan_device_memory *mem,
                                   const ldsan_dispatch_info *dispatch, ldsan_drain_stats *stats);

/* Posts a finished record (its `dispatch` set) into the channel as the
 * device's writers do (abi.h protocol: a ring slot, else for an error the
 * first-report reserve). Returns 1 if it was recorded, 0 if it was counted as
 * dropped. */
int ldsan_host_channel_post(ldsan_report_channel *channel, const ldsan_report_record *record);

/* Prints one report for one record (the building block of drain). `out` NULL
 * means the configured log. Ends with "==PID==ABORTING" if the record aborts
 * (halt_on_error set, record not NOABORT); the caller exits. */
void ldsan_host_print_record(const ldsan_report_record *record, const ldsan_device_memory *mem,
                             const ldsan_dispatch_info *dispatch, FILE *out);

/* The stable kebab-case bug name of a record, e.g. "lds-buffer-overflow". */
const char *ldsan_host_bug_name(const ldsan_report_record *record);

/* ---- Backends and code objects: the one host path for GPU and emulator ----
 * A backend is how the host library reaches one device (an HSA agent, or the
 * CPU emulator): reading and writing its memory, memory both sides share, and
 * turning its pcs into source lines. Everything else (which code objects carry
 * ldsan, their channels, draining, stopping the process) is done here once:
 *   code object loaded      -> ldsan_host_image_register
 *   dispatch completed      -> ldsan_host_dispatch_done
 *   device error / trap     -> ldsan_host_device_error
 *   code object unloaded    -> ldsan_host_image_unregister
 *   process exit            -> ldsan_host_drain_all (registered with atexit)
 * A report that stops the program ends it in ldsan_host_die, once. */
typedef struct ldsan_backend {
  const char *device_name;   /* e.g. "gfx90a:xnack+", "cpu-emulator" */
  int device;                /* agent index, for reports */
  ldsan_device_memory mem;   /* reads device memory; mem.ctx is passed to every callback below */
  /* Writes n bytes at device address addr; returns 0 on success. */
  int (*write)(void *ctx, uint64_t addr, const void *src, size_t n);
  /* Allocates n zeroed bytes the host and this device both access coherently
   * (fine-grained system memory on a GPU); returns the host pointer and sets
   * *device_addr, or returns NULL. */
  void *(*alloc_shared)(void *ctx, size_t n, uint64_t *device_addr);
  void (*free_shared)(void *ctx, void *host_ptr);
  /* Allocates n zeroed bytes of the device's own memory (coarse-grained VRAM
   * on a GPU), reached by the host only through mem.read/write; returns a
   * non-NULL handle and sets *device_addr, or returns NULL. May be NULL: the
   * LDS backing store then comes from alloc_shared. Kept until exit. */
  void *(*alloc_device)(void *ctx, size_t n, uint64_t *device_addr);
  /* Compute units of the device (0: unknown); sizes its LDS backing store. */
  uint32_t compute_units;
  ldsan_symbolizer symbolize; /* may be NULL */
  void *symbolize_ctx;
  int checks_lds_itself;     /* the CPU emulator: options detect_races/detect_uninit check every kernel at
                                run time, so code objects' compiled-in LDS checks are turned off then */
  int maps_asan_shadow;      /* device code of full-ASan images writes ASan's shadow in this process:
                                their registration maps it unless host ASan did (ldsan_host_map_shadow;
                                a failure refuses the image). LDS-only images need no such mapping */
} ldsan_backend;

/* One registered code object (opaque). */
typedef struct ldsan_image ldsan_image;

/* A code object with ldsan's runtime was loaded on `backend`'s device; its
 * ldsan_device_state is at device address state_addr. Checks the state's ABI
 * version (a mismatch prints one line naming `name` and returns NULL: that code
 * object runs unchecked), gives it its own report channel in shared memory and
 * writes the option flags into the state. `name` (a URI or path) is used in
 * messages during the call only. The backend must outlive the image. */
ldsan_image *ldsan_host_image_register(const ldsan_backend *backend, const char *name, uint64_t state_addr);

/* Drains the image's channel (does not return if a report there stops the
 * program), then forgets it and frees its channel. */
void ldsan_host_image_unregister(ldsan_image *image);

/* The image's report channel as the host sees it (tests, emulator hooks). */
ldsan_report_channel *ldsan_host_image_channel(const ldsan_image *image);

/* A dispatch of a kernel of `image` has completed: prints its reports. If one
 * of them stops the program (halt_on_error), does not return (ldsan_host_die).
 * Returns the number of reports printed. */
int ldsan_host_dispatch_done(ldsan_image *image, const ldsan_dispatch_info *dispatch);


/* The device of `backend` stopped a queue (a trap, a memory fault): drains every
 * image on that device (a final drain: half-written records count as lost). If
 * what it found stops the program (an aborting report under halt_on_error, or
 * lost/dropped ones), the trap was ldsan's: does not return (ldsan_host_die).
 * Otherwise returns how many reports it found (0: ldsan has nothing to say), and
 * the caller goes on with the runtime's own handling of the error. */
int ldsan_host_device_error(const ldsan_backend *backend);

/* Drains every registered image (at exit, on unload). If a report found there
 * stops the program, does not return (ldsan_host_die). */
void ldsan_host_drain_all(void);

/* The library is being unloaded (an HSA tool's OnUnload): drains every image,
 * then frees what the library holds (options, log file, symbolizer). Images must already be
 * unregistered by their backend. */
void ldsan_host_shutdown(void);

/* ASan's Die(): the first caller flushes the report stream and ends the process
 * with exit status `exitcode` (abort() under abort_on_error); every later caller,
 * from any thread, blocks forever. Never returns. */
__attribute__((noreturn)) void ldsan_host_die(void);

/* Registers `fn` to run in ldsan_host_die before the process ends (exit handlers
 * do not run then): a backend's cleanup of what must not outlive the process,
 * such as temporary files. `fn` runs on the dying thread with the report mutex
 * held, must not report, and must not wait for a lock another thread may hold.
 * At most LDSAN_MAX_DIE_HOOKS; returns 0, or -1 when they are all taken. */
#define LDSAN_MAX_DIE_HOOKS 4
int ldsan_host_at_die(void (*fn)(void));

/* Maps ASan's x86-64 shadow ranges (low and high shadow, MAP_NORESERVE) when no
 * host ASan owns them, so device shadow accesses land in host memory. Returns 0
 * when the shadow is usable (already ASan's, or mapped now), else prints one
 * line saying why and returns -1. Idempotent, thread-safe. */
int ldsan_host_map_shadow(void);

/* 1 when host AddressSanitizer is in the process. */
int ldsan_host_has_asan(void);

/* Reads n bytes of this process's memory at addr without faulting: 0 if all
 * were read, -1 if (part of) the range is not mapped, -2 if the system call
 * it uses is not allowed here. */
int ldsan_host_read_self(uint64_t addr, void *dst, size_t n);

#ifdef __cplusplus
}
#endif
#endif /* LDSAN_HOST_H */
