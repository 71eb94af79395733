/* ldsan emulator core: the stall detector. A kernel whose workgroup waits for
 * another workgroup (a flag in global memory) runs forever when that one never
 * runs: with one worker (emu_threads=1) the workgroups run one after another,
 * and HIP never promised that they run at the same time (only cooperative
 * launches do). The detector turns that silent hang, and any endless kernel,
 * into an error that says which kernel, which workgroups and where they are.
 *
 * Progress: each worker counts the barriers it released and the workgroups it
 * finished (emu_progress: a plain add to a counter of its own, nothing
 * shared on the hot path). One watchdog thread, started by the first watched
 * dispatch, wakes once a second; while a dispatch runs it sums its workers'
 * counters, and after emu_stall_timeout wake-ups in a row without a change it
 * reports: counting wake-ups, not wall time, a process stopped in a debugger
 * counts at most one second. The report names the kernel, its grid, and for
 * each running workgroup the source lines its worker's thread is at (a
 * real-time signal makes the thread record its pc and call stack, symbolized
 * as reports are) and, with fibers, the work-item it runs and how the
 * others wait; then the LDS reports recorded so far are printed and the
 * process ends as after a fatal report (ldsan_host_die: exit status
 * exitcode, abort() under abort_on_error).
 *
 * Threading: the dispatch being watched and its workers are guarded by
 * wd_mu; ldsan_emu_run sets and clears them under its launch lock. The
 * watchdog blocks every signal. It is stopped and joined at exit (atexit) and
 * before a fork() (the fork handlers, called from core_sched.c's); the next
 * watched dispatch starts it again, in the parent and in the child. */
#include <errno.h>
#include <execinfo.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <ucontext.h>
#include <unistd.h>

#include "core_internal.h"

/* The signal that asks a worker's thread where it is: sent only when a
 * dispatch stalled, its handler installed just before (the process ends
 * right after). */
#define EMU_STALL_SIGNAL (SIGRTMAX - 2)
#define EMU_STALL_SHOWN 16u         /* running workgroups described; the others are counted */
#define EMU_STALL_ASK_MS 1000       /* how long one worker's thread is asked for, at most (its answers
                                       come slowly on a loaded machine) */
#define EMU_STALL_TRIES 1000        /* times one is asked while its answer has no source line */

static pthread_mutex_t wd_mu = PTHREAD_MUTEX_INITIALIZER;
static pthread_mutex_t wd_halt_mu = PTHREAD_MUTEX_INITIALIZER; /* one emu_watch_halt at a time */
static pthread_cond_t wd_cond;      /* CLOCK_MONOTONIC; wakes the watchdog to stop it */
static pthread_t wd_thread;
static int wd_cond_ready, wd_running, wd_stop, wd_exiting, wd_exit_handler;
static int wd_timeout;              /* seconds, of the watched dispatch */
static emu_dispatch *wd_d;          /* the watched dispatch, or NULL */
static emu_worker *const *wd_workers;
static uint32_t wd_nworkers;
static uint64_t wd_seq;             /* dispatches watched so far */

/* The C++ runtime's demangler (the --emulate link has it); kernel names are mangled. */
char *__cxa_demangle(const char *mangled, char *buf, size_t *len, int *status) __attribute__((weak));

static void emu_pretty(const char *name, char *buf, size_t len) {
  int status = -1;
  char *dm = __cxa_demangle && name ? __cxa_demangle(name, NULL, NULL, &status) : NULL;
  snprintf(buf, len, "%s", status == 0 && dm ? dm : name);
  free(dm);
}

/* ---- where a worker's thread is (runs in the signal handler) ------------- */
/* Fibers: how the workgroup's work-items other than `cur` wait. (Work-item
 * loops cannot say: a pass writes the states of the work-items it skips after
 * its loop, and the running work-item's index is in a register.) */
static void emu_snap_items(const emu_worker *w, uint32_t cur, emu_stall_snap *s) {
  for (uint32_t i = 0; i < w->n; i++) {
    if (i == cur) continue;
    switch (w->fibers[i].state) {
      case EMU_WAIT: s->at_barrier++; break;
      case EMU_EXIT_WAIT: s->at_exit++; break;
      case EMU_WAVE_WAIT: s->at_wave++; break;
      case EMU_DONE: s->returned++; break;
      default: s->ready++; break;
    }
  }
}

/* Async-signal-safe but for backtrace(), which the watchdog calls once first
 * (its first call loads the unwinder). */
static void emu_stall_handler(int sig, siginfo_t *si, void *ucv) {
  (void)sig;
  if (si->si_code != SI_QUEUE || si->si_pid != getpid()) return; /* not the detector's */
  emu_worker *w = si->si_value.sival_ptr;
  int saved_errno = errno;
  emu_stall_snap *s = &w->stall;
  memset(s, 0, sizeof *s);
  if (ldsan_emu_self == w && w->d) {
    s->in_dispatch = 1;
    const ucontext_t *uc = ucv;
    uint64_t pc = (uint64_t)uc->uc_mcontext.gregs[REG_RIP];
    void *frames[EMU_STALL_FRAMES + 8];
    int n = backtrace(frames, EMU_STALL_FRAMES + 8), at = 0;
    while (at < n && (uint64_t)(uintptr_t)frames[at] != pc) at++;  /* the handler's own frames */
    s->pcs[s->npcs++] = pc;
    for (int i = at + 1; i < n && s->npcs < EMU_STALL_FRAMES; i++) s->pcs[s->npcs++] = (uint64_t)(uintptr_t)frames[i];
    if (!w->loops) {
      s->item_known = 1;
      memcpy(s->item, w->fibers[w->cur].ids.id, sizeof s->item);
      emu_snap_items(w, w->cur, s);
    }
  }
  atomic_store_explicit(&w->stall_answered, 1, memory_order_release);
  errno = saved_errno;
}

/* ---- the report ----------------------------------------------------------- */
/* The functions the retarget tool made of a kernel (__ldsan_emu_entry.<k>,
 * __ldsan_emu_group.<k>, their _checked copies): the kernel's code is inlined
 * into them (or called from them). */
static int emu_kernel_fn(const ldsan_frame *f) {
  return f->function && (!strncmp(f->function, "__ldsan_emu_entry", 17) || !strncmp(f->function, "__ldsan_emu_group", 17));
}
/* The core's functions, its entry points for device code (__ldsan_emu_*)
 * included: a stalled work-item sits in them (a yield, a cross-lane wait),
 * and the kernel line that called them says more. */
static int emu_core_frame(const ldsan_frame *f) {
  return f->function && (!strncmp(f->function, "emu_", 4) || !strncmp(f->function, "ldsan_emu_", 10) ||
                         !strncmp(f->function, "__ldsan_emu_", 12));
}
/* The scheduler below the kernel's functions. */
static int emu_below_kernel(const ldsan_frame *f) {
  return f->function && (!strncmp(f->function, "emu_run_", 8) || !strcmp(f->function, "emu_fiber_main") ||
                         !strcmp(f->function, "ldsan_emu_run"));
}

/* A frame to print: its pc and what is there. */
typedef struct emu_shown_frame {
  uint64_t pc;
  ldsan_frame f;
} emu_shown_frame;
#define EMU_SHOWN_FRAMES 24

/* How good a stack is to show (emu_stack_frames). */
enum {
  EMU_STACK_NONE,     /* not through a kernel's function: the scheduler (between two passes of work-item
                         loops) or an ldsan deadlock */
  EMU_STACK_FUNCTION, /* in a kernel's function itself (loop control, or code without debug info) */
  EMU_STACK_CODE,     /* in the kernel's own code, at a pc without a source line */
  EMU_STACK_OPENING,  /* ... at the kernel's opening line, column 0: code the compiler put there (ldsan's
                         LDS block set-up and tear-down), not a statement of the program */
  EMU_STACK_LINE,     /* ... with one; also every frame when nothing has a name (symbolize=0) */
};

/* The work-item's call stack as printed: the kernel's frames, innermost
 * first, from below the core's frames above them down to the kernel's
 * function; `all`: every frame. Returns how many, *rank how good they are. */
static int emu_stack_frames(const emu_stall_snap *s, int all, emu_shown_frame *out, int *rank) {
  ldsan_frame frames[LDSAN_MAX_FRAMES];
  int k = 0, named = 0;
  *rank = EMU_STACK_NONE;
  for (uint32_t p = 0; p < s->npcs && k < EMU_SHOWN_FRAMES; p++) {
    int n = ldsan_emu_symbolize_pc(s->pcs[p], p == 0, frames, LDSAN_MAX_FRAMES);
    if (!n) frames[n++] = (ldsan_frame){0};
    for (int i = 0; i < n && k < EMU_SHOWN_FRAMES; i++) {
      const ldsan_frame *f = &frames[i];
      named |= f->function != NULL;
      if (all) {
        out[k++] = (emu_shown_frame){s->pcs[p], *f};
      } else if (emu_kernel_fn(f)) { /* the kernel's own code is above: done */
        *rank = !k ? EMU_STACK_FUNCTION
                : !out[0].f.line ? EMU_STACK_CODE
                : k == 1 && !out[0].f.column && out[0].f.line == f->line ? EMU_STACK_OPENING
                : EMU_STACK_LINE;
        if (!k) out[k++] = (emu_shown_frame){s->pcs[p], *f};
        return k;
      } else if (emu_below_kernel(f)) {
        return 0;
      } else if (k || !emu_core_frame(f)) {
        out[k++] = (emu_shown_frame){s->pcs[p], *f};
      }
    }
  }
  if (!named) *rank = EMU_STACK_LINE;
  return all || !named ? k : 0;
}

static void emu_print_frame(int i, const emu_shown_frame *sf) {
  const ldsan_frame *f = &sf->f;
  fprintf(stderr, "    #%d 0x%llx", i, (unsigned long long)sf->pc);
  if (f->function) fprintf(stderr, " in %s", f->function);
  if (f->file && f->line) {
    fprintf(stderr, " %s:%u", f->file, f->line);
    if (f->column) fprintf(stderr, ":%u", f->column);
  } else if (f->module) {
    fprintf(stderr, " (%s+0x%llx)", f->module, (unsigned long long)f->module_offset);
  }
  fputc('\n', stderr);
}

static int64_t emu_now_us(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (int64_t)t.tv_sec * 1000000 + t.tv_nsec / 1000;
}

/* Asks w's thread where it is (the signal) and waits for the answer until
 * `deadline` (emu_now_us). 1: answered, in w->stall. */
static int emu_ask(emu_worker *w, int64_t deadline) {
  atomic_store_explicit(&w->stall_answered, 0, memory_order_relaxed);
  if (pthread_sigqueue(w->thread, EMU_STALL_SIGNAL, (union sigval){.sival_ptr = w}) != 0) return 0;
  while (!atomic_load_explicit(&w->stall_answered, memory_order_acquire)) {
    if (emu_now_us() > deadline) return 0;
    nanosleep(&(struct timespec){0, 20000}, NULL);
  }
  return 1;
}

/* "63 wait at a barrier, 1 returned" */
static void emu_print_others(const emu_stall_snap *s) {
  const struct { uint32_t n; const char *what; } parts[] = {
      {s->at_barrier, "wait at a barrier"},
      {s->at_exit, "wait at the kernel's end"},
      {s->at_wave, "wait for the other lanes of their wave"},
      {s->returned, "returned"},
      {s->ready, "wait for their turn"},
  };
  int first = 1;
  for (size_t i = 0; i < sizeof parts / sizeof parts[0]; i++) {
    if (!parts[i].n) continue;
    fprintf(stderr, "%s%u %s", first ? "; of the others " : ", ", parts[i].n, parts[i].what);
    first = 0;
  }
}

/* A running workgroup: its worker and linear index + 1. */
typedef struct emu_running {
  emu_worker *w;
  uint64_t group;
} emu_running;

static int emu_by_group(const void *a, const void *b) {
  uint64_t x = ((const emu_running *)a)->group, y = ((const emu_running *)b)->group;
  return x < y ? -1 : x > y;
}

/* Under wd_mu; never returns. */
__attribute__((noreturn)) static void emu_stalled(int seconds) {
  emu_dispatch *d = wd_d;
  char name[512];
  emu_pretty(d->kernel->name, name, sizeof name);
  emu_running *running = ldsan_emu_xalloc((wd_nworkers ? wd_nworkers : 1) * sizeof *running, 0,
                                          "the stall detector's list of running workers");
  uint32_t nrun = 0;
  for (uint32_t i = 0; i < wd_nworkers; i++) {
    uint64_t g = atomic_load_explicit(&wd_workers[i]->wd_group, memory_order_relaxed);
    if (g) running[nrun++] = (emu_running){wd_workers[i], g};
  }
  qsort(running, nrun, sizeof *running, emu_by_group);
  uint64_t taken = atomic_load_explicit(&d->next_group, memory_order_relaxed);
  if (taken > d->groups) taken = d->groups;
  fprintf(stderr,
          "ldsan-emu: error: kernel '%s' <<<(%u,%u,%u), (%u,%u,%u)>>> made no progress for %d s (no barrier "
          "passed, no workgroup finished); of its %llu workgroups %llu finished, %u running, %llu not started "
          "(%u worker thread%s)\n",
          name, d->grid[0], d->grid[1], d->grid[2], d->block[0], d->block[1], d->block[2], seconds,
          (unsigned long long)d->groups, (unsigned long long)(taken - nrun), nrun,
          (unsigned long long)(d->groups - taken), wd_nworkers, wd_nworkers == 1 ? "" : "s");
  fflush(stderr);
  /* Where each running workgroup is: its thread answers the signal. A thread
   * caught elsewhere than at a source line of the kernel (mostly: in the
   * scheduler between two passes of a lockstep kernel's work-item loops) is
   * asked again, up to EMU_STALL_TRIES times, and the best answer is shown. */
  uint32_t shown = nrun < EMU_STALL_SHOWN ? nrun : EMU_STALL_SHOWN;
  void *warm[2];
  backtrace(warm, 2);
  struct sigaction sa;
  memset(&sa, 0, sizeof sa);
  sa.sa_sigaction = emu_stall_handler;
  sa.sa_flags = SA_SIGINFO | SA_RESTART;
  sigemptyset(&sa.sa_mask);
  int can_ask = sigaction(EMU_STALL_SIGNAL, &sa, NULL) == 0;
  emu_shown_frame frames[EMU_SHOWN_FRAMES];
  int loops = 0;
  for (uint32_t i = 0; i < shown; i++) {
    emu_worker *w = running[i].w;
    uint64_t g = running[i].group - 1;
    fprintf(stderr, "ldsan-emu: workgroup (%u,%u,%u)", (uint32_t)(g % d->grid[0]),
            (uint32_t)(g / d->grid[0] % d->grid[1]), (uint32_t)(g / ((uint64_t)d->grid[0] * d->grid[1])));
    if (atomic_load_explicit(&w->in_grid_barrier, memory_order_relaxed)) {
      fprintf(stderr, " waits at the grid-wide barrier (grid.sync()) for the other workgroups\n");
      continue;
    }
    const emu_stall_snap *s = &w->stall;
    emu_stall_snap kept; /* the answer printed: the best (emu_stack_frames' rank) */
    int answered = 0, n = 0, best = -1;
    int64_t deadline = emu_now_us() + EMU_STALL_ASK_MS * 1000;
    for (int tries = 0; can_ask && tries < EMU_STALL_TRIES && emu_now_us() < deadline; tries++) {
      if (!emu_ask(w, deadline) || !s->in_dispatch) break;
      emu_shown_frame f[EMU_SHOWN_FRAMES];
      int rank, k = emu_stack_frames(s, 0, f, &rank);
      answered = 1;
      if (rank > best) {
        kept = *s;
        memcpy(frames, f, (size_t)k * sizeof *f);
        n = k;
        best = rank;
      }
      if (best == EMU_STACK_LINE) break;
    }
    if (!answered) {
      fprintf(stderr, " is running (its thread did not say where: signal %d blocked or not delivered)\n",
              EMU_STALL_SIGNAL);
      continue;
    }
    if (!n) n = emu_stack_frames(&kept, 1, frames, &best);
    if (kept.item_known) {
      fprintf(stderr, ": work-item (%u,%u,%u) is running", kept.item[0], kept.item[1], kept.item[2]);
      emu_print_others(&kept);
      fprintf(stderr, "\n");
    } else {
      fprintf(stderr, " is running\n");
      loops = 1;
    }
    for (int k = 0; k < n; k++) emu_print_frame(k, &frames[k]);
  }
  if (nrun > shown) fprintf(stderr, "ldsan-emu: ... and %u more running workgroups\n", nrun - shown);
  if (loops)
    fprintf(stderr, "ldsan-emu: (the kernel runs as work-item loops, which run a workgroup's work-items one after "
            "another and do not say which one is running; LDSAN_OPTIONS=emu_fibers=1 names it)\n");
  if (d->cooperative)
    fprintf(stderr, "ldsan-emu: the workgroups of a cooperative launch run at the same time, and each grid.sync() "
            "waits until every one of them gets there: one that returns first, or waits elsewhere, keeps the others "
            "waiting forever, on a GPU too. ");
  else
    fprintf(stderr,
            "ldsan-emu: HIP does not promise that the workgroups of a dispatch run at the same time (only "
            "hipLaunchCooperativeKernel does): a workgroup that waits for another one (a flag in global memory) can "
            "wait forever on a GPU too, and on the emulator it does whenever the other has not started (its "
            "emu_threads workers run workgroups one after another). ");
  fprintf(stderr, "A kernel that is only slow: LDSAN_OPTIONS=emu_stall_timeout=<seconds> gives it longer (0: no "
          "limit)\n");
  fflush(stderr);
  free(running);
  ldsan_emu_stalled_reports(d);
  fprintf(stderr, "ldsan-emu: the stalled kernel ends the process\n");
  ldsan_host_die();
}

/* ---- the watchdog thread ------------------------------------------------- */
static void *emu_watch_main(void *arg) {
  (void)arg;
  uint64_t seen_seq = 0, seen_sum = 0;
  int idle = 0;
  pthread_mutex_lock(&wd_mu);
  while (!wd_stop) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    t.tv_sec += 1;
    while (!wd_stop && pthread_cond_timedwait(&wd_cond, &wd_mu, &t) != ETIMEDOUT) {}
    if (wd_stop || !wd_d) continue;
    uint64_t sum = 0;
    for (uint32_t i = 0; i < wd_nworkers; i++) sum += atomic_load_explicit(&wd_workers[i]->progress, memory_order_relaxed);
    if (wd_seq != seen_seq || sum != seen_sum) {
      seen_seq = wd_seq;
      seen_sum = sum;
      idle = 0;
    } else if (++idle >= wd_timeout) {
      emu_stalled(idle);
    }
  }
  pthread_mutex_unlock(&wd_mu);
  return NULL;
}

/* Ends the watchdog thread, if one runs, and waits for it. */
static void emu_watch_halt(void) {
  pthread_mutex_lock(&wd_halt_mu);
  pthread_mutex_lock(&wd_mu);
  int running = wd_running;
  if (running) {
    wd_stop = 1;
    pthread_cond_signal(&wd_cond);
  }
  pthread_mutex_unlock(&wd_mu);
  if (running) pthread_join(wd_thread, NULL);
  pthread_mutex_lock(&wd_mu);
  wd_running = 0;
  wd_stop = 0;
  pthread_mutex_unlock(&wd_mu);
  pthread_mutex_unlock(&wd_halt_mu);
}

/* atexit: no thread of ldsan's is left running beside the exit handlers. */
static void emu_watch_at_exit(void) {
  pthread_mutex_lock(&wd_mu);
  wd_exiting = 1;
  pthread_mutex_unlock(&wd_mu);
  emu_watch_halt();
}

/* Under wd_mu. */
static void emu_watch_start(void) {
  static int warned;
  if (wd_exiting) return;
  if (!wd_cond_ready) {
    pthread_condattr_t a;
    pthread_condattr_init(&a);
    pthread_condattr_setclock(&a, CLOCK_MONOTONIC);
    pthread_cond_init(&wd_cond, &a);
    pthread_condattr_destroy(&a);
    wd_cond_ready = 1;
  }
  /* The watchdog takes no signal meant for the program. */
  sigset_t all, old;
  sigfillset(&all);
  pthread_sigmask(SIG_SETMASK, &all, &old);
  int rc = pthread_create(&wd_thread, NULL, emu_watch_main, NULL);
  pthread_sigmask(SIG_SETMASK, &old, NULL);
  if (rc != 0) {
    if (!warned)
      fprintf(stderr, "ldsan-emu: warning: cannot start the thread of the stall detector: %s; a kernel that never "
              "finishes will hang without a word (raise the process's thread limit, ulimit -u)\n", strerror(rc));
    warned = 1;
    return;
  }
  wd_running = 1;
  if (!wd_exit_handler) { /* once per process tree: a child inherits it */
    wd_exit_handler = 1;
    atexit(emu_watch_at_exit);
  }
}

void ldsan_emu_watch_begin(emu_dispatch *d, emu_worker *const *workers, uint32_t n, int timeout) {
  if (timeout <= 0) return;
  pthread_mutex_lock(&wd_mu);
  if (!wd_running) emu_watch_start();
  wd_d = d;
  wd_workers = workers;
  wd_nworkers = n;
  wd_timeout = timeout;
  wd_seq++;
  pthread_mutex_unlock(&wd_mu);
}

void ldsan_emu_watch_end(void) {
  if (!wd_d) return; /* not watched (read under the launch lock that set it) */
  pthread_mutex_lock(&wd_mu);
  wd_d = NULL;
  wd_workers = NULL;
  wd_nworkers = 0;
  pthread_mutex_unlock(&wd_mu);
}

/* fork(): no dispatch runs (core_sched.c holds its launch lock). The
 * watchdog ends before, so that neither side has a thread that is gone
 * (LeakSanitizer in the child would name it); the parent's next watched
 * dispatch starts a new one, and so does the child's. */
void ldsan_emu_watch_fork_prepare(void) {
  emu_watch_halt();
  pthread_mutex_lock(&wd_halt_mu);
  pthread_mutex_lock(&wd_mu);
}

void ldsan_emu_watch_fork_parent(void) {
  pthread_mutex_unlock(&wd_mu);
  pthread_mutex_unlock(&wd_halt_mu);
}

void ldsan_emu_watch_fork_child(void) {
  pthread_mutex_init(&wd_halt_mu, NULL);
  pthread_mutex_init(&wd_mu, NULL);
}
