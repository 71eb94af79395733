/* Unit tests of the checking entry points: the callback matrix (report only
 * when bad, right size/flags), __asan_memcpy/memmove/memset, and globals
 * registration. */
#include "unit.h"

static unit_device dev;
static uint64_t var; /* 16 addressable bytes, then a 48-byte redzone */

static void reset(void) {
  unit_channel_reset(dev.channel, LDSAN_CHANNEL_CAPACITY);
  __ldsan_host_trap_count = 0;
}

typedef void (*sized_fn)(uint64_t);
typedef void (*exp_fn)(uint64_t, int32_t);

/* One row per fixed size: the six entry points of each op. */
static const struct {
  uint64_t size;
  sized_fn load, load_noabort, store, store_noabort;
  exp_fn exp_load, exp_store;
} sized[] = {
#define ROW(N)                                                                          \
  {N, LDSAN_ENTRY(__asan_load##N), LDSAN_ENTRY(__asan_load##N##_noabort),               \
   LDSAN_ENTRY(__asan_store##N), LDSAN_ENTRY(__asan_store##N##_noabort),                \
   LDSAN_ENTRY(__asan_exp_load##N), LDSAN_ENTRY(__asan_exp_store##N)},
    LDSAN_ACCESS_SIZES(ROW)
#undef ROW
};

static void test_sized_callbacks(void) {
  for (unsigned i = 0; i < sizeof sized / sizeof sized[0]; ++i) {
    uint64_t n = sized[i].size, ok = var + 16 - n, bad = var + 16 - n + 1;
    reset();
    sized[i].load(ok);
    sized[i].store(ok);
    sized[i].load_noabort(ok);
    sized[i].store_noabort(ok);
    sized[i].exp_load(ok, 1);
    sized[i].exp_store(ok, 1);
    CHECK_EQ(dev.channel->next, 0);
    sized[i].load(bad);
    sized[i].store(bad);
    sized[i].load_noabort(bad);
    sized[i].store_noabort(bad);
    sized[i].exp_load(bad, 1);
    sized[i].exp_store(bad, 1);
    CHECK_EQ(dev.channel->next, 6);
    CHECK_EQ(__ldsan_host_trap_count, 4);
    ldsan_report_record *r = dev.channel->records;
    for (int k = 0; k < 6; ++k) {
      CHECK_EQ(r[k].size, n);
      CHECK_EQ(r[k].access_address, bad);
      CHECK_EQ(r[k].address, var + 16); /* first bad byte */
    }
    CHECK_EQ(r[0].flags, 0);
    CHECK_EQ(r[1].flags, LDSAN_ACCESS_WRITE);
    CHECK_EQ(r[2].flags, LDSAN_ACCESS_NOABORT);
    CHECK_EQ(r[3].flags, LDSAN_ACCESS_WRITE | LDSAN_ACCESS_NOABORT);
    CHECK_EQ(r[5].flags, LDSAN_ACCESS_WRITE);
  }
}

static void test_range_callbacks(void) {
  reset();
  LDSAN_ENTRY(__asan_loadN)(var, 16);
  LDSAN_ENTRY(__asan_storeN)(var + 3, 13);
  LDSAN_ENTRY(__asan_loadN)(var + 100, 0); /* empty range: never bad */
  CHECK_EQ(dev.channel->next, 0);
  LDSAN_ENTRY(__asan_loadN)(var + 3, 14);
  LDSAN_ENTRY(__asan_storeN_noabort)(var, 17);
  LDSAN_ENTRY(__asan_exp_storeN)(var + 15, 2, 0);
  LDSAN_ENTRY(__asan_loadN_noabort)(var, 64);
  LDSAN_ENTRY(__asan_exp_loadN)(var + 16, 1, 0);
  CHECK_EQ(dev.channel->next, 5);
  ldsan_report_record *r = dev.channel->records;
  CHECK_EQ(r[0].flags, LDSAN_ACCESS_RANGE);
  CHECK_EQ(r[0].size, 14);
  CHECK_EQ(r[0].address, var + 16);
  CHECK_EQ(r[1].flags, LDSAN_ACCESS_RANGE | LDSAN_ACCESS_WRITE | LDSAN_ACCESS_NOABORT);
  CHECK_EQ(r[2].flags, LDSAN_ACCESS_RANGE | LDSAN_ACCESS_WRITE);
  CHECK_EQ(r[3].access_address, var);
  CHECK_EQ(__ldsan_host_trap_count, 3);
}

static void test_memintrinsics(void) {
  reset();
  uint8_t *v = (uint8_t *)(uintptr_t)var;
  uint8_t *other = (uint8_t *)(uintptr_t)(var + 1024);
  __ldsan_unpoison(var + 1024, 64);
  for (int i = 0; i < 16; ++i) other[i] = (uint8_t)i;
  CHECK_EQ((uintptr_t)LDSAN_ENTRY(__asan_memcpy)(v, other, 16), (uintptr_t)v);
  CHECK_EQ(v[15], 15);
  CHECK_EQ(dev.channel->next, 0);
  LDSAN_ENTRY(__asan_memmove)(v + 1, v, 8); /* overlapping, forward */
  CHECK_EQ(v[1], 0);
  CHECK_EQ(v[8], 7);
  LDSAN_ENTRY(__asan_memmove)(v, v + 1, 8); /* overlapping, backward */
  CHECK_EQ(v[0], 0);
  CHECK_EQ(v[7], 7);
  CHECK_EQ((uintptr_t)LDSAN_ENTRY(__asan_memset)(v, 0xab, 16), (uintptr_t)v);
  CHECK_EQ(v[15], 0xab);
  CHECK_EQ(dev.channel->next, 0);
  /* Overflows: the record names the first bad byte of the bad range. */
  LDSAN_ENTRY(__asan_memcpy)(other, v + 4, 20); /* reads var[16..24) */
  LDSAN_ENTRY(__asan_memset)(v + 8, 0, 9);
  LDSAN_ENTRY(__asan_memmove)(v + 10, other, 7);
  CHECK_EQ(dev.channel->next, 3);
  ldsan_report_record *r = dev.channel->records;
  CHECK_EQ(r[0].flags, LDSAN_ACCESS_RANGE);
  CHECK_EQ(r[0].address, var + 16);
  CHECK_EQ(r[0].access_address, var + 4);
  CHECK_EQ(r[0].size, 20);
  CHECK_EQ(r[1].flags, LDSAN_ACCESS_RANGE | LDSAN_ACCESS_WRITE);
  CHECK_EQ(r[1].address, var + 16);
  CHECK_EQ(r[2].access_address, var + 10);
  CHECK_EQ(__ldsan_host_trap_count, 3);
}

/* ASan's 64-byte __asan_global records. */
typedef struct {
  uint64_t beg, size, size_with_redzone, name, module_name, has_dynamic_init, location, odr;
} test_global;

static void test_globals(void) {
  uint64_t g0 = dev.base + 8192, g1 = g0 + 64;
  test_global gs[2] = {{g0, 13, 64, 0, 0, 0, 0, 0}, {g1, 32, 96, 0, 0, 0, 0, 0}};
  LDSAN_ENTRY(__asan_register_globals)((uint64_t)(uintptr_t)gs, 2);
  CHECK_EQ(unit_shadow(g0 + 8), 5);
  CHECK_EQ(unit_shadow(g0 + 16), 0xf9);
  CHECK_EQ(unit_shadow(g0 + 56), 0xf9);
  CHECK_EQ(unit_shadow(g1 + 24), 0);
  CHECK_EQ(unit_shadow(g1 + 32), 0xf9);
  CHECK_EQ(unit_shadow(g1 + 88), 0xf9);
  CHECK_EQ(unit_shadow(g1 + 96), 0);
  CHECK_EQ(LDSAN_ENTRY(__asan_region_is_poisoned)(g0, 13), 0);
  CHECK_EQ(LDSAN_ENTRY(__asan_region_is_poisoned)(g0, 14), g0 + 13);
  LDSAN_ENTRY(__asan_unregister_globals)((uint64_t)(uintptr_t)gs, 2);
  CHECK_EQ(LDSAN_ENTRY(__asan_region_is_poisoned)(g0, 160), 0);
  /* ELF registration: once per flag. */
  uint64_t flag = 0;
  uint64_t start = (uint64_t)(uintptr_t)gs, stop = start + sizeof gs;
  LDSAN_ENTRY(__asan_register_elf_globals)((uint64_t)(uintptr_t)&flag, start, stop);
  CHECK_EQ(flag, 1);
  CHECK_EQ(unit_shadow(g1 + 32), 0xf9);
  __ldsan_unpoison(g0, 160);
  LDSAN_ENTRY(__asan_register_elf_globals)((uint64_t)(uintptr_t)&flag, start, stop);
  CHECK_EQ(unit_shadow(g1 + 32), 0); /* second call did nothing */
  LDSAN_ENTRY(__asan_poison_memory_region)(g0, 160);
  LDSAN_ENTRY(__asan_unregister_elf_globals)((uint64_t)(uintptr_t)&flag, start, stop);
  CHECK_EQ(flag, 0);
  CHECK_EQ(LDSAN_ENTRY(__asan_region_is_poisoned)(g0, 160), 0);
  /* The no-op hooks exist and return. */
  LDSAN_ENTRY(__asan_init)();
  LDSAN_ENTRY(__asan_version_mismatch_check_v8)();
  LDSAN_ENTRY(__asan_before_dynamic_init)(0);
  LDSAN_ENTRY(__asan_after_dynamic_init)();
  LDSAN_ENTRY(__asan_handle_no_return)();
  LDSAN_ENTRY(__asan_register_image_globals)(0);
  LDSAN_ENTRY(__asan_unregister_image_globals)(0);
}

int main(void) {
  unit_device_init(&dev, UNIT_POOL_BYTES(1));
  var = dev.base + 4096;
  LDSAN_ENTRY(__asan_poison_region)(var + 16, 48);
  RUN(test_sized_callbacks);
  RUN(test_range_callbacks);
  RUN(test_memintrinsics);
  RUN(test_globals);
  unit_device_fini(&dev);
  return unit_summary();
}
