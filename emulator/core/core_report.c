/* ldsan emulator core: the emulator as a backend of the host library.
 * Memory is this process's memory: reads go through process_vm_readv (a bad
 * device-written address fails instead of faulting), writes are byte loops,
 * shared memory is the heap. A device pc is an x86-64 return address in the
 * retargeted device code linked into the program: the object it is in and its
 * ELF address there go to the host's symbolizer, which reads the line tables
 * the retarget tool kept. Every image with ldsan's runtime is registered
 * with the host library when it loads (ABI check, its own report channel,
 * option flags), and each dispatch ends in ldsan_host_dispatch_done, which
 * prints the reports and ends the process if one of them must stop it: the
 * same path the HSA tools library takes on a GPU. The shadow is host ASan's
 * when the program has it, else the host library maps it. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ldsan/abi.h"
#include "ldsan/host.h"
#include "core_internal.h"

static ldsan_emu_report_hook report_hook;
static void *report_hook_ctx;

void ldsan_emu_set_report_hook(ldsan_emu_report_hook hook, void *ctx) {
  report_hook = hook;
  report_hook_ctx = ctx;
}


EMU_DEVICE_ACCESS void ldsan_emu_device_copy(void *dst, const void *src, size_t n) {
  volatile unsigned char *to = dst;
  const volatile unsigned char *from = src;
  for (size_t i = 0; i < n; i++) to[i] = from[i];
}

EMU_DEVICE_ACCESS static int emu_read(void *ctx, uint64_t addr, void *dst, size_t n) {
  (void)ctx;
  /* Addresses come from device-written records and headers, which a kernel's
   * own bug may have overwritten (an underflow into its block header): read
   * without faulting. Not memcpy: host ASan intercepts memcpy and would abort
   * on the poisoned LDS redzones the report has to read. */
  int rc = ldsan_host_read_self(addr, dst, n);
  if (rc != -2) return rc;
  /* The system call is not allowed here (seccomp): a byte loop. */
  ldsan_emu_device_copy(dst, (const void *)(uintptr_t)addr, n);
  return 0;
}

/* Byte loop for the same reason as emu_read. */
static int emu_write(void *ctx, uint64_t addr, const void *src, size_t n) {
  (void)ctx;
  ldsan_emu_device_copy((void *)(uintptr_t)addr, src, n);
  return 0;
}

/* Zeroed, and a large allocation (the device's 64 MiB LDS backing store)
 * comes as untouched zero pages, not 64 MiB of memset. The pool aligns its own
 * base; nothing here needs more than malloc's alignment. NULL on failure: the
 * host library decides (a report channel it cannot have refuses the image, see
 * __ldsan_emu_register_image; the LDS store falls back to the built-in pool). */
static void *emu_alloc_shared(void *ctx, size_t n, uint64_t *device_addr) {
  (void)ctx;
  void *p = ldsan_emu_try_alloc(n, 0, "ldsan's shared memory (a report channel or the LDS backing store)");
  if (!p) return NULL;
  *device_addr = (uint64_t)(uintptr_t)p;
  return p;
}

static void emu_free_shared(void *ctx, void *p) {
  (void)ctx;
  free(p);
}

/* Frames of the functions the retarget tool made (__ldsan_emu_entry.<kernel>,
 * __ldsan_emu_group.<kernel>: the kernel is inlined into them) say nothing
 * the kernel's own frame does not. */
static int emu_made(const ldsan_frame *f) { return f->function && !strncmp(f->function, "__ldsan_emu_", 12); }

static int emu_symbolize(void *ctx, uint64_t pc, ldsan_frame *frames, int max_frames) {
  (void)ctx;
  int n = ldsan_symbolize_host_pc(pc, frames, max_frames), kept = 0;
  for (int i = 0; i < n; i++)
    if (!emu_made(&frames[i])) frames[kept++] = frames[i];
  if (n > 0 && !kept) {  /* nothing but the retarget tool's functions (-g0): the module alone */
    ldsan_frame bare = {NULL, NULL, 0, 0, frames[0].module, frames[0].module_offset};
    frames[0] = bare;
    kept = 1;
  }
  return kept;
}

int ldsan_emu_symbolize_pc(uint64_t pc, int exact, ldsan_frame *frames, int max_frames) {
  /* The host symbolizer looks up the call before a return address (pc - 1). */
  int n = ldsan_symbolize_host_pc(exact ? pc + 1 : pc, frames, max_frames);
  for (int i = 0; exact && i < n; i++) frames[i].module_offset--;
  return n;
}

static const ldsan_backend emu_backend = {
    .device_name = "cpu-emulator",
    .device = 0,
    .mem = {NULL, emu_read},
    .write = emu_write,
    .alloc_shared = emu_alloc_shared,
    .free_shared = emu_free_shared,
    .symbolize = emu_symbolize,
    .checks_lds_itself = 1,
    .maps_asan_shadow = 1,
};

ldsan_image *ldsan_emu_register_host(const ldsan_emu_image *img) {
  if (!img->device_state) return NULL;
  return ldsan_host_image_register(&emu_backend, img->source, (uint64_t)(uintptr_t)img->device_state);
}

/* Posts the LDS checks' findings (core_lds_check.c) to the channel as the
 * device posts its reports (abi.h protocol; the dispatch has ended, so each is
 * written whole and published READY), where the drain prints them with the
 * rest: deduplicated, counted, limited, as text or JSON. */
static void emu_post_hazards(ldsan_report_channel *ch, const emu_dispatch *d) {
  if (d->hazards_lost) __atomic_fetch_add(&ch->dropped, d->hazards_lost, __ATOMIC_RELAXED);
  for (uint32_t i = 0; i < d->hazard_count; i++) (void)ldsan_host_channel_post(ch, &d->hazards[i]);
}

/* The host library's view of dispatch d (info's arrays point into d). */
static void emu_dispatch_info(const emu_dispatch *d, ldsan_dispatch_info *info) {
  *info = (ldsan_dispatch_info){
      .kernel_name = d->kernel->name,
      .grid_size = {d->grid[0], d->grid[1], d->grid[2]},
      .block_size = {d->block[0], d->block[1], d->block[2]},
      .device = 0,
      /* Records carry the implicit-argument pointer: this dispatch's own block. */
      .args_begin = (uint64_t)(uintptr_t)d->implicitarg,
      .args_end = (uint64_t)(uintptr_t)d->implicitarg + EMU_IMPLICIT_SIZE,
      .launch_pcs = d->launch_pcs,
      .launch_depth = d->launch_depth,
  };
}

void ldsan_emu_stalled_reports(emu_dispatch *d) {
  ldsan_report_channel *ch = d->host ? ldsan_host_image_channel(d->host) : NULL;
  if (ch) {
    /* Its workers still run: the findings so far, under the lock they take. */
    pthread_mutex_lock(&d->lock);
    emu_post_hazards(ch, d);
    d->hazard_count = 0;
    d->hazards_lost = 0;
    pthread_mutex_unlock(&d->lock);
    ldsan_dispatch_info info;
    emu_dispatch_info(d, &info);
    ldsan_host_dispatch_done(d->host, &info);
  }
  ldsan_host_drain_all();
}

int ldsan_emu_finish_dispatch(ldsan_image *host, const emu_dispatch *d) {
  ldsan_report_channel *ch = ldsan_host_image_channel(host);
  if (!ch) return 0;
  emu_post_hazards(ch, d);
  if (report_hook) {
    uint64_t mine = (uint64_t)(uintptr_t)d->implicitarg;
    for (uint32_t i = 0; i < LDSAN_CHANNEL_CAPACITY + LDSAN_CHANNEL_FIRST; i++) {
      const ldsan_report_record *r = i < LDSAN_CHANNEL_CAPACITY ? &ch->records[i] : &ch->first[i - LDSAN_CHANNEL_CAPACITY];
      if (__atomic_load_n(&r->state, __ATOMIC_ACQUIRE) == LDSAN_RECORD_READY && r->dispatch >= mine &&
          r->dispatch < mine + EMU_IMPLICIT_SIZE)
        report_hook(r, report_hook_ctx);
    }
  }
  ldsan_dispatch_info info;
  emu_dispatch_info(d, &info);
  /* Prints the reports; does not return if one of them stops the program. */
  return ldsan_host_dispatch_done(host, &info);
}

void ldsan_emu_after_trap(void) {
  ldsan_emu_options o;
  ldsan_host_emu_options(&o);
  if (!o.abort_on_trap) return;
  /* The trapping dispatch's reports are out already; any other image's too. */
  ldsan_host_drain_all();
  fprintf(stderr, "ldsan-emu: a device trap ends the process, as the HIP runtime ends it on a GPU; "
                  "LDSAN_OPTIONS=abort_on_trap=0 makes the launch return hipErrorLaunchFailure instead\n");
  ldsan_host_die();
}
