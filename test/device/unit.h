/* ldsan host unit tests: a tiny check harness plus a fake "device memory"
 * arena. The runtime's portable C runs on the host over target_host.c: the
 * arena is both the LDS pool and the memory whose shadow tests inspect; its
 * shadow is a private buffer (host ASan owns the real 0x7FFF8000). */
#ifndef LDSAN_TEST_UNIT_H
#define LDSAN_TEST_UNIT_H

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "entry_points.h"
#include "runtime.h"

static int unit_checks, unit_failures;

/* CHECK_EQ(a, b): compares as uint64_t; prints file:line, both expressions and values. */
#define CHECK_EQ(a, b)                                                                          \
  do {                                                                                          \
    uint64_t a_ = (uint64_t)(a), b_ = (uint64_t)(b);                                            \
    ++unit_checks;                                                                              \
    if (a_ != b_) {                                                                             \
      ++unit_failures;                                                                          \
      fprintf(stderr, "%s:%d: CHECK_EQ(%s, %s) failed: 0x%llx != 0x%llx\n", __FILE__, __LINE__, \
              #a, #b, (unsigned long long)a_, (unsigned long long)b_);                          \
    }                                                                                           \
  } while (0)
#define CHECK(e) CHECK_EQ(!!(e), 1)

/* Runs one test function, naming it. */
#define RUN(test)                            \
  do {                                       \
    int before_ = unit_failures;             \
    test();                                  \
    fprintf(stderr, "%s %s\n", unit_failures == before_ ? "ok  " : "FAIL", #test); \
  } while (0)

/* Prints the summary; returns the process exit status. */
static inline int unit_summary(void) {
  fprintf(stderr, "%d checks, %d failed\n", unit_checks, unit_failures);
  return unit_failures ? 1 : 0;
}

/* A fake device: arena (zeroed, 4 KiB aligned), its shadow, a report channel. */
typedef struct unit_device {
  uint8_t *mem;
  uint64_t base, size;
  uint8_t *shadow;
  ldsan_report_channel *channel;
} unit_device;

/* Room for n pool regions exactly (region records included). */
#define UNIT_POOL_BYTES(n) \
  (LDSAN_POOL_FIXED_BYTES + (uint64_t)(n) * (LDSAN_POOL_REGION_SIZE + LDSAN_POOL_RECORD_SIZE) + LDSAN_POOL_REGION_ALIGN)

/* A workgroup's block as a kernel gets and gives it back: enter on its
 * work-item 0, then the shadow by its wave (here one lane), and at the end
 * exit on work-item 0 (device/block.c). */
static inline uint64_t unit_kernel_enter(uint64_t block_size, uint64_t kernel_desc) {
  uint64_t block = __ldsan_kernel_enter(block_size, kernel_desc);
  __ldsan_kernel_enter_wave(block, kernel_desc);
  return block;
}
static inline void unit_kernel_exit(uint64_t block, uint64_t kernel_desc) { __ldsan_kernel_exit(block, kernel_desc); }

/* Resets the channel as the host does between dispatches. */
static inline void unit_channel_reset(ldsan_report_channel *ch, uint32_t capacity) {
  memset(ch, 0, sizeof *ch);
  ch->abi_version = LDSAN_ABI_VERSION;
  ch->capacity = capacity;
}

/* Sets up the arena as the pool and the shadowed memory, a fresh channel,
 * halt-on-error, zeroed hooks. */
static inline void unit_device_init(unit_device *d, uint64_t size) {
  d->size = size;
  d->mem = aligned_alloc(4096, (size + 4095u) & ~(uint64_t)4095u);
  d->shadow = calloc(size / 8 + 1, 1);
  d->channel = malloc(sizeof *d->channel);
  if (!d->mem || !d->shadow || !d->channel) abort();
  memset(d->mem, 0, size);
  d->base = (uint64_t)(uintptr_t)d->mem;
  __ldsan_host_shadow_offset = (uintptr_t)d->shadow - (uintptr_t)(d->base >> 3);
  unit_channel_reset(d->channel, LDSAN_CHANNEL_CAPACITY);
  __ldsan_device_state.flags = LDSAN_STATE_HALT_ON_ERROR;
  __ldsan_device_state.channel = (uint64_t)(uintptr_t)d->channel;
  __ldsan_device_state.pool_base = d->base;
  __ldsan_device_state.pool_size = size;
  __ldsan_host_trap_count = 0;
  __ldsan_host_lds0 = 0;
  __ldsan_host_implicitarg = 0;
  __ldsan_host_dispatch = 0;
}

static inline void unit_device_fini(unit_device *d) {
  free(d->mem);
  free(d->shadow);
  free(d->channel);
  __ldsan_device_state.channel = 0;
  __ldsan_device_state.pool_base = (uint64_t)(uintptr_t)__ldsan_builtin_pool; /* as the image starts */
  __ldsan_device_state.pool_size = LDSAN_BUILTIN_POOL_SIZE;
}

/* The shadow byte of an arena address. */
static inline uint8_t unit_shadow(uint64_t addr) { return *__ldsan_shadow_of(addr); }

#endif /* LDSAN_TEST_UNIT_H */
