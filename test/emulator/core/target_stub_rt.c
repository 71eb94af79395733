/* emulator core test stub of the ldsan device runtime (amdgcn C, built to bitcode):
 * just enough of the __asan_* entry points for the emulator core tests to run
 * without the real device/ runtime: a slot allocator for LDS blocks, shadow
 * poisoning with ldsan's shadow bytes, and report records in the built-in
 * channel followed by a trap under HALT_ON_ERROR. Not the real runtime. */
#include <stdint.h>

#include "ldsan/abi.h"

#define SLOTS 256u
#define SLOT_SIZE (16u << 10)

__attribute__((used)) volatile ldsan_device_state __ldsan_device_state = {LDSAN_ABI_VERSION, LDSAN_STATE_HALT_ON_ERROR, 0, 0, 0};
__attribute__((used)) ldsan_report_channel __ldsan_builtin_channel = {LDSAN_ABI_VERSION, LDSAN_CHANNEL_CAPACITY, 0, 0, 0, 0, {{0}}};
static uint8_t pool[SLOTS * SLOT_SIZE] __attribute__((aligned(64)));
static uint32_t busy[SLOTS];

static uint8_t *shadow(uint64_t a) { return (uint8_t *)((a >> LDSAN_SHADOW_SCALE) + LDSAN_SHADOW_OFFSET); }

static void poison(uint64_t a, uint64_t n, uint8_t v) {
  for (uint64_t e = a + n; a < e; a += 8) *shadow(a) = v;
}

static void unpoison(uint64_t a, uint64_t n) {
  for (uint64_t e = a + n; a < e; a += 8) *shadow(a) = e - a >= 8 ? 0 : (uint8_t)(e - a);
}

uint64_t __asan_malloc_impl(uint64_t size, uint64_t pc) {
  (void)pc;
  if (size + 2 * LDSAN_BLOCK_HEADER_SIZE > SLOT_SIZE) __builtin_trap();
  for (uint32_t i = 0;; i = (i + 1) % SLOTS) {
    if (__atomic_exchange_n(&busy[i], 1, __ATOMIC_ACQUIRE)) continue;
    uint64_t chunk = (uint64_t)&pool[i * SLOT_SIZE], block = chunk + LDSAN_BLOCK_HEADER_SIZE;
    ldsan_block_header *h = (ldsan_block_header *)chunk;
    h->magic = LDSAN_BLOCK_MAGIC;
    h->self = block;
    h->block_size = size;
    poison(chunk, LDSAN_BLOCK_HEADER_SIZE, LDSAN_SHADOW_LDS_BLOCK_HEADER);
    unpoison(block, size);
    uint64_t end = (block + size + 7) & ~7ull;
    poison(end, LDSAN_DYNAMIC_TAIL_REDZONE, LDSAN_SHADOW_LDS_DYNAMIC_TAIL);
    poison(block, 8, LDSAN_SHADOW_LDS_COMPILER_SLOT);
    return block;
  }
}

void __asan_free_impl(uint64_t ptr, uint64_t pc) {
  (void)pc;
  ldsan_block_header *h = (ldsan_block_header *)(ptr - LDSAN_BLOCK_HEADER_SIZE);
  poison(ptr, h->block_size, LDSAN_SHADOW_LDS_FREED);
  h->magic = 0;
  __atomic_store_n(&busy[(ptr - (uint64_t)pool) / SLOT_SIZE], 0, __ATOMIC_RELEASE);
}

void __asan_poison_region(uint64_t addr, uint64_t size) {
  if (addr & 7) { *shadow(addr) = (uint8_t)(addr & 7); size -= 8 - (addr & 7); addr = (addr + 7) & ~7ull; }
  poison(addr, size, LDSAN_SHADOW_LDS_REDZONE);
}

static void report(uint64_t addr, uint64_t size, uint32_t flags) {
  /* The channel protocol of abi.h: the host's channel if it set one, a ticket,
   * a slot taken EMPTY -> WRITING, READY last. */
  ldsan_report_channel *ch = __ldsan_device_state.channel ? (ldsan_report_channel *)(uintptr_t)__ldsan_device_state.channel
                                                          : &__ldsan_builtin_channel;
  uint32_t i = __atomic_fetch_add(&ch->next, 1, __ATOMIC_RELAXED);
  uint32_t empty = LDSAN_RECORD_EMPTY;
  ldsan_report_record *r = ch->capacity ? &ch->records[i % ch->capacity] : 0;
  if (!r || !__atomic_compare_exchange_n(&r->state, &empty, LDSAN_RECORD_WRITING, 0, __ATOMIC_ACQ_REL,
                                         __ATOMIC_RELAXED)) {
    __atomic_fetch_add(&ch->dropped, 1, __ATOMIC_RELAXED);
  } else {
    uint64_t bad = addr;
    while (bad < addr + size && !*shadow(bad)) bad += 8;
    r->kind = LDSAN_REPORT_BAD_ACCESS;
    r->address = bad < addr + size ? bad : addr;
    r->access_address = addr;
    r->size = size;
    r->flags = flags;
    r->shadow_byte = *shadow(r->address);
    r->workgroup_id[0] = __builtin_amdgcn_workgroup_id_x();
    r->workgroup_id[1] = __builtin_amdgcn_workgroup_id_y();
    r->workgroup_id[2] = __builtin_amdgcn_workgroup_id_z();
    r->workitem_id[0] = __builtin_amdgcn_workitem_id_x();
    r->workitem_id[1] = __builtin_amdgcn_workitem_id_y();
    r->workitem_id[2] = __builtin_amdgcn_workitem_id_z();
    r->lane = __builtin_amdgcn_mbcnt_hi(~0u, __builtin_amdgcn_mbcnt_lo(~0u, 0u));
    r->dispatch = (uint64_t)__builtin_amdgcn_implicitarg_ptr();
    __atomic_store_n(&r->state, LDSAN_RECORD_READY, __ATOMIC_RELEASE);
  }
  if (!(flags & LDSAN_ACCESS_NOABORT) && (__ldsan_device_state.flags & LDSAN_STATE_HALT_ON_ERROR)) __builtin_trap();
}

#define REPORT(op, n, w)                                                                   \
  void __asan_report_##op##n(uint64_t a) { report(a, n, w); }                              \
  void __asan_report_##op##n##_noabort(uint64_t a) { report(a, n, w | LDSAN_ACCESS_NOABORT); }
REPORT(load, 1, 0) REPORT(load, 2, 0) REPORT(load, 4, 0) REPORT(load, 8, 0) REPORT(load, 16, 0)
REPORT(store, 1, 1) REPORT(store, 2, 1) REPORT(store, 4, 1) REPORT(store, 8, 1) REPORT(store, 16, 1)
void __asan_report_load_n(uint64_t a, uint64_t n) { report(a, n, LDSAN_ACCESS_RANGE); }
void __asan_report_store_n(uint64_t a, uint64_t n) { report(a, n, 1 | LDSAN_ACCESS_RANGE); }
void __asan_report_load_n_noabort(uint64_t a, uint64_t n) { report(a, n, LDSAN_ACCESS_RANGE | LDSAN_ACCESS_NOABORT); }
void __asan_report_store_n_noabort(uint64_t a, uint64_t n) { report(a, n, 1 | LDSAN_ACCESS_RANGE | LDSAN_ACCESS_NOABORT); }
