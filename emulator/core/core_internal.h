/* ldsan emulator core internals: workers, fibers, dispatches. A worker is an
 * OS thread that runs whole workgroups; each work-item of the running
 * workgroup is a fiber on a small reusable stack. Everything in an emu_worker
 * is touched only by its own thread; an emu_dispatch is shared (atomics and
 * its lock). */
#ifndef LDSAN_EMU_CORE_INTERNAL_H
#define LDSAN_EMU_CORE_INTERNAL_H

#include <pthread.h>
#include <setjmp.h>
#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>

#include "ldsan/abi.h"
#include "ldsan/host.h"
#include "ldsan/emu/emu.h"
#include "ldsan/emu/emu_tls.h"

/* Functions the retargeted device code calls. */
#define EMU_API __attribute__((visibility("default")))

#define EMU_MAX_BLOCK 1024u                 /* work-items per workgroup, as on gfx90a */
#define EMU_MAX_WORKERS 64u                 /* default workers: the online cores, at most this */
#define EMU_IMPLICIT_SIZE 256u              /* COV5 implicit-argument block, bytes */
#define EMU_PACKET_SIZE 64u                 /* hsa_kernel_dispatch_packet, bytes */
#define EMU_DEFAULT_STACK (64u << 10)       /* fiber stack, bytes (LDSAN_EMU_STACK_KB) */
#define EMU_GUARD 4096u                     /* guard page below each fiber stack */
#define LDSAN_EMU_LAUNCH_FRAMES 32u         /* host frames kept of a launch (LDSAN_MAX_LAUNCH_FRAMES) */

#define EMU_MAX_WAVES (EMU_MAX_BLOCK / 32u)  /* waves per workgroup at the smallest wave size */

/* READY: runs or may run; WAIT: at s_barrier; EXIT_WAIT: at the kernel-exit
 * barrier; WAVE_WAIT: at a cross-lane operation or lockstep point, waiting
 * for the lanes of its wave (core_sched.c); DONE: returned. */
enum emu_fiber_state { EMU_READY, EMU_WAIT, EMU_EXIT_WAIT, EMU_WAVE_WAIT, EMU_DONE };

typedef struct emu_fiber {
  ldsan_emu_item_ids ids;   /* first: __ldsan_emu_tls.item points here */
  void *sp;                 /* saved stack pointer while switched out */
  uint8_t *stack_lo, *stack_hi;
  uint8_t *stack_top;       /* where its stack starts (tops are staggered, see core_sched.c) */
  uint32_t state;           /* emu_fiber_state */
} emu_fiber;

/* A work-item stopped at a cross-lane operation (fibers: WAVE_WAIT, in
 * emu_worker.parked; loops: in a wave region, in its frame, written by the
 * group function: emu.h, group_park_offset): the operation (core_wave_ops.h),
 * its operands, and where it stopped: the site (fibers: the call's return
 * address; loops: the region), how deep in its stack (fibers; loops: 0), and
 * the retarget tool's rank of the site (higher ranks go first, see
 * core_sched.c); then its result. */
typedef struct emu_parked {
  uint32_t op, arg;
  uint64_t val, res, rank;
  uint64_t site, depth;
} emu_parked;
/* The layout retarget_wiloop.cpp writes (emu.h). */
_Static_assert(offsetof(emu_parked, op) == LDSAN_EMU_PARK_OP && offsetof(emu_parked, arg) == LDSAN_EMU_PARK_ARG &&
               offsetof(emu_parked, val) == LDSAN_EMU_PARK_VAL && offsetof(emu_parked, res) == LDSAN_EMU_PARK_RES &&
               offsetof(emu_parked, rank) == LDSAN_EMU_PARK_RANK && offsetof(emu_parked, site) == LDSAN_EMU_PARK_SITE &&
               offsetof(emu_parked, depth) == LDSAN_EMU_PARK_DEPTH && sizeof(emu_parked) == LDSAN_EMU_PARK_SIZE,
               "emu_parked");

/* The options of core_lds_check.c (ldsan_emu_options). */
typedef struct emu_check_options {
  int report_wave_sync, detect_races, detect_uninit;
} emu_check_options;
#define EMU_LDS_HAZARDS 32u  /* findings kept per dispatch (one per kind and pair of pcs; more are dropped) */

typedef struct emu_dispatch {
  const ldsan_emu_kernel *kernel;
  struct ldsan_image *host;         /* the kernel's image in the host library (its reports), or NULL */
  void **args;
  uint32_t grid[3], block[3];
  uint64_t groups;                  /* grid[0] * grid[1] * grid[2] */
  uint32_t items;                   /* block[0] * block[1] * block[2] */
  uint32_t wave_shift;              /* log2 of the kernel's wave size: 6 (64 lanes), 5 (32, RDNA) */
  uint32_t lds_size;                /* static + dynamic bytes of the window */
  _Atomic uint64_t next_group;
  _Atomic int stop;                 /* a trap happened: start no new workgroup */
  pthread_mutex_t lock;             /* guards the trap fields */
  int trapped;
  int trap_assert;                  /* the first trap was a failed device assert() */
  uint32_t trap_group[3], trap_item[3];
  /* LDS check findings (core_lds_check.c), guarded by lock: one record per
   * kind, pcs and same-wave-ness, the first work-item's, with repeats counted;
   * posted to the report channel when the dispatch ends (core_report.c). */
  ldsan_report_record hazards[EMU_LDS_HAZARDS];
  uint32_t hazard_count, hazards_lost;
  int cooperative;                  /* every workgroup on its own worker (LDSAN_EMU_LAUNCH_COOPERATIVE) */
  int refused;                      /* the emulator stopped it (it said why): a failed launch, not a
                                       device trap of the program's */
  pthread_cond_t gws_cond;          /* the grid-wide barrier (guarded by lock) */
  uint32_t gws_arrived, gws_gen;
  uint64_t launch_pcs[LDSAN_EMU_LAUNCH_FRAMES];  /* the launching host stack, for reports */
  uint32_t launch_depth;
  _Alignas(64) uint8_t implicitarg[EMU_IMPLICIT_SIZE];
  _Alignas(64) uint8_t packet[EMU_PACKET_SIZE];
  _Alignas(64) uint8_t kernel_descriptor[64]; /* what the packet's kernel_object points at */
} emu_dispatch;

/* Where a worker's thread was when the stall detector asked (core_watchdog.c):
 * written by the thread itself, in a signal handler, then `answered` is set. */
#define EMU_STALL_FRAMES 16
typedef struct emu_stall_snap {
  uint64_t pcs[EMU_STALL_FRAMES];   /* pcs[0]: the pc it was at; then return addresses */
  uint32_t npcs;
  int in_dispatch;                  /* it was running the dispatch (else: finished it) */
  int item_known;                   /* it was running a work-item (fibers): */
  uint32_t item[3];
  /* Fibers: the workgroup's other work-items at an s_barrier, at the
   * kernel-exit barrier, at a cross-lane operation of their wave, returned,
   * ready to run. */
  uint32_t at_barrier, at_exit, at_wave, returned, ready;
} emu_stall_snap;

typedef struct emu_worker {
  /* Work-item loops (kernels with a group function, see emu.h). */
  int loops;                        /* the running dispatch uses them: */
  uint64_t (*group)(void **args, const void *ids, uint32_t n, void *frames, uint32_t *states, uint32_t region,
                    uint32_t parity); /* the kernel's group function, or its checked copy's */
  uint32_t group_frame_size;
  uint64_t group_exit_regions;
  uint64_t group_wave_regions;      /* lockstep kernels' regions after cross-lane stops (emu.h) */
  uint32_t group_park_offset;       /* ... and where in a frame a work-item parks (emu.h) */
  const uint64_t *const *region_pcs; /* the checked loops' barrier pcs per region (emu.h), or NULL */
  int checked_loops;                /* group is the checked copy's (ldsan_emu_lds_track_refresh first) */
  ldsan_emu_item_ids *ids;          /* per work-item ids, filled once per dispatch */
  uint32_t *states;                 /* where each work-item stopped */
  uint32_t *high;                   /* the regions past the masks' bits a pass runs (emu_group_pass) */
  uint8_t *frames;                  /* per work-item state, group_frame_size each */
  uint32_t ids_cap;
  size_t frames_cap;
  uint8_t *loop_stack_hi;           /* the worker's stack above the group function */
  jmp_buf trap_jmp;                 /* a trap abandons the workgroup through here */
  /* Fibers. */
  emu_fiber *fibers;
  uint32_t fiber_cap;
  uint8_t *stacks;
  size_t stacks_len, stack_size;
  uint8_t *lds;
  size_t lds_cap;
  void *sched_sp;                   /* the worker's own context while a fiber runs */
  const void *sched_stack_bottom;   /* its stack, for ASan's fiber switches (0 until known) */
  size_t sched_stack_size;
  void *dead_sp;                    /* where a finished fiber's last switch stores its sp: not on
                                       its own stack, which ASan's fake stack may have freed */
  emu_dispatch *d;
  int lockstep;                     /* the kernel's waves run in lockstep (ldsan_emu_kernel.lockstep) */
  uint32_t nwaves;                  /* waves of the running workgroup */
  uint32_t wave_shift;              /* the dispatch's (emu_dispatch.wave_shift) */
  uint64_t ready[EMU_MAX_WAVES];    /* per wave: lanes that are READY */
  uint64_t synced[EMU_MAX_WAVES];   /* per wave: lanes stopped at a cross-lane operation */
  emu_parked parked[EMU_MAX_BLOCK]; /* per work-item: the operation it stopped at */
  uint32_t n, live, arrived, cur;
  /* LDS checks (core_lds_check.c): the options, records of the
   * running workgroup's LDS block, its barrier count and each wave's
   * wave-barrier count. */
  emu_check_options checks;
  void (*entry)(void **args);       /* the dispatch's fiber entry: the kernel's, or its checked copy */
  struct emu_lds_rec *track;
  struct emu_lds_readers *atomic_reads; /* per record of track: its atomic readers (lds_track.h) */
  uint64_t track_cap, track_block, track_size; /* track_cap: words of LDS the records cover */
  uint32_t track_gen, track_block_gen;
  uint32_t barrier_epoch, run_start; /* barriers of the worker so far; the running workgroup's first */
  /* The stall detector (core_watchdog.c) reads these from its own thread. */
  _Atomic uint64_t progress;        /* barriers released and workgroups finished, ever (emu_progress) */
  _Atomic uint64_t wd_group;        /* the running workgroup's linear index + 1; 0: none */
  _Atomic int in_grid_barrier;      /* waits at a cooperative launch's grid-wide barrier */
  pthread_t thread;                 /* the thread that runs the worker, set before it runs a dispatch */
  emu_stall_snap stall;             /* where the thread was when asked ... */
  _Atomic int stall_answered;       /* ... once this is 1 */
  uint64_t written_lo, written_hi;  /* block bytes [lo, hi) found written in this workgroup's run
                                       (core_lds_disjoint.c; emptied for each workgroup) */
  uint32_t split_run;               /* the run_start of the last run that split a word into bytes */
  uint32_t wave_epoch[EMU_MAX_WAVES];
  uint32_t exiting;                 /* work-items waiting at the kernel-exit barrier */
  uint32_t departed;                /* the first work-item of the workgroup to leave its body, + 1 */
  uint64_t barrier_pc[EMU_MAX_BLOCK]; /* fibers, per work-item: the pc of the last barrier it reached
                                         (checked copies note it, __ldsan_emu_lds_barrier_note) */
  /* Which work-items of the running workgroup each dispatch finding has
   * counted (valid while hazard_gen == track_gen). */
  uint32_t hazard_gen;
  uint64_t hazard_items[EMU_LDS_HAZARDS][EMU_MAX_BLOCK / 64];
} emu_worker;

/* core_self.c: what this thread runs (its worker, NULL outside the pool; the work-item's TLS) */
extern __thread ldsan_emu_tls_state __ldsan_emu_tls;
extern __thread emu_worker *ldsan_emu_self;

/* The worker made progress: a barrier released its work-items, a workgroup
 * finished. Only its own thread writes the counter: a plain add, no locked
 * instruction (the stall detector reads it, core_watchdog.c). */
static inline void emu_progress(emu_worker *w) {
  atomic_store_explicit(&w->progress, atomic_load_explicit(&w->progress, memory_order_relaxed) + 1,
                        memory_order_relaxed);
}

/* core_alloc.c: the emulator's own memory (ldsan_emu_xalloc, emu.h) and its
 * one way to give up. try_alloc: as xalloc, for what the emulator can do
 * without: NULL on failure. xmap: n bytes of fresh anonymous memory
 * (MAP_NORESERVE), or exit. die: "ldsan-emu: fatal: <message>" and exit 1. */
void *ldsan_emu_try_alloc(size_t n, size_t align, const char *what);
void *ldsan_emu_xmap(size_t n, const char *what);
__attribute__((noreturn, format(printf, 1, 2))) void ldsan_emu_die(const char *fmt, ...);

/* core_fiber.S */
void ldsan_emu_ctx_switch(void **save_sp, void *new_sp);
void ldsan_emu_fiber_start(void); /* a new fiber's first code: calls the function in r12 */

/* core_lds_check.c: option detect_races's barrier-divergence check, at a
 * barrier's release by its last work-item (released = 1: every waiter must be
 * at the same barrier, and no work-item may have left the body) or when the
 * running work-item leaves the body while others wait at a barrier (0). */
void ldsan_emu_check_barrier(emu_worker *w, int released);
/* The same for work-item loops, after a pass over the body's regions: states
 * say where each of the n work-items stopped; `waiting` the regions some wait
 * at (after a barrier of the body), `exit_regions` those after the kernel-exit
 * barrier. */
void ldsan_emu_check_pass(emu_worker *w, const uint32_t *states, uint32_t n, uint64_t waiting, uint64_t exit_regions);
/* A workgroup starts on w: its first barrier epoch, no wave barrier yet. */
void ldsan_emu_lds_checks_new_group(emu_worker *w);
/* Before a call of a checked group function: the TLS fields of the checks'
 * inline path (lds_track.h) for the running workgroup and barrier interval. */
void ldsan_emu_lds_track_refresh(emu_worker *w);
/* The same at a barrier inside one call of a checked group function
 * (__ldsan_emu_lds_chained): only the epoch, once the workgroup's block is
 * known and in the TLS state; else the whole refresh. */
void ldsan_emu_lds_track_next_epoch(emu_worker *w);
/* core_lds_disjoint.c: the records of block bytes [addr, addr + n) (recs:
 * the block's, of size bytes at block) say written where the worker's
 * interval of words known written says so (before the core looks at them). */
struct emu_lds_rec;
void ldsan_emu_lds_settle(emu_worker *w, struct emu_lds_rec *recs, uint64_t block, uint64_t size, uint64_t addr,
                          uint64_t n);
/* The running work-item of w (fibers: w->cur; loops: the TLS work-item). */
uint32_t ldsan_emu_current_item(const emu_worker *w);

/* core_sched.c */
void ldsan_emu_yield(void);
void __ldsan_emu_s_barrier(void);       /* s_barrier */
void __ldsan_emu_s_barrier_exit(void);  /* the LDS lowering's kernel-exit barrier */
/* The running lane reached cross-lane operation op (operands val, arg) at
 * call site `site` with stack frame `frame`, ranked `rank` by the retarget
 * tool. In lockstep, waits until the wave executes it and returns the
 * lane's result; otherwise returns what the lane alone computes. */
uint64_t ldsan_emu_wave_arrive(uint32_t op, uint64_t val, uint32_t arg, uint64_t rank, uintptr_t site,
                               const void *frame);
__attribute__((noreturn)) void ldsan_emu_trap_current(void);
/* The same for a failed device assert(): message (its line, as the GPU
 * prints it) goes to stderr if this is the dispatch's first trap. */
__attribute__((noreturn)) void ldsan_emu_assert_trap(const char *message);
int ldsan_emu_is_private_addr(const void *p);
int ldsan_emu_run(emu_dispatch *d);      /* runs d on all workers; 0 ok */

/* core_watchdog.c: the stall detector. A watchdog thread (started by the
 * first watched dispatch, joined at exit and before a fork) ends the process
 * when the dispatch between begin and end makes no progress (emu_progress on
 * any of its n workers) for timeout seconds; 0: the dispatch is not watched.
 * Called by ldsan_emu_run under its launch lock; the fork handlers from
 * core_sched.c's, after its own locks. */
void ldsan_emu_watch_begin(emu_dispatch *d, emu_worker *const *workers, uint32_t n, int timeout);
void ldsan_emu_watch_end(void);
void ldsan_emu_watch_fork_prepare(void);
void ldsan_emu_watch_fork_parent(void);
void ldsan_emu_watch_fork_child(void);

/* core_report.c: the emulator as a host-library backend */
struct ldsan_image;
/* Registers an image's ldsan device state with the host library; NULL if the
 * image has no ldsan runtime or the host library refused it (said why). */
struct ldsan_image *ldsan_emu_register_host(const ldsan_emu_image *img);
/* Prints the reports of a finished (or trapped) dispatch through the host
 * library, which ends the process if one stops it. Returns reports printed. */
int ldsan_emu_finish_dispatch(struct ldsan_image *host, const emu_dispatch *d);
/* Fills frames for pc of this process's code (ldsan_symbolize_host_pc);
 * exact: pc is where a thread was (a signal's pc), not a return address.
 * Returns how many. */
int ldsan_emu_symbolize_pc(uint64_t pc, int exact, ldsan_frame *frames, int max_frames);
/* A dispatch that will never finish (the stall detector): prints the LDS
 * findings and reports it has recorded so far, and every other image's, as
 * a finished dispatch's; does not return if one of them stops the program. */
void ldsan_emu_stalled_reports(emu_dispatch *d);

/* Reads and writes device memory on purpose, the LDS redzones and headers the
 * device poisoned included: never instrumented, also in the ASan+UBSan build of
 * the emulator (emulator/asan.mk), where host ASan would stop on the first
 * poisoned byte. */
#define EMU_DEVICE_ACCESS __attribute__((no_sanitize("address")))
/* Copies n bytes between device and host memory that way (a byte loop: not
 * memcpy, which host ASan intercepts). core_report.c. */
void ldsan_emu_device_copy(void *dst, const void *src, size_t n);

#endif /* LDSAN_EMU_CORE_INTERNAL_H */
