/* Unit tests of device/shadow.c and the shadow entry points: ASan's partial
 * granule rules, first-poisoned-byte queries, access checks of every size. */
#include "unit.h"

static unit_device dev;

/* A test variable: 64-byte aligned, somewhere in the arena, shadow all clear. */
static uint64_t fresh(uint64_t offset) {
  uint64_t v = dev.base + offset;
  __ldsan_unpoison(v, 256);
  return v;
}

/* char[13] followed by the compiler's 19-byte redzone (size + rz = 32). */
static void test_char13_redzone(void) {
  uint64_t v = fresh(4096);
  LDSAN_ENTRY(__asan_poison_region)(v + 13, 19);
  CHECK_EQ(unit_shadow(v), 0);
  CHECK_EQ(unit_shadow(v + 8), 5); /* bytes 8..12 addressable */
  CHECK_EQ(unit_shadow(v + 16), LDSAN_SHADOW_LDS_REDZONE);
  CHECK_EQ(unit_shadow(v + 24), LDSAN_SHADOW_LDS_REDZONE);
  CHECK_EQ(unit_shadow(v + 32), 0); /* past the range: untouched */
  CHECK(!__ldsan_access_is_bad(v + 12, 1));
  CHECK(__ldsan_access_is_bad(v + 13, 1));
  CHECK(__ldsan_access_is_bad(v + 31, 1));
  CHECK(!__ldsan_access_is_bad(v + 32, 1));
}

static void test_poison_partial_granules(void) {
  uint64_t v = fresh(8192);
  /* Unaligned start: the first granule keeps its 3 addressable bytes; the last
   * granule (4 of 8 bytes) cannot be poisoned while bytes after it are addressable. */
  __ldsan_poison(v + 3, 17, 0xe1);
  CHECK_EQ(unit_shadow(v), 3);
  CHECK_EQ(unit_shadow(v + 8), 0xe1);
  CHECK_EQ(unit_shadow(v + 16), 0);
  /* A granule already partial (k=5) is poisoned whole once the range covers k. */
  v = fresh(8192);
  __ldsan_unpoison(v, 256);
  __ldsan_poison(v + 13, 51, 0xe3); /* [13, 64): granule 1 = 5, rest e3 */
  __ldsan_poison(v + 8, 6, 0xe4);   /* same granule, covers bytes 8..13 >= k */
  CHECK_EQ(unit_shadow(v + 8), 0xe4);
  /* Same-granule cut of the addressable prefix: k becomes the start offset. */
  v = fresh(8192);
  __ldsan_poison(v + 13, 51, 0xe3);
  __ldsan_poison(v + 10, 3, 0xe4);
  CHECK_EQ(unit_shadow(v + 8), 2);
  /* A fully addressable granule cannot lose a middle piece. */
  v = fresh(8192);
  __ldsan_poison(v + 1, 2, 0xe4);
  CHECK_EQ(unit_shadow(v), 0);
  /* Poisoned before stays poisoned: min() keeps the magic. */
  __ldsan_poison(v, 64, 0xe4);
  __ldsan_poison(v + 4, 20, 0xe1);
  CHECK_EQ(unit_shadow(v), 0xe4);
  CHECK_EQ(unit_shadow(v + 8), 0xe1);
  /* Long aligned range: the word-at-a-time fill covers every byte. */
  v = fresh(65536);
  __ldsan_poison(v + 8, 8000, 0xe2);
  int all = 1;
  for (uint64_t a = v + 8; a < v + 8008; a += 8) all &= unit_shadow(a) == 0xe2;
  CHECK(all);
  CHECK_EQ(unit_shadow(v), 0);
  CHECK_EQ(unit_shadow(v + 8008), 0);
}

static void test_unpoison_partial_granules(void) {
  uint64_t v = dev.base + 16384;
  __ldsan_poison(v, 64, 0xe1);
  __ldsan_unpoison(v, 13);
  CHECK_EQ(unit_shadow(v), 0);
  CHECK_EQ(unit_shadow(v + 8), 5);
  CHECK_EQ(unit_shadow(v + 16), 0xe1);
  __ldsan_unpoison(v + 16, 3); /* inside one poisoned granule */
  CHECK_EQ(unit_shadow(v + 16), 3);
  __ldsan_unpoison(v + 8, 2); /* already 5: stays 5 */
  CHECK_EQ(unit_shadow(v + 8), 5);
  __ldsan_unpoison(v + 8, 7);
  CHECK_EQ(unit_shadow(v + 8), 7);
  LDSAN_ENTRY(__asan_unpoison_memory_region)(v, 64);
  CHECK_EQ(LDSAN_ENTRY(__asan_region_is_poisoned)(v, 64), 0);
  LDSAN_ENTRY(__asan_poison_memory_region)(v + 8, 8);
  CHECK_EQ(unit_shadow(v + 8), 0xf7);
}

static void test_region_is_poisoned(void) {
  uint64_t v = fresh(24576);
  LDSAN_ENTRY(__asan_poison_region)(v + 13, 19);
  CHECK_EQ(LDSAN_ENTRY(__asan_region_is_poisoned)(v, 13), 0);
  CHECK_EQ(LDSAN_ENTRY(__asan_region_is_poisoned)(v, 14), v + 13);
  CHECK_EQ(LDSAN_ENTRY(__asan_region_is_poisoned)(v, 32), v + 13);
  CHECK_EQ(LDSAN_ENTRY(__asan_region_is_poisoned)(v + 14, 4), v + 14);
  CHECK_EQ(LDSAN_ENTRY(__asan_region_is_poisoned)(v + 20, 100), v + 20);
  CHECK_EQ(LDSAN_ENTRY(__asan_region_is_poisoned)(v + 32, 100), 0);
  CHECK_EQ(LDSAN_ENTRY(__asan_region_is_poisoned)(v + 13, 0), 0);
  uint64_t bad = 0;
  uint8_t sb = 0;
  CHECK(__ldsan_find_poisoned(v + 2, 40, &bad, &sb));
  CHECK_EQ(bad, v + 13);
  CHECK_EQ(sb, 5);
}

/* A 16-byte object at v, then redzone: each size fits at the end, one byte
 * further is bad; unaligned accesses crossing into the redzone are bad. */
static void test_access_sizes(void) {
  static const uint64_t sizes[] = {1, 2, 4, 8, 16};
  uint64_t v = fresh(32768);
  LDSAN_ENTRY(__asan_poison_region)(v + 16, 48);
  for (unsigned i = 0; i < 5; ++i) {
    uint64_t n = sizes[i];
    CHECK(!__ldsan_access_is_bad(v, n));
    CHECK(!__ldsan_access_is_bad(v + 16 - n, n));
    CHECK(__ldsan_access_is_bad(v + 16 - n + 1, n));
    CHECK(__ldsan_access_is_bad(v + 16, n));
  }
  /* Partial granule object: 13 bytes. */
  v = fresh(40960);
  LDSAN_ENTRY(__asan_poison_region)(v + 13, 19);
  CHECK(!__ldsan_access_is_bad(v + 12, 1));
  CHECK(!__ldsan_access_is_bad(v + 11, 2));
  CHECK(__ldsan_access_is_bad(v + 12, 2));
  CHECK(!__ldsan_access_is_bad(v + 8, 4));
  CHECK(__ldsan_access_is_bad(v + 10, 4));
  CHECK(!__ldsan_access_is_bad(v, 8));
  CHECK(__ldsan_access_is_bad(v + 8, 8));
  CHECK(__ldsan_access_is_bad(v, 16));
  CHECK(!__ldsan_access_is_bad(v + 13, 0));
}

/* Runs poison (value != 0) or unpoison of [addr, addr+size) as a wave of
 * `lanes` lanes would, one lane after another from rank 0 (the device's lanes
 * run in lockstep; no lane reads what another writes, so any order gives the
 * same shadow). */
static void as_wave(uint32_t lanes, uint64_t addr, uint64_t size, uint8_t value) {
  __ldsan_host_lane_count = lanes;
  for (uint32_t rank = 0; rank < lanes; ++rank) {
    __ldsan_host_lane_rank = rank;
    if (value)
      __ldsan_poison(addr, size, value);
    else
      __ldsan_unpoison(addr, size);
  }
  __ldsan_host_lane_count = 1;
  __ldsan_host_lane_rank = 0;
}

/* A wave's lanes share a fill: the result is the one-lane result, for ranges
 * of every alignment and length around the 16-byte units, and whole blocks. */
static void test_wave_shares_fills(void) {
  const uint64_t area = 64 * 1024, at = 256 * 1024;
  uint8_t *one = malloc(area / 8), *wave = malloc(area / 8);
  const uint64_t starts[] = {0, 3, 8, 13, 64, 120, 128 + 5}, sizes[] = {1, 7, 8, 60, 128, 129, 1000, 40960};
  const uint32_t lanes[] = {2, 3, 64};
  for (int op = 0; op < 2; ++op)
    for (size_t a = 0; a < sizeof starts / sizeof *starts; ++a)
      for (size_t z = 0; z < sizeof sizes / sizeof *sizes; ++z)
        for (size_t l = 0; l < sizeof lanes / sizeof *lanes; ++l) {
          uint8_t value = op ? 0xe4 : 0;
          uint64_t addr = dev.base + at + starts[a], size = sizes[z];
          /* The same starting shadow: a partial granule at each end. */
          __ldsan_poison(dev.base + at, area, 0xe3);
          __ldsan_unpoison(dev.base + at, starts[a] + 5);
          __ldsan_unpoison(addr + size + 2, 3);
          memcpy(wave, __ldsan_shadow_of(dev.base + at), area / 8);
          as_wave(1, addr, size, value);
          memcpy(one, __ldsan_shadow_of(dev.base + at), area / 8);
          memcpy(__ldsan_shadow_of(dev.base + at), wave, area / 8);
          as_wave(lanes[l], addr, size, value);
          if (memcmp(one, __ldsan_shadow_of(dev.base + at), area / 8) != 0) {
            fprintf(stderr, "%s of [+%llu, %llu bytes) by %u lanes differs from one lane's\n",
                    op ? "poison" : "unpoison", (unsigned long long)starts[a], (unsigned long long)size, lanes[l]);
            CHECK(0);
          }
        }
  /* And the fill is really shared: rank 5 of 64 alone writes its own units only. */
  __ldsan_poison(dev.base + at, area, 0xe3);
  __ldsan_host_lane_count = 64;
  __ldsan_host_lane_rank = 5;
  __ldsan_unpoison(dev.base + at, 64 * 128); /* 1 KiB of shadow: 64 units of 16 */
  __ldsan_host_lane_count = 1;
  __ldsan_host_lane_rank = 0;
  CHECK_EQ(unit_shadow(dev.base + at + 5 * 128), 0);
  CHECK_EQ(unit_shadow(dev.base + at + 6 * 128), 0xe3);
  CHECK_EQ(unit_shadow(dev.base + at + 4 * 128), 0xe3);
  free(one);
  free(wave);
}

int main(void) {
  unit_device_init(&dev, 1u << 20);
  RUN(test_char13_redzone);
  RUN(test_poison_partial_granules);
  RUN(test_unpoison_partial_granules);
  RUN(test_region_is_poisoned);
  RUN(test_access_sizes);
  RUN(test_wave_shares_fills);
  unit_device_fini(&dev);
  return unit_summary();
}
