/* ldsan emulator core: shadow memory and the device -> host report path.
 * Shadow: with host ASan in the process (weak __asan_init resolves) ASan owns
 * the x86-64 shadow at (addr >> 3) + 0x7FFF8000, which is exactly the device
 * mapping; otherwise the core maps ASan's low and high shadow ranges once
 * (MAP_NORESERVE | MAP_FIXED_NOREPLACE), so device shadow writes just work.
 * Reports: after each dispatch the image's channel (device_state.channel, or
 * the built-in one) is drained through libldsan-host, which prints the reports
 * and decides whether the process must stop; if so it exits with the
 * configured exit code after flushing. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "../../include/ldsan/abi.h"
#include "../../include/ldsan/host.h"
#include "core_internal.h"

#ifndef MAP_FIXED_NOREPLACE
#define MAP_FIXED_NOREPLACE 0x100000
#endif

/* x86-64 ASan shadow ranges (compiler-rt asan_mapping.h, default mapping). */
#define EMU_LOW_SHADOW_BEG 0x00007fff8000ull
#define EMU_LOW_SHADOW_END 0x00008fff7000ull
#define EMU_HIGH_SHADOW_BEG 0x02008fff7000ull
#define EMU_HIGH_SHADOW_END 0x10007fff8000ull

extern void __asan_init(void) __attribute__((weak));

static ldsan_emu_report_hook report_hook;
static void *report_hook_ctx;

void ldsan_emu_set_report_hook(ldsan_emu_report_hook hook, void *ctx) {
  report_hook = hook;
  report_hook_ctx = ctx;
}

static int emu_map(uint64_t beg, uint64_t end) {
  void *p = mmap((void *)(uintptr_t)beg, end - beg, PROT_READ | PROT_WRITE,
                 MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE | MAP_FIXED_NOREPLACE, -1, 0);
  if (p == MAP_FAILED || p != (void *)(uintptr_t)beg) {
    fprintf(stderr, "ldsan-emu: fatal: cannot map the shadow at [0x%llx, 0x%llx): %s\n",
            (unsigned long long)beg, (unsigned long long)end, p == MAP_FAILED ? strerror(errno) : "moved");
    return -1;
  }
  return 0;
}

int ldsan_emu_init_shadow(void) {
  static pthread_mutex_t mu = PTHREAD_MUTEX_INITIALIZER;
  static int state; /* 0 not yet, 1 ready, -1 failed */
  pthread_mutex_lock(&mu);
  if (state == 0) {
    if (__asan_init) state = 1; /* host ASan owns the shadow */
    else state = emu_map(EMU_LOW_SHADOW_BEG, EMU_LOW_SHADOW_END) || emu_map(EMU_HIGH_SHADOW_BEG, EMU_HIGH_SHADOW_END) ? -1 : 1;
  }
  pthread_mutex_unlock(&mu);
  return state == 1 ? 0 : -1;
}

static int emu_halt_on_error(void) {
  ldsan_host_init();
  return ldsan_host_halt_on_error();
}

void ldsan_emu_prepare_state(const ldsan_emu_image *img) {
  ldsan_device_state *st = img->device_state;
  if (!st) return;
  /* The device traps on aborting reports only if the host wants to halt. */
  if (emu_halt_on_error()) st->flags |= LDSAN_STATE_HALT_ON_ERROR;
  else st->flags &= ~(uint32_t)LDSAN_STATE_HALT_ON_ERROR;
}

static ldsan_report_channel *emu_channel(const ldsan_emu_image *img) {
  ldsan_device_state *st = img->device_state;
  if (st && st->channel) return (ldsan_report_channel *)(uintptr_t)st->channel;
  return img->builtin_channel;
}

static int emu_read(void *ctx, uint64_t addr, void *dst, size_t n) {
  (void)ctx;
  /* Byte loop, not memcpy: host ASan intercepts memcpy and would abort on the
   * poisoned LDS redzones the report has to read. */
  const volatile unsigned char *src = (const volatile unsigned char *)(uintptr_t)addr;
  unsigned char *out = dst;
  for (size_t i = 0; i < n; i++) out[i] = src[i];
  return 0;
}

int ldsan_emu_drain(const ldsan_emu_image *img, const emu_dispatch *d) {
  ldsan_report_channel *ch = emu_channel(img);
  if (!ch) return 0;
  uint32_t n = __atomic_load_n(&ch->next, __ATOMIC_ACQUIRE);
  uint32_t cap = ch->capacity && ch->capacity <= LDSAN_CHANNEL_CAPACITY ? ch->capacity : LDSAN_CHANNEL_CAPACITY;
  if (n > cap) n = cap;
  if (n == 0 && ch->dropped == 0) return 0;
  if (report_hook) {
    for (uint32_t i = 0; i < n; i++) {
      const ldsan_report_record *r = &ch->records[i];
      if (__atomic_load_n(&r->state, __ATOMIC_ACQUIRE) == LDSAN_RECORD_READY) report_hook(r, report_hook_ctx);
    }
  }
  ldsan_device_memory mem = {NULL, emu_read};
  ldsan_dispatch_info info = {
      .kernel_name = d->kernel->name,
      .grid_size = {d->grid[0], d->grid[1], d->grid[2]},
      .block_size = {d->block[0], d->block[1], d->block[2]},
      .device = 0,
      .device_name = "cpu-emulator",
  };
  /* The host library decides whether to stop (and printed ABORTING if so). */
  ldsan_drain_stats stats;
  int printed = ldsan_host_drain_channel_stats(ch, &mem, &info, &stats);
  if (stats.must_abort) {
    fflush(stdout);
    fflush(stderr);
    exit(ldsan_host_exitcode());
  }
  return printed;
}
