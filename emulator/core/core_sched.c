/* ldsan emulator core: the scheduler. A dispatch runs on N workers (the
 * launching thread plus N-1 persistent pool threads; N = LDSAN_EMU_THREADS,
 * default: every core, at most EMU_MAX_WORKERS). Workers take whole workgroups from an atomic
 * counter. The pool starts on the first launch, and again in a forked child.
 * Work-item loops (kernels the retarget tool gave a group function, see
 * emu.h): the workgroup runs region by region; each call of the group
 * function runs one region for every work-item waiting at its start. A pass
 * runs every region some work-item waits at; the next pass the regions they
 * stopped at; work-items at the kernel-exit barrier wait until no pass is
 * left (the semantics below). A trap longjmps out of the group function.
 * Lockstep kernels' loops stop at cross-lane operations too: after each pass
 * every wave executes the first operation its lanes stopped at, and only when
 * none waits at one are barriers released (emu_run_group_lockstep_loops).
 * LDSAN_EMU_FIBERS=1 runs every kernel as fibers.
 * Fibers (every other kernel): every work-item is a fiber; the next to run is
 * a READY lane of the current wave, else of the next waves (emu_pick_next);
 * fibers switch only at s_barrier, s_sleep (yield), exit, trap and, in
 * kernels whose waves run in lockstep, at cross-lane operations and lockstep
 * points: such a lane waits (WAVE_WAIT) until no lane of its wave can run,
 * then the lanes at the first site execute it together (emu_wave_fire).
 * Barrier: the last live work-item to arrive releases the others (barrier
 * generation += 1) and keeps running; work-items that exited do not count.
 * The kernel-exit barrier of LDS lowering (s_barrier_exit) is different: a
 * work-item there has left the kernel body (like an exit) and waits until
 * every live work-item got there too; this mirrors early-returned lanes
 * waiting for their wave to reconverge on a GPU.
 * Trap: the trapping workgroup is abandoned at once (its other work-items do
 * not continue), no new workgroup starts, workgroups already running on
 * other workers finish. Fibers, stacks and LDS windows are per worker and
 * reused across workgroups and dispatches; the LDS window is zeroed per
 * workgroup. Each worker counts the barriers it releases and the workgroups
 * it finishes (emu_progress) for the stall detector (core_watchdog.c), which
 * ldsan_emu_run tells about each dispatch. */
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

#include "core_internal.h"
#include "core_wave_ops.h"
#include "ldsan/host.h"

static void emu_fiber_main(void);

/* Private memory of the running work-item: its fiber stack; with work-item
 * loops, its frame and the worker stack below the group function. */
int ldsan_emu_is_private_addr(const void *p) {
  emu_worker *w = ldsan_emu_self;
  const uint8_t *b = p;
  if (!w) return 0;
  if (!w->loops) {
    emu_fiber *f = &w->fibers[w->cur];
    return b >= f->stack_lo && b < f->stack_hi;
  }
  if (b >= (const uint8_t *)__builtin_frame_address(0) && b < w->loop_stack_hi) return 1;
  size_t fs = w->group_frame_size;
  const uint8_t *frame = w->frames + (size_t)(__ldsan_emu_tls.item - w->ids) * fs;
  return b >= frame && b < frame + fs;
}

/* The emulator's knobs (the host library's options table: help=1 lists them). */
static ldsan_emu_options emu_opts;
static void emu_read_options(void) { ldsan_host_emu_options(&emu_opts); }
static const ldsan_emu_options *emu_options(void) {
  static pthread_once_t once = PTHREAD_ONCE_INIT;
  pthread_once(&once, emu_read_options);
  return &emu_opts;
}

/* The ids of linear work-item i of a workgroup of d. */
static void emu_item_ids(const emu_dispatch *d, uint32_t i, ldsan_emu_item_ids *ids) {
  uint32_t bx = d->block[0], by = d->block[1];
  ids->id[0] = i % bx;
  ids->id[1] = i / bx % by;
  ids->id[2] = i / (bx * by);
  ids->lane = i & ((1u << d->wave_shift) - 1);
}

/* Per-dispatch arrays of work-item loops: ids, states, frames. */
static void emu_prepare_loops(emu_worker *w, emu_dispatch *d) {
  uint32_t n = d->items;
  size_t frames = ((size_t)n * w->group_frame_size + 63) & ~(size_t)63;
  if (n > w->ids_cap) {
    free(w->ids);
    free(w->states);
    free(w->high);
    w->ids = ldsan_emu_xalloc(n * sizeof *w->ids, 0, "the work-item ids of a worker's work-item loops");
    w->states = ldsan_emu_xalloc(n * sizeof *w->states, 0, "the work-item states of a worker's work-item loops");
    w->high = ldsan_emu_xalloc(n * sizeof *w->high, 0, "the regions a worker's work-item loops run next");
    w->ids_cap = n;
  }
  if (frames > w->frames_cap) {
    free(w->frames);
    w->frames = ldsan_emu_xalloc(frames, 64, "the work-item frames of a worker's work-item loops");
    w->frames_cap = frames;
  }
  for (uint32_t i = 0; i < n; i++) emu_item_ids(d, i, &w->ids[i]);
}

/* Makes room for n fibers (stacks with a guard page each). */
static void emu_ensure_fibers(emu_worker *w, uint32_t n) {
  if (n <= w->fiber_cap) return;
  if (w->stacks) munmap(w->stacks, w->stacks_len);
  free(w->fibers);
  if (!w->stack_size) {
    int kb = emu_options()->stack_kb;
    w->stack_size = kb >= 16 ? (size_t)kb << 10 : EMU_DEFAULT_STACK;
    w->stack_size = (w->stack_size + 4095) & ~(size_t)4095;
  }
  size_t per = w->stack_size + EMU_GUARD;
  w->stacks_len = per * n;
  w->stacks = ldsan_emu_xmap(w->stacks_len, "a worker's fiber stacks (set LDSAN_EMU_STACK_KB lower)");
  w->fibers = ldsan_emu_xalloc(n * sizeof *w->fibers, 0, "a worker's fibers");
  for (uint32_t i = 0; i < n; i++) {
    uint8_t *lo = w->stacks + per * i;
    mprotect(lo, EMU_GUARD, PROT_NONE);
    w->fibers[i].stack_lo = lo + EMU_GUARD;
    w->fibers[i].stack_hi = lo + per;
  }
  w->fiber_cap = n;
}

static void emu_ensure_lds(emu_worker *w, size_t size) {
  if (size <= w->lds_cap) return;
  free(w->lds);
  w->lds_cap = (size + 4095) & ~(size_t)4095;
  w->lds = ldsan_emu_xalloc(w->lds_cap, 4096, "a worker's LDS window");
}

/* Host ASan is told about every stack switch (its fiber interface), so it
 * knows which stack runs: reports from fiber code have the right stacks, and a
 * noreturn call there (a trap) is not "on a stack ASan does not know". Weak:
 * the core also links into programs without ASan's runtime (test harnesses). */
extern void __sanitizer_start_switch_fiber(void **fake_stack_save, const void *bottom, size_t size)
    __attribute__((weak));
extern void __sanitizer_finish_switch_fiber(void *fake_stack_save, const void **bottom_old, size_t *size_old)
    __attribute__((weak));

/* Switches to the context at new_sp whose stack is [bottom, bottom + size);
 * dying: the current context never resumes (its fake stack can go). The
 * resumed side finishes the switch (emu_switch_done). */
static void emu_switch(void **save, void *new_sp, const void *bottom, size_t size, int dying) {
  void *fake = NULL;
  if (__sanitizer_start_switch_fiber) __sanitizer_start_switch_fiber(dying ? NULL : &fake, bottom, size);
  ldsan_emu_ctx_switch(save, new_sp);
  if (__sanitizer_finish_switch_fiber) __sanitizer_finish_switch_fiber(fake, NULL, NULL);
}

static void emu_switch_to_fiber(emu_worker *w, void **save, uint32_t j, int dying) {
  emu_fiber *t = &w->fibers[j];
  w->cur = j;
  t->state = EMU_READY;
  __ldsan_emu_tls.item = &t->ids;  /* before the switch: the fiber reads its ids from here */
  emu_switch(save, t->sp, t->stack_lo, (size_t)(t->stack_hi - t->stack_lo), dying);
}

static void emu_switch_to(emu_worker *w, void **save, uint32_t j) { emu_switch_to_fiber(w, save, j, 0); }

/* The worker's own stack, learnt when it first switches into a fiber. */
static void emu_switch_to_scheduler(emu_worker *w) {
  emu_switch(&w->dead_sp, w->sched_sp, w->sched_stack_bottom, w->sched_stack_size, 1);
}

static void emu_set_ready(emu_worker *w, uint32_t j) {
  w->fibers[j].state = EMU_READY;
  w->ready[j >> w->wave_shift] |= 1ull << (j & ((1u << w->wave_shift) - 1));
}

static void emu_block(emu_worker *w, uint32_t j, uint32_t state) {
  w->fibers[j].state = state;
  w->ready[j >> w->wave_shift] &= ~(1ull << (j & ((1u << w->wave_shift) - 1)));
}

/* Every fiber in `state` may run again. */
static void emu_release(emu_worker *w, uint32_t state) {
  for (uint32_t i = 0; i < w->n; i++)
    if (w->fibers[i].state == state) emu_set_ready(w, i);
}

/* Which of two lanes stopped at cross-lane operations goes first: the one
 * deeper in its stack (inside a call the other has returned from), else the
 * one whose site the retarget tool ranked higher (deeper in the post-dominator
 * tree: the other waits where the branches reconverge). */
static int emu_wave_before(const emu_parked *a, const emu_parked *b) {
  return a->depth != b->depth ? a->depth > b->depth : a->rank > b->rank;
}

/* Every lane of wave wv stopped, those in w->synced[wv] at cross-lane
 * operations: the lanes at the first site (emu_wave_before) execute it
 * together, as the exec mask of the hardware would have them; their results
 * go to their parked records. Returns them (the exec mask), taken out of
 * w->synced[wv]. Fibers and work-item loops alike. */
static uint64_t emu_wave_execute(emu_worker *w, uint32_t wv) {
  uint32_t first = wv << w->wave_shift;
  /* Lane i's record: fibers keep them in w->parked, loops in the frames. */
  uint8_t *base = w->loops ? w->frames + (size_t)first * w->group_frame_size + w->group_park_offset
                           : (uint8_t *)&w->parked[first];
  size_t stride = w->loops ? w->group_frame_size : sizeof(emu_parked);
#define EMU_PARKED(i) ((emu_parked *)(base + (size_t)(i) * stride))
  uint64_t s = w->synced[wv], exec = 0, m;
  uint64_t val[LDSAN_EMU_WAVE_LANES], res[LDSAN_EMU_WAVE_LANES];
  uint32_t arg[LDSAN_EMU_WAVE_LANES];
  unsigned best = (unsigned)__builtin_ctzll(s);
  for (m = s & (s - 1); m; m &= m - 1)
    if (emu_wave_before(EMU_PARKED(__builtin_ctzll(m)), EMU_PARKED(best))) best = (unsigned)__builtin_ctzll(m);
  const emu_parked *b = EMU_PARKED(best);
  for (m = s; m; m &= m - 1) {
    unsigned i = (unsigned)__builtin_ctzll(m);
    const emu_parked *p = EMU_PARKED(i);
    if (p->site != b->site || p->depth != b->depth) continue;
    exec |= 1ull << i;
    val[i] = p->val;
    arg[i] = p->arg;
  }
  ldsan_emu_wave_apply(b->op, 1u << w->wave_shift, exec, val, arg, res);
  if (b->op == LDSAN_EMU_WAVE_SYNC && arg[best] == LDSAN_EMU_WAVE_SYNC_BARRIER) w->wave_epoch[wv]++;
  for (m = exec; m; m &= m - 1) EMU_PARKED(__builtin_ctzll(m))->res = res[__builtin_ctzll(m)];
#undef EMU_PARKED
  w->synced[wv] &= ~exec;
  return exec;
}

/* Fibers: wave wv executes its first waiting operation (emu_wave_execute);
 * its lanes may run again. Returns the first of them. */
static uint32_t emu_wave_fire(emu_worker *w, uint32_t wv) {
  uint64_t exec = emu_wave_execute(w, wv);
  for (uint64_t m = exec; m; m &= m - 1) emu_set_ready(w, (wv << w->wave_shift) + (uint32_t)__builtin_ctzll(m));
  return (wv << w->wave_shift) + (uint32_t)__builtin_ctzll(exec);
}

/* The fiber to run next: a READY lane of the current wave (those after the
 * current lane first), else of the next waves; a wave none of whose lanes is
 * READY but some wait at a cross-lane operation executes one first. -1:
 * nothing can run. `yield`: the current fiber has not stopped (s_sleep): it
 * is not picked, and its wave executes no operation. */
static int emu_pick_next(emu_worker *w, int yield) {
  uint32_t cw = w->cur >> w->wave_shift, lane = w->cur & ((1u << w->wave_shift) - 1);
  for (uint32_t k = 0; k < w->nwaves; k++) {
    uint32_t wv = cw + k < w->nwaves ? cw + k : cw + k - w->nwaves;
    uint64_t m = w->ready[wv];
    if (wv == cw) {
      if (yield) m &= ~(1ull << lane);
      uint64_t after = lane == 63 ? 0 : m & (~0ull << (lane + 1));
      if (after) m = after;
    }
    if (m) return (int)((wv << w->wave_shift) + (uint32_t)__builtin_ctzll(m));
    if (w->synced[wv] && !(yield && wv == cw)) return (int)emu_wave_fire(w, wv);
  }
  return -1;
}

/* A lane of a lockstep wave arrives at a cross-lane operation and waits
 * until its wave executes it. Out of line, so that the calls of kernels whose
 * waves do not run in lockstep (ldsan's prologue and epilogue make some in
 * every workgroup) set up no frame for it. */
static __attribute__((noinline)) uint64_t emu_wave_arrive_lockstep(emu_worker *w, uint32_t op, uint64_t val,
                                                                   uint32_t arg, uint64_t rank, uintptr_t site,
                                                                   const void *frame) {
  uint32_t me = w->cur;
  emu_fiber *f = &w->fibers[me];
  emu_parked *p = &w->parked[me];
  *p = (emu_parked){.op = op, .arg = arg, .val = val, .rank = rank, .site = site,
                    .depth = (uintptr_t)f->stack_top - (uintptr_t)frame};
  emu_block(w, me, EMU_WAVE_WAIT);
  w->synced[me >> w->wave_shift] |= 1ull << (me & ((1u << w->wave_shift) - 1));
  int j = emu_pick_next(w, 0); /* exists: this wave has a waiting lane */
  if ((uint32_t)j != me) emu_switch_to(w, &f->sp, (uint32_t)j);
  return p->res;
}

uint64_t ldsan_emu_wave_arrive(uint32_t op, uint64_t val, uint32_t arg, uint64_t rank, uintptr_t site,
                               const void *frame) {
  emu_worker *w = ldsan_emu_self;
  if (!w->lockstep) return ldsan_emu_wave_alone(op, 1u << w->wave_shift, __ldsan_emu_tls.item->lane, val, arg);
  return emu_wave_arrive_lockstep(w, op, val, arg, rank, site, frame);
}

/* The lowest work-item that may run (one does: the caller). */
static uint32_t emu_first_ready(const emu_worker *w) {
  for (uint32_t v = 0;; v++)
    if (w->ready[v]) return (v << w->wave_shift) + (uint32_t)__builtin_ctzll(w->ready[v]);
}

__attribute__((visibility("default"))) void __ldsan_emu_s_barrier(void) {
  emu_worker *w = ldsan_emu_self;
  emu_fiber *f = &w->fibers[w->cur];
  if (++w->arrived == w->live) { /* last one in: release everybody */
    if (w->checks.detect_races) ldsan_emu_check_barrier(w, 1);
    w->arrived = 0;
    w->barrier_epoch++;
    emu_progress(w);
    emu_release(w, EMU_WAIT);
    /* The lowest work-item goes first, then the others in order, as in
     * work-item loops: the retarget tool leaves kernels out of lockstep
     * whose lanes meet in that order only (retarget_wave_lds.cpp). */
    uint32_t first = emu_first_ready(w);
    if (first != w->cur) emu_switch_to(w, &f->sp, first);
    return;
  }
  emu_block(w, w->cur, EMU_WAIT);
  int j = emu_pick_next(w, 0); /* exists: some live work-item has not arrived */
  emu_switch_to(w, &f->sp, (uint32_t)j);
}

/* A work-item left the body (exit or exit barrier): maybe complete a barrier,
 * or release the exit barrier once nobody is left in the body. */
static void emu_departed(emu_worker *w) {
  if (w->live && w->arrived == w->live) {
    w->arrived = 0;
    w->barrier_epoch++;
    emu_progress(w);
    emu_release(w, EMU_WAIT);
  }
  if (!w->live && w->exiting) {
    emu_progress(w);
    emu_release(w, EMU_EXIT_WAIT);
    w->live = w->exiting;
    w->exiting = 0;
    w->departed = 0; /* everybody is out of the body */
  }
}

/* The running work-item leaves the kernel body (returns, or reaches the exit
 * barrier): the barrier others wait at, or any later one, misses it. */
static void emu_leave_body(emu_worker *w) {
  if (!w->departed) w->departed = w->cur + 1;
  if (w->checks.detect_races && w->arrived) ldsan_emu_check_barrier(w, 0);
}

__attribute__((visibility("default"))) void __ldsan_emu_s_barrier_exit(void) {
  emu_worker *w = ldsan_emu_self;
  emu_fiber *f = &w->fibers[w->cur];
  emu_leave_body(w);
  emu_block(w, w->cur, EMU_EXIT_WAIT);
  w->live--;
  w->exiting++;
  emu_departed(w);
  if (f->state == EMU_READY) return; /* last one: everybody leaves together */
  int j = emu_pick_next(w, 0);
  emu_switch_to(w, &f->sp, (uint32_t)j);
}

/* ds_gws_barrier(count, offset): the grid-wide barrier of a cooperative
 * launch (cooperative groups' grid.sync(): work-item 0 of every workgroup
 * arrives, count + 1 of them, between two s_barriers). It blocks this
 * worker's thread, which only work-items already waiting at the s_barrier
 * share; every workgroup has a thread of its own (ldsan_emu_run). */
__attribute__((visibility("default"))) void __ldsan_emu_ds_gws_barrier(uint32_t count, uint32_t offset) {
  emu_worker *w = ldsan_emu_self;
  emu_dispatch *d = w->d;
  (void)offset;
  if (!d->cooperative) {
    fprintf(stderr, "ldsan-emu: error: kernel %s waits at a grid-wide barrier (cooperative groups' grid.sync()) "
            "but was not launched with hipLaunchCooperativeKernel, so its workgroups do not all run at once and "
            "it would wait forever; launch it with hipLaunchCooperativeKernel\n", d->kernel->name);
    __atomic_store_n(&d->refused, 1, __ATOMIC_RELAXED); /* the launch fails; the process goes on */
    ldsan_emu_trap_current();
  }
  pthread_mutex_lock(&d->lock);
  uint32_t gen = d->gws_gen;
  if (++d->gws_arrived >= count + 1) {
    d->gws_arrived = 0;
    d->gws_gen++;
    pthread_cond_broadcast(&d->gws_cond);
  } else {
    atomic_store_explicit(&w->in_grid_barrier, 1, memory_order_relaxed);
    while (gen == d->gws_gen && !atomic_load(&d->stop)) pthread_cond_wait(&d->gws_cond, &d->lock);
    atomic_store_explicit(&w->in_grid_barrier, 0, memory_order_relaxed);
  }
  pthread_mutex_unlock(&d->lock);
  emu_progress(w);
}

void ldsan_emu_yield(void) {
  emu_worker *w = ldsan_emu_self;
  if (!w || w->loops) return;
  int j = emu_pick_next(w, 1);
  if (j >= 0) emu_switch_to(w, &w->fibers[w->cur].sp, (uint32_t)j);
}

/* Runs on the fiber's own stack, from ldsan_emu_fiber_start. */
static void emu_fiber_main(void) {
  emu_worker *w = ldsan_emu_self;
  /* The first switch into this fiber ends here; it came from the scheduler or
   * another fiber: only the scheduler's stack is worth remembering. */
  const void *from_bottom = NULL;
  size_t from_size = 0;
  if (__sanitizer_finish_switch_fiber) __sanitizer_finish_switch_fiber(NULL, &from_bottom, &from_size);
  if (!w->sched_stack_bottom && from_bottom) {
    w->sched_stack_bottom = from_bottom;
    w->sched_stack_size = from_size;
  }
  w->entry(w->d->args);
  emu_leave_body(w);
  emu_block(w, w->cur, EMU_DONE);
  w->live--;
  emu_departed(w);
  int j = w->live ? emu_pick_next(w, 0) : -1;
  if (j >= 0) emu_switch_to_fiber(w, &w->dead_sp, (uint32_t)j, 1);
  emu_switch_to_scheduler(w);
  __builtin_unreachable();
}

void ldsan_emu_trap_current(void) { ldsan_emu_assert_trap(NULL); }

void ldsan_emu_assert_trap(const char *message) {
  emu_worker *w = ldsan_emu_self;
  emu_dispatch *d = w->d;
  pthread_mutex_lock(&d->lock);
  if (!d->trapped) {
    d->trapped = 1;
    d->trap_assert = message != NULL;
    memcpy(d->trap_group, __ldsan_emu_tls.group_id, sizeof d->trap_group);
    memcpy(d->trap_item, __ldsan_emu_tls.item->id, sizeof d->trap_item);
    if (message) fputs(message, stderr);
  }
  atomic_store(&d->stop, 1);
  pthread_cond_broadcast(&d->gws_cond); /* nobody waits at the grid barrier for this workgroup */
  pthread_mutex_unlock(&d->lock);
  if (w->loops) longjmp(w->trap_jmp, 1); /* the workgroup is abandoned */
  w->live = 0;
  emu_switch_to_scheduler(w);
  __builtin_unreachable();
}

/* The group function's shape flag for workgroups of d (emu.h). */
static uint32_t emu_group_shape(const emu_dispatch *d) {
  return d->block[1] == 1 && d->block[2] == 1 ? LDSAN_EMU_GROUP_ONE_D : 0;
}

static int emu_by_region(const void *a, const void *b) {
  uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
  return x < y ? -1 : x > y;
}

/* The regions past the masks' bits that work-items wait at with `parity`,
 * into w->high in increasing order; returns how many. */
static uint32_t emu_high_regions(emu_worker *w, uint32_t n, uint32_t parity) {
  /* Mostly all wait at one: checked first by a loop without branches. */
  uint32_t first = w->states[0], differ = 0;
  for (uint32_t i = 1; i < n; i++) differ |= w->states[i] ^ first;
  if (!differ && first != LDSAN_EMU_GROUP_STATE_DONE && (first & 1) == parity &&
      (first >> 1) >= LDSAN_EMU_GROUP_LOW_REGIONS) {
    w->high[0] = first >> 1;
    return 1;
  }
  uint32_t k = 0, last = LDSAN_EMU_GROUP_STATE_DONE; /* neighbours mostly wait at the same region */
  for (uint32_t i = 0; i < n; i++) {
    uint32_t st = w->states[i];
    if (st == last) continue;
    last = st;
    if (st == LDSAN_EMU_GROUP_STATE_DONE || (st & 1) != parity || (st >> 1) < LDSAN_EMU_GROUP_LOW_REGIONS) continue;
    uint32_t r = st >> 1, j = 0;
    while (j < k && w->high[j] != r) j++;
    if (j == k) w->high[k++] = r;
  }
  qsort(w->high, k, sizeof *w->high, emu_by_region);
  return k;
}

/* One pass: the group function runs each region of `run` (p: its parity and
 * flags). LDSAN_EMU_GROUP_HIGH in `run` stands for every region past the
 * masks' bits that work-items wait at, and is then "all waiting" only if
 * that is one region. Returns the regions they stopped at (emu.h). */
static uint64_t emu_group_pass(emu_worker *w, emu_dispatch *d, uint64_t run, uint32_t p) {
  uint32_t n = d->items, high = 0;
  if (run & LDSAN_EMU_GROUP_HIGH) {
    run &= ~LDSAN_EMU_GROUP_HIGH;
    high = emu_high_regions(w, n, p & 1);
    if (high > 1 || run) p &= ~LDSAN_EMU_GROUP_ALL_WAITING;
  }
  uint64_t seen = 0;
  for (uint64_t m = run; m; m &= m - 1) {
    if (w->checked_loops) ldsan_emu_lds_track_refresh(w);
    seen |= w->group(d->args, w->ids, n, w->frames, w->states, (uint32_t)__builtin_ctzll(m), p);
  }
  for (uint32_t i = 0; i < high; i++) {
    if (w->checked_loops) ldsan_emu_lds_track_refresh(w);
    seen |= w->group(d->args, w->ids, n, w->frames, w->states, w->high[i], p);
  }
  return seen;
}

/* A checked group function went on to the next region itself
 * (LDSAN_EMU_GROUP_CHAIN): what the core does between two passes when every
 * work-item waits at one barrier (emu_run_group_loops, emu_group_pass). A
 * plain group function only counts in `chained`: nothing else of the core's
 * happens at its barriers then. */
EMU_API void __ldsan_emu_lds_chained(void) {
  emu_worker *w = ldsan_emu_self;
  __ldsan_emu_tls.chained++;
  w->barrier_epoch++;
  emu_progress(w);
  ldsan_emu_lds_track_next_epoch(w);
}

/* memset(p, 0, n) without the call: in an emulated program memset is
 * ASan's interceptor, which first checks the range's shadow (5% of the
 * reduction's time in `make bench` for the two fills of each workgroup). */
__attribute__((noinline, no_builtin("memset"))) static void emu_zero(void *p, size_t n) {
  unsigned char *b = p;
  for (size_t i = 0; i < n; i++) b[i] = 0;
}

/* One workgroup with work-item loops: passes over the regions work-items wait at. */
static void emu_run_group_loops(emu_worker *w, emu_dispatch *d) {
  uint32_t n = d->items;
  emu_zero(w->states, n * sizeof *w->states); /* everybody at region 0, parity 0 */
  if (setjmp(w->trap_jmp)) return;            /* trapped: the workgroup is abandoned */
  uint64_t normal = 1, exits = 0;
  int gone = 0;     /* some work-item returned or waits at the kernel-exit barrier */
  int returned = 0; /* some work-item returned */
  uint32_t parity = 0, shape = emu_group_shape(d);
  int everyone = 1; /* all n work-items wait at the one region in `normal` */
  while (normal | exits) {
    uint64_t run, seen = 0;
    uint32_t p;
    if (normal) { /* a pass over the body's barriers */
      run = normal;
      p = parity | shape | (everyone && !(run & (run - 1)) ? LDSAN_EMU_GROUP_ALL_WAITING | LDSAN_EMU_GROUP_CHAIN : 0);
      parity ^= 1;
    } else { /* everybody left the body: release the kernel-exit barrier */
      run = exits;
      p = shape | (!returned && !(exits & (exits - 1)) ? LDSAN_EMU_GROUP_ALL_WAITING : 0);
      exits = 0;
      parity = 1;
    }
    __ldsan_emu_tls.chained = 0;
    seen = emu_group_pass(w, d, run, p);
    parity ^= __ldsan_emu_tls.chained & 1; /* each region the group function went on to flipped it */
    normal = seen & ~w->group_exit_regions & ~LDSAN_EMU_GROUP_DONE;
    exits |= seen & w->group_exit_regions;
    returned |= (seen & LDSAN_EMU_GROUP_DONE) != 0;
    gone |= returned || exits;
    if (normal) { /* the barrier the waiting work-items are released from next */
      /* Divergence needs two barriers waited at (a region follows one barrier;
       * LDSAN_EMU_GROUP_HIGH may be several) or a work-item gone; else there
       * is nothing to look at. */
      if (w->checks.detect_races && ((normal & (normal - 1)) || (normal & LDSAN_EMU_GROUP_HIGH) || gone))
        ldsan_emu_check_pass(w, w->states, n, normal, w->group_exit_regions);
      w->barrier_epoch++;
      emu_progress(w);
    }
    everyone = (p & LDSAN_EMU_GROUP_ALL_WAITING) && !(normal & (normal - 1)) && !exits &&
               !(seen & LDSAN_EMU_GROUP_DONE);
  }
}

/* A work-item of lockstep loops stopped at a cross-lane operation that its
 * wave has not executed yet: no pass runs it (its state matches no region). */
#define EMU_STATE_HELD 0x40000000u

/* Sets the state of the work-items of n whose region (state / 2, without
 * EMU_STATE_HELD) is in `regions` to region * 2 + parity; returns how many. */
static uint32_t emu_release_regions(uint32_t *states, uint32_t n, uint64_t regions, uint32_t parity) {
  uint32_t k = 0;
  for (uint32_t i = 0; i < n; i++) {
    uint32_t st = states[i];
    if (st == LDSAN_EMU_GROUP_STATE_DONE) continue;
    uint32_t r = (st & ~EMU_STATE_HELD) >> 1;
    if (regions & ldsan_emu_region_bit(r)) {
      states[i] = r << 1 | parity;
      k++;
    }
  }
  return k;
}

/* One workgroup of a lockstep kernel with work-item loops: as
 * emu_run_group_loops, but a work-item also stops after parking (a record
 * in its frame) at a cross-lane stop (a region of group_wave_regions). After each pass, every
 * wave with lanes stopped there executes its first site (emu_wave_execute, as
 * fibers do) and those lanes run on in the next pass; the others stay held.
 * Only when no lane waits at a cross-lane stop are barriers released, then
 * the kernel-exit barrier. */
static void emu_run_group_lockstep_loops(emu_worker *w, emu_dispatch *d) {
  uint32_t n = d->items, *states = w->states, shift = w->wave_shift;
  uint32_t nwaves = (n + (1u << shift) - 1) >> shift;
  uint64_t wave_regions = w->group_wave_regions, exit_regions = w->group_exit_regions;
  memset(states, 0, n * sizeof *states);
  if (setjmp(w->trap_jmp)) return; /* trapped: the workgroup is abandoned */
  uint64_t run = 1;
  uint32_t parity = 0, runnable = n, shape = emu_group_shape(d);
  int gone = 0;
  for (;;) {
    uint32_t p = parity | shape | (runnable == n && !(run & (run - 1)) ? LDSAN_EMU_GROUP_ALL_WAITING : 0);
    emu_group_pass(w, d, run, p);
    parity ^= 1;
    /* Where everybody stopped. */
    uint64_t normal = 0, exits = 0;
    int waves = 0;
    memset(w->synced, 0, nwaves * sizeof *w->synced);
    for (uint32_t i = 0; i < n; i++) {
      uint32_t st = states[i];
      if (st == LDSAN_EMU_GROUP_STATE_DONE) {
        gone = 1;
        continue;
      }
      uint32_t r = (st & ~EMU_STATE_HELD) >> 1;
      uint64_t bit = ldsan_emu_region_bit(r);
      if (wave_regions & bit) {
        w->synced[i >> shift] |= 1ull << (i & ((1u << shift) - 1));
        waves = 1;
      } else if (exit_regions & bit) {
        exits |= bit;
      } else {
        normal |= bit;
      }
    }
    if (waves) { /* each wave executes its first cross-lane stop; the rest stay */
      run = 0;
      runnable = 0;
      for (uint32_t v = 0; v < nwaves; v++) {
        if (!w->synced[v]) continue;
        uint64_t held = w->synced[v], exec = emu_wave_execute(w, v);
        for (uint64_t m = held; m; m &= m - 1) {
          uint32_t i = (v << shift) + (uint32_t)__builtin_ctzll(m), r = (states[i] & ~EMU_STATE_HELD) >> 1;
          if (exec >> (i & ((1u << shift) - 1)) & 1) {
            states[i] = r << 1 | parity;
            run |= ldsan_emu_region_bit(r);
            runnable++;
          } else {
            states[i] |= EMU_STATE_HELD;
          }
        }
      }
      continue;
    }
    if (normal) { /* every live work-item waits at a barrier: release them */
      runnable = emu_release_regions(states, n, normal, parity);
      gone |= exits != 0;
      if (w->checks.detect_races && ((normal & (normal - 1)) || gone))
        ldsan_emu_check_pass(w, states, n, normal, exit_regions);
      w->barrier_epoch++;
      emu_progress(w);
      run = normal;
    } else if (exits) { /* everybody left the body: release the kernel-exit barrier */
      runnable = emu_release_regions(states, n, exits, parity);
      emu_progress(w);
      run = exits;
    } else {
      return; /* everybody returned */
    }
  }
}

static void emu_run_group_fibers(emu_worker *w, emu_dispatch *d) {
  for (uint32_t i = 0; i < d->items; i++) {
    emu_fiber *f = &w->fibers[i];
    emu_item_ids(d, i, &f->ids);
    f->state = EMU_READY;
    /* Frame popped by the first ldsan_emu_ctx_switch: r15..rbp, return
     * address; stack tops are staggered by 64-byte lines so that 1024 stacks
     * 4 KiB-aligned apart do not all fall into one cache set. */
    uint64_t *sp = (uint64_t *)(f->stack_hi - 64 * (i % 61) - 56); /* rsp after ret: 16-aligned */
    memset(sp, 0, 48);
    sp[3] = (uint64_t)(uintptr_t)emu_fiber_main; /* popped into r12: ldsan_emu_fiber_start calls it */
    sp[6] = (uint64_t)(uintptr_t)ldsan_emu_fiber_start;
    f->sp = sp;
    f->stack_top = (uint8_t *)sp;
  }
  w->n = d->items;
  uint32_t wave = 1u << w->wave_shift;
  w->nwaves = (d->items + wave - 1) >> w->wave_shift;
  for (uint32_t v = 0; v < w->nwaves; v++) {
    uint32_t lanes = d->items - v * wave < wave ? d->items - v * wave : wave;
    w->ready[v] = lanes >= 64 ? ~0ull : (1ull << lanes) - 1;
    w->synced[v] = 0;
  }
  w->live = d->items;
  w->arrived = 0;
  w->cur = 0;
  w->exiting = 0;
  w->departed = 0;
  __ldsan_emu_tls.item = &w->fibers[0].ids;
  emu_switch(&w->sched_sp, w->fibers[0].sp, w->fibers[0].stack_lo,
             (size_t)(w->fibers[0].stack_hi - w->fibers[0].stack_lo), 0);
}

static void emu_run_group(emu_worker *w, emu_dispatch *d, uint64_t g) {
  __ldsan_emu_tls.group_id[0] = (uint32_t)(g % d->grid[0]);
  __ldsan_emu_tls.group_id[1] = (uint32_t)(g / d->grid[0] % d->grid[1]);
  __ldsan_emu_tls.group_id[2] = (uint32_t)(g / ((uint64_t)d->grid[0] * d->grid[1]));
  emu_zero(w->lds, d->lds_size);
  ldsan_emu_lds_checks_new_group(w);
  if (w->loops && w->group_wave_regions) emu_run_group_lockstep_loops(w, d);
  else if (w->loops) emu_run_group_loops(w, d);
  else emu_run_group_fibers(w, d);
}

static void emu_run_worker(emu_worker *w, emu_dispatch *d) {
  ldsan_emu_self = w;
  w->d = d;
  w->wave_shift = d->wave_shift;
  const ldsan_emu_options *o = emu_options();
  w->checks = (emu_check_options){o->report_wave_sync, o->detect_races, o->detect_uninit};
  int every_access = o->detect_races || o->detect_uninit;
  /* LDS checks: the kernel's checked copy, in its own work-item loops if it has them. */
  const ldsan_emu_kernel *k = d->kernel;
  int checked = k->entry_checked && (every_access || (o->report_wave_sync && k->lockstep));
  w->group = o->fibers ? NULL : checked ? k->group_checked : k->group;
  w->group_frame_size = checked ? k->group_checked_frame_size : k->group_frame_size;
  w->group_exit_regions = checked ? k->group_checked_exit_regions : k->group_exit_regions;
  w->group_wave_regions = checked ? k->group_checked_wave_regions : k->group_wave_regions;
  w->group_park_offset = checked ? k->group_checked_park_offset : k->group_park_offset;
  w->region_pcs = checked ? k->group_checked_barrier_pcs : NULL;
  w->loops = w->group != NULL;
  w->checked_loops = w->loops && checked;
  __ldsan_emu_tls.track_size = 0; /* no inline path of the LDS checks (fibers) unless refreshed */
  w->lockstep = k->lockstep && !w->loops;
  w->entry = checked ? k->entry_checked : k->entry;
  w->loop_stack_hi = __builtin_frame_address(0);
  if (w->loops) emu_prepare_loops(w, d);
  else emu_ensure_fibers(w, d->items);
  emu_ensure_lds(w, d->lds_size ? d->lds_size : 16);
  __ldsan_emu_tls.lds_base = w->lds;
  __ldsan_emu_tls.lds_size = d->lds_size;
  __ldsan_emu_tls.implicitarg = d->implicitarg;
  __ldsan_emu_tls.dispatch = d->packet;
  __ldsan_emu_tls.static_lds_size = d->kernel->static_lds_size;
  __ldsan_emu_tls.lds_kernel_id = 0;
  while (!atomic_load_explicit(&d->stop, memory_order_relaxed)) {
    uint64_t g = atomic_fetch_add_explicit(&d->next_group, 1, memory_order_relaxed);
    if (g >= d->groups) break;
    atomic_store_explicit(&w->wd_group, g + 1, memory_order_relaxed);
    emu_run_group(w, d, g);
    emu_progress(w);
  }
  atomic_store_explicit(&w->wd_group, 0, memory_order_relaxed);
  ldsan_emu_self = NULL;
}

/* ---- worker pool -------------------------------------------------------- */
static pthread_mutex_t launch_mu = PTHREAD_MUTEX_INITIALIZER; /* one dispatch at a time: the pool is shared */
static pthread_mutex_t pool_mu = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t pool_go = PTHREAD_COND_INITIALIZER, pool_done = PTHREAD_COND_INITIALIZER;
static emu_dispatch *pool_d;
static uint64_t pool_epoch;
/* Before sleeping on a condition variable, a worker waiting for the next
 * dispatch (or the launcher waiting for the others to finish) spins this
 * long: programs launch kernels back to back, and a thread woken from a
 * condition variable starts late. */
#define EMU_SPIN_NS 300000u

/* Spins (up to EMU_SPIN_NS) while (*v == x) == equal; returns early when that ends.
 * It yields the core every 64 rounds: on a loaded machine the thread it waits
 * for may be waiting for this core (the reduction of `make bench` beside one
 * busy loop on 2 cores: 1.17-1.46 ms per launch spinning, 0.84-1.22 ms
 * yielding; a yield with nothing else to run returns at once). */
static void emu_spin_while(const uint64_t *v, uint64_t x, int equal) {
  struct timespec t0, t;
  clock_gettime(CLOCK_MONOTONIC, &t0);
  for (unsigned i = 1;; i++) {
    if ((__atomic_load_n(v, __ATOMIC_ACQUIRE) == x) != equal) return;
    __builtin_ia32_pause();
    if (i % 64 == 0) {
      sched_yield();
      clock_gettime(CLOCK_MONOTONIC, &t);
      if ((uint64_t)(t.tv_sec - t0.tv_sec) * 1000000000u + (uint64_t)(t.tv_nsec - t0.tv_nsec) > EMU_SPIN_NS) return;
    }
  }
}
static unsigned pool_threads = (unsigned)-1; /* -1: no pool yet (started by the first launch) */
static uint64_t pool_busy;
/* The pool threads' workers, one each: here rather than on their stacks, so
 * that a forked child, which has none of the threads, can free them. */
static emu_worker **pool_workers;
/* The workers of a dispatch on the pool, for the stall detector: the
 * launching thread's (set per launch), then the pool threads'. */
static emu_worker **pool_run_list;
static __thread emu_worker *caller_worker;

/* A launching thread's worker goes when the thread does (LeakSanitizer would
 * otherwise report each host thread that ever launched a kernel). */
static pthread_key_t caller_key;
static pthread_once_t caller_key_once = PTHREAD_ONCE_INIT;

static void emu_free_worker(void *p) {
  emu_worker *w = p;
  free(w->ids);
  free(w->states);
  free(w->high);
  free(w->frames);
  free(w->fibers);
  if (w->stacks) munmap(w->stacks, w->stacks_len);
  free(w->lds);
  free(w->track);
  free(w->atomic_reads);
  free(w);
}

static void emu_make_caller_key(void) {
  int rc = pthread_key_create(&caller_key, emu_free_worker);
  if (rc != 0)
    ldsan_emu_die("cannot create the thread-specific key that frees a launching thread's worker: %s; the process has "
                  "used up its keys (PTHREAD_KEYS_MAX): create fewer", strerror(rc));
}

/* The calling thread's worker, made on its first launch. */
static emu_worker *emu_caller_worker(void) {
  if (!caller_worker) {
    caller_worker = ldsan_emu_xalloc(sizeof *caller_worker, 0, "the worker of a launching thread");
    caller_worker->thread = pthread_self();
    pthread_once(&caller_key_once, emu_make_caller_key);
    pthread_setspecific(caller_key, caller_worker);
  }
  return caller_worker;
}

static void *emu_pool_main(void *arg) {
  emu_worker *w = arg;
  uint64_t seen = 0;  /* pool_epoch when the pool started */
  for (;;) {
    emu_spin_while(&pool_epoch, seen, 1);
    pthread_mutex_lock(&pool_mu);
    while (pool_epoch == seen) pthread_cond_wait(&pool_go, &pool_mu);
    seen = pool_epoch;
    emu_dispatch *d = pool_d;
    pthread_mutex_unlock(&pool_mu);
    emu_run_worker(w, d);
    pthread_mutex_lock(&pool_mu);
    if (__atomic_sub_fetch(&pool_busy, 1, __ATOMIC_RELEASE) == 0) pthread_cond_signal(&pool_done);
    pthread_mutex_unlock(&pool_mu);
  }
  return NULL;
}

/* fork(): the child has only the thread that called it, none of the pool's.
 * Before the fork the launch and pool locks are taken (no dispatch runs, no
 * worker is inside the pool's handshake), after it the parent releases them;
 * the child makes them anew and forgets the pool, so that its first launch
 * starts workers of its own (emu_start_pool). */
static void emu_fork_prepare(void) {
  pthread_mutex_lock(&launch_mu);
  pthread_mutex_lock(&pool_mu);
  ldsan_emu_watch_fork_prepare();
}

static void emu_fork_parent(void) {
  ldsan_emu_watch_fork_parent();
  pthread_mutex_unlock(&pool_mu);
  pthread_mutex_unlock(&launch_mu);
}

static void emu_fork_child(void) {
  pthread_mutex_init(&launch_mu, NULL);
  pthread_mutex_init(&pool_mu, NULL);
  pthread_cond_init(&pool_go, NULL);
  pthread_cond_init(&pool_done, NULL);
  pool_d = NULL;
  pool_epoch = 0;
  pool_busy = 0;
  pool_threads = (unsigned)-1;
  ldsan_emu_watch_fork_child();
}

/* Under launch_mu. */
static void emu_start_pool(void) {
  static int fork_handled; /* once per process tree: a child inherits the handlers */
  if (!fork_handled) {
    int rc = pthread_atfork(emu_fork_prepare, emu_fork_parent, emu_fork_child);
    if (rc != 0) ldsan_emu_die("cannot register the worker pool's fork handlers: %s", strerror(rc));
    fork_handled = 1;
  }
  /* A forked child: the parent's pool threads are not here, their workers are. */
  for (unsigned i = 0; pool_workers && pool_workers[i]; i++) emu_free_worker(pool_workers[i]);
  free(pool_workers);
  free(pool_run_list);
  long cores = sysconf(_SC_NPROCESSORS_ONLN);
  int threads = emu_options()->threads;
  /* Every core by default (at most EMU_MAX_WORKERS): workgroups are independent. */
  unsigned n = threads > 0 ? (unsigned)threads : cores < 1 ? 1 : cores > EMU_MAX_WORKERS ? EMU_MAX_WORKERS : (unsigned)cores;
  pool_workers = ldsan_emu_xalloc(n * sizeof *pool_workers, 0, "the worker pool's table"); /* NULL-terminated */
  pool_run_list = ldsan_emu_xalloc(n * sizeof *pool_run_list, 0, "the worker pool's list for the stall detector");
  pool_threads = 0;
  for (unsigned i = 1; i < n; i++) {
    emu_worker *w = ldsan_emu_xalloc(sizeof *w, 0, "a pool thread's worker");
    pthread_t t;
    pthread_attr_t a;
    pthread_attr_init(&a);
    pthread_attr_setdetachstate(&a, PTHREAD_CREATE_DETACHED);
    if (pthread_create(&t, &a, emu_pool_main, w) == 0) {
      w->thread = t;
      pool_run_list[1 + pool_threads] = w;
      pool_workers[pool_threads++] = w;
    } else {
      free(w);
    }
    pthread_attr_destroy(&a);
  }
}

/* A cooperative dispatch: one thread and worker per workgroup, all at once
 * (its grid-wide barriers need every workgroup running). */
static void *emu_coop_main(void *arg) {
  emu_worker *w = arg;
  emu_run_worker(w, w->d);
  return NULL;
}

static void emu_run_cooperative(emu_dispatch *d) {
  uint64_t extra = d->groups - 1;
  pthread_t *t = ldsan_emu_xalloc((extra ? extra : 1) * sizeof *t, 0, "the threads of a cooperative launch");
  /* ws[extra]: the launching thread's, for the stall detector's list. */
  emu_worker **ws = ldsan_emu_xalloc((extra + 1) * sizeof *ws, 0, "the workers of a cooperative launch");
  uint64_t started = 0;
  for (; started < extra; started++) {
    ws[started] = ldsan_emu_xalloc(sizeof **ws, 0, "a worker of a cooperative launch");
    ws[started]->d = d;
    int rc = pthread_create(&t[started], NULL, emu_coop_main, ws[started]);
    if (rc != 0)
      ldsan_emu_die("cannot start thread %llu of the %llu of cooperative kernel %s (one per workgroup): %s; launch "
                    "fewer workgroups or raise the process's thread limit (ulimit -u)",
                    (unsigned long long)started + 2, (unsigned long long)d->groups, d->kernel->name, strerror(rc));
    ws[started]->thread = t[started];
  }
  ws[extra] = caller_worker;
  ldsan_emu_watch_begin(d, ws, (uint32_t)extra + 1, emu_options()->stall_timeout);
  emu_run_worker(caller_worker, d);
  for (uint64_t i = 0; i < started; i++) pthread_join(t[i], NULL);
  ldsan_emu_watch_end();
  for (uint64_t i = 0; i < started; i++) emu_free_worker(ws[i]);
  free(t);
  free(ws);
}

int ldsan_emu_run(emu_dispatch *d) {
  pthread_mutex_lock(&launch_mu);
  if (pool_threads == (unsigned)-1) emu_start_pool();
  emu_caller_worker();
  if (d->cooperative) {
    emu_run_cooperative(d);
    pthread_mutex_unlock(&launch_mu);
    return d->trapped;
  }
  unsigned helpers = d->groups > 1 ? pool_threads : 0;
  pool_run_list[0] = caller_worker;
  ldsan_emu_watch_begin(d, pool_run_list, helpers + 1, emu_options()->stall_timeout);
  if (helpers) {
    pthread_mutex_lock(&pool_mu);
    pool_d = d;
    __atomic_store_n(&pool_busy, helpers, __ATOMIC_RELAXED);
    __atomic_store_n(&pool_epoch, pool_epoch + 1, __ATOMIC_RELEASE);
    pthread_cond_broadcast(&pool_go);
    pthread_mutex_unlock(&pool_mu);
  }
  emu_run_worker(caller_worker, d);
  if (helpers) {
    emu_spin_while(&pool_busy, 0, 0);
    pthread_mutex_lock(&pool_mu);
    while (pool_busy) pthread_cond_wait(&pool_done, &pool_mu);
    pthread_mutex_unlock(&pool_mu);
  }
  ldsan_emu_watch_end();
  pthread_mutex_unlock(&launch_mu);
  return d->trapped;
}
