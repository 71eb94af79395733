/* Unit tests of device/block.c: kernel enter/exit with and without a kernel
 * descriptor (exact dynamic LDS bound), device malloc/free, bad frees, pool
 * exhaustion and too-large blocks as reports. */
#include "unit.h"

static unit_device dev;

/* A hand-built descriptor blob: header, slot, one static, one dynamic var. */
static struct {
  ldsan_kernel_desc k;
  ldsan_var_desc v[3];
  char strings[32];
  uint8_t image[8]; /* the shadow image of the 64 static bytes (abi.h), when shadow is set */
} blob;

static uint8_t implicitargs[256];

static void make_desc(uint32_t flags) {
  memset(&blob, 0, sizeof blob);
  blob.k.magic = LDSAN_DESC_MAGIC;
  blob.k.abi_version = LDSAN_ABI_VERSION;
  blob.k.total_size = sizeof blob;
  blob.k.var_count = flags & LDSAN_KERNEL_HAS_DYNAMIC ? 3 : 2;
  blob.k.static_size = 64; /* slot [0,32) + char[13] at 32 with rz 19 */
  blob.k.max_align = 16;
  blob.k.flags = flags;
  blob.v[0] = (ldsan_var_desc){0, 8, 24, 8, LDSAN_VAR_COMPILER_SLOT, 0, 0, 0, 0, 0};
  blob.v[1] = (ldsan_var_desc){32, 13, 19, 1, 0, 0, 0, 0, 0, 0};
  blob.v[2] = (ldsan_var_desc){64, 0, 0, 16, LDSAN_VAR_DYNAMIC, 0, 0, 0, 0, 0};
}

static ldsan_block_header *header_of(uint64_t block) {
  return (ldsan_block_header *)(uintptr_t)(block - LDSAN_BLOCK_HEADER_SIZE);
}

/* Checks every shadow byte of [a, b) equals v. */
static int shadow_is(uint64_t a, uint64_t b, uint8_t v) {
  for (; a < b; a += 8)
    if (unit_shadow(a) != v) return 0;
  return 1;
}

static void test_enter_exit_without_desc(void) {
  uint64_t block = unit_kernel_enter(100, 0);
  CHECK(block != 0);
  CHECK_EQ(block % 64, 0);
  ldsan_block_header *h = header_of(block);
  CHECK_EQ(h->magic, LDSAN_BLOCK_MAGIC);
  CHECK_EQ(h->self, block);
  CHECK_EQ(h->kernel_desc, 0);
  CHECK_EQ(h->block_size, 100);
  CHECK_EQ(h->dynamic_size, 0);
  CHECK_EQ(h->chunk_size, 256);
  CHECK_EQ(h->size_class, 0);
  CHECK(shadow_is(block - 64, block, LDSAN_SHADOW_LDS_BLOCK_HEADER));
  CHECK(shadow_is(block, block + 96, 0));
  CHECK_EQ(unit_shadow(block + 96), 4);
  CHECK(shadow_is(block + 104, block - 64 + 256, LDSAN_SHADOW_LDS_DYNAMIC_TAIL));
  CHECK_EQ(__ldsan_block_lookup(block), (uint64_t)(uintptr_t)h);
  CHECK_EQ(__ldsan_block_lookup(block + 64), 0);
  unit_kernel_exit(block, 0);
  CHECK_EQ(h->magic, 0);
  /* The block's 100 bytes become e4 in whole shadow units (up to 128); the
   * tail redzone past that stays e3. */
  CHECK(shadow_is(block, block + 128, LDSAN_SHADOW_LDS_FREED));
  CHECK(shadow_is(block + 128, block - 64 + 256, LDSAN_SHADOW_LDS_DYNAMIC_TAIL));
  CHECK_EQ(__ldsan_block_lookup(block), 0);
  CHECK_EQ(dev.channel->next, 0);
  unit_kernel_exit(0, 0); /* after a failed enter: nothing */
  CHECK_EQ(dev.channel->next, 0);
}

/* With the shadow image in its descriptor, enter_wave copies it: the block's
 * shadow is byte for byte what the path without one writes (unpoison, the
 * slot, then the LDS pass's redzone calls), in a fresh chunk and in recycled
 * ones, and the image's padding leaves the tail e3. */
static void test_shadow_image_as_redzone_calls(void) {
  uint8_t without[32], with[32]; /* the 256-byte chunk: header, block, tail */
  for (int image = 0; image < 2; ++image)
    for (int round = 0; round < 3; ++round) { /* round 0: a fresh chunk; then recycled ones */
      make_desc(0);
      if (image) {
        /* slot (8 bytes) e5, its redzone e1 x3; char[13] at 32: 00 05, redzone e1 e1 */
        const uint8_t img[8] = {0xe5, 0xe1, 0xe1, 0xe1, 0x00, 0x05, 0xe1, 0xe1};
        memcpy(blob.image, img, sizeof img);
        blob.k.shadow = (uint32_t)offsetof(__typeof__(blob), image);
      }
      uint64_t block = unit_kernel_enter(64, (uint64_t)(uintptr_t)&blob);
      CHECK(block != 0);
      if (!image) { /* what the LDS pass's prologue calls do when there is no image */
        LDSAN_ENTRY(__asan_poison_region)(block + 8, 24);
        LDSAN_ENTRY(__asan_poison_region)(block + 45, 19);
      }
      memcpy(image ? with : without, (const void *)__ldsan_shadow_of(block - 64), sizeof with);
      unit_kernel_exit(block, (uint64_t)(uintptr_t)&blob);
      for (uint32_t i = 0; i < LDSAN_POOL_QUARANTINE; ++i) unit_kernel_exit(unit_kernel_enter(64, 0), 0);
    }
  CHECK(memcmp(with, without, sizeof with) == 0);
  CHECK_EQ(with[8], 0xe5);
  CHECK_EQ(with[13], 5);
  CHECK_EQ(with[16], LDSAN_SHADOW_LDS_DYNAMIC_TAIL); /* past the block: tail */
  CHECK_EQ(dev.channel->next, 0);
}

/* Chunks waiting in class c's rings of the device's pool (block_cache.c). */
static uint64_t pool_cached(uint32_t c) {
  ldsan_pool p;
  __ldsan_pool_current(&p);
  return __ldsan_block_cache_waiting(p.heads, c);
}

/* Runs a _wave entry point as the 64 lanes of a wave would, one lane after
 * another (the device's lanes run in lockstep), lane 0 last: it is the one
 * that gives the block back, after every lane poisoned its share. */
static void as_wave_of_64(void (*entry)(uint64_t), uint64_t block) {
  __ldsan_host_lane_count = 64;
  for (int rank = 63; rank >= 0; --rank) {
    __ldsan_host_lane_rank = (uint32_t)rank;
    entry(block);
  }
  __ldsan_host_lane_count = 1;
  __ldsan_host_lane_rank = 0;
}

static void enter_wave_without_desc(uint64_t block) { __ldsan_kernel_enter_wave(block, 0); }
static void exit_wave_without_desc(uint64_t block) { __ldsan_kernel_exit_wave(block, 0); }

/* A workgroup's block through the wave's entry points with 64 lanes sharing
 * the shadow writes: the same shadow as with one lane, at enter and at exit,
 * and the block goes back to the cache once. */
static void test_wave_of_64_as_one_lane(void) {
  enum { SIZE = 5000, SHADOW = 8192 / 8 }; /* an 8 KiB chunk */
  static uint8_t one[2][SHADOW], wave[2][SHADOW];
  for (uint32_t i = 0; i <= LDSAN_POOL_QUARANTINE + 1; ++i) unit_kernel_exit(unit_kernel_enter(SIZE, 0), 0);
  for (int lanes = 0; lanes < 2; ++lanes) { /* lanes 0: one lane, 1: a wave of 64 */
    uint8_t (*snap)[SHADOW] = lanes ? wave : one;
    uint64_t block = __ldsan_kernel_enter(SIZE, 0); /* work-item 0 */
    CHECK(block != 0);
    if (lanes)
      as_wave_of_64(enter_wave_without_desc, block);
    else
      enter_wave_without_desc(block);
    memcpy(snap[0], (const void *)__ldsan_shadow_of(block - 64), SHADOW);
    uint32_t size_class = header_of(block)->size_class;
    uint64_t cached = pool_cached(size_class);
    if (lanes)
      as_wave_of_64(exit_wave_without_desc, block);
    else
      exit_wave_without_desc(block);
    CHECK_EQ(pool_cached(size_class), cached + 1); /* given back once */
    memcpy(snap[1], (const void *)__ldsan_shadow_of(block - 64), SHADOW);
    for (uint32_t i = 0; i < LDSAN_POOL_QUARANTINE; ++i) unit_kernel_exit(unit_kernel_enter(SIZE, 0), 0);
  }
  CHECK(memcmp(one[0], wave[0], SHADOW) == 0);
  CHECK(memcmp(one[1], wave[1], SHADOW) == 0);
  CHECK_EQ(one[0][8], 0);                                     /* the block: addressable */
  CHECK_EQ(one[0][8 + SIZE / 8], LDSAN_SHADOW_LDS_DYNAMIC_TAIL); /* after it */
  CHECK_EQ(one[1][8], LDSAN_SHADOW_LDS_FREED);
  CHECK_EQ(dev.channel->next, 0);
}

static void test_enter_static_desc(void) {
  make_desc(0);
  uint64_t block = unit_kernel_enter(64, (uint64_t)(uintptr_t)&blob);
  CHECK(block != 0);
  CHECK_EQ(header_of(block)->kernel_desc, (uint64_t)(uintptr_t)&blob);
  CHECK(shadow_is(block, block + 32, LDSAN_SHADOW_LDS_COMPILER_SLOT));
  CHECK(shadow_is(block + 32, block + 64, 0));
  /* What the lowered kernel then does for its one static variable. */
  LDSAN_ENTRY(__asan_poison_region)(block + 32 + 13, 19);
  CHECK(!__ldsan_access_is_bad(block + 32 + 12, 1));
  CHECK(__ldsan_access_is_bad(block + 32 + 13, 1));
  CHECK(__ldsan_access_is_bad(block + 64, 1)); /* past the statics: tail */
  CHECK_EQ(unit_shadow(block + 64), LDSAN_SHADOW_LDS_DYNAMIC_TAIL);
  unit_kernel_exit(block, (uint64_t)(uintptr_t)&blob);
  CHECK_EQ(dev.channel->next, 0);
}

/* A launch with 13 bytes of dynamic LDS for a kernel whose own LDS is 8 bytes
 * (the packet's group_segment_size 21, the kernel descriptor's
 * group_segment_fixed_size 8): byte 13 of the dynamic area is poisoned, 12 is
 * not, although the compiler rounded the block up to 80 bytes. The implicit
 * argument hidden_dynamic_lds_size holds stale bytes, as it does under HIP
 * before ROCm 6.1: they are not read. */
static void test_enter_dynamic_desc(void) {
  make_desc(LDSAN_KERNEL_HAS_DYNAMIC);
  uint32_t stale = 0xdeadbeef, total = 8 + 13, fixed = 8;
  memcpy(implicitargs + 120, &stale, 4);
  __ldsan_host_implicitarg = (uint64_t)(uintptr_t)implicitargs;
  static _Alignas(64) uint8_t packet[64], kernel_descriptor[64];
  uint64_t kd = (uint64_t)(uintptr_t)kernel_descriptor;
  memcpy(packet + 28, &total, 4);
  memcpy(packet + 32, &kd, 8);
  memcpy(kernel_descriptor, &fixed, 4);
  __ldsan_host_dispatch = (uint64_t)(uintptr_t)packet;
  CHECK_EQ(__ldsan_dynamic_lds_size(), 13);
  uint64_t block = unit_kernel_enter(64 + 16, (uint64_t)(uintptr_t)&blob);
  CHECK(block != 0);
  CHECK_EQ(header_of(block)->dynamic_size, 13);
  CHECK(!__ldsan_access_is_bad(block + 64, 13));
  CHECK(!__ldsan_access_is_bad(block + 64 + 12, 1));
  CHECK(__ldsan_access_is_bad(block + 64 + 13, 1));
  CHECK(__ldsan_access_is_bad(block + 64 + 15, 1)); /* inside the compiler's rounding */
  CHECK_EQ(unit_shadow(block + 72), 5);
  CHECK_EQ(unit_shadow(block + 80), LDSAN_SHADOW_LDS_DYNAMIC_TAIL);
  /* A report from this workgroup names the block, descriptor and dynamic size. */
  __ldsan_host_lds0 = block;
  LDSAN_ENTRY(__asan_report_load1)(block + 64 + 13);
  ldsan_report_record *r = &dev.channel->records[0];
  CHECK_EQ(r->state, LDSAN_RECORD_READY);
  CHECK_EQ(r->block, block);
  CHECK_EQ(r->kernel_desc, (uint64_t)(uintptr_t)&blob);
  CHECK_EQ(r->dynamic_size, 13);
  CHECK_EQ(r->shadow_byte, LDSAN_SHADOW_LDS_DYNAMIC_TAIL);
  unit_kernel_exit(block, (uint64_t)(uintptr_t)&blob);
  /* After exit, LDS[0] no longer validates. */
  LDSAN_ENTRY(__asan_report_load1)(block);
  CHECK_EQ(dev.channel->records[1].block, 0);
  CHECK_EQ(dev.channel->records[1].kernel_desc, 0);
  CHECK_EQ(dev.channel->records[1].shadow_byte, LDSAN_SHADOW_LDS_FREED);
  __ldsan_host_lds0 = 0;
  __ldsan_host_implicitarg = 0;
  __ldsan_host_dispatch = 0;
  unit_channel_reset(dev.channel, LDSAN_CHANNEL_CAPACITY);
  __ldsan_host_trap_count = 0;
}

static void test_bad_desc_ignored(void) {
  make_desc(0);
  blob.k.magic = 0;
  uint64_t block = unit_kernel_enter(64, (uint64_t)(uintptr_t)&blob);
  CHECK_EQ(header_of(block)->kernel_desc, 0);
  CHECK(shadow_is(block, block + 64, 0)); /* treated as desc 0: all block_size usable */
  unit_kernel_exit(block, 0);
}

static void test_malloc_free(void) {
  uint64_t p = LDSAN_ENTRY(__asan_malloc_impl)(13, 0x1234);
  CHECK(p != 0);
  CHECK_EQ(p % 64, 0);
  CHECK(!__ldsan_access_is_bad(p, 13));
  CHECK(__ldsan_access_is_bad(p + 13, 1));
  CHECK(__ldsan_access_is_bad(p - 1, 1));
  CHECK_EQ(header_of(p)->kernel_desc, 0);
  LDSAN_ENTRY(__asan_free_impl)(p, 0x1234);
  CHECK_EQ(unit_shadow(p), LDSAN_SHADOW_LDS_FREED);
  LDSAN_ENTRY(__asan_free_impl)(0, 0); /* free(NULL) */
  CHECK_EQ(dev.channel->next, 0);
  CHECK_EQ(__ldsan_host_trap_count, 0);
}

static void test_bad_free(void) {
  uint64_t p = LDSAN_ENTRY(__asan_malloc_impl)(100, 0);
  LDSAN_ENTRY(__asan_free_impl)(p + 64, 0x55); /* inside the block */
  ldsan_report_record *r = &dev.channel->records[0];
  CHECK_EQ(r->state, LDSAN_RECORD_READY);
  CHECK_EQ(r->kind, LDSAN_REPORT_BAD_FREE);
  CHECK_EQ(r->address, p + 64);
  CHECK_EQ(r->pc, 0x55);
  CHECK_EQ(__ldsan_host_trap_count, 1);
  LDSAN_ENTRY(__asan_free_impl)(p, 0);
  CHECK_EQ(dev.channel->next, 1);
  LDSAN_ENTRY(__asan_free_impl)(p, 0); /* double free */
  CHECK_EQ(dev.channel->next, 2);
  CHECK_EQ(dev.channel->records[1].kind, LDSAN_REPORT_BAD_FREE);
  LDSAN_ENTRY(__asan_free_impl)(dev.base + 8, 0); /* not in the pool's regions */
  CHECK_EQ(dev.channel->records[2].kind, LDSAN_REPORT_BAD_FREE);
  CHECK_EQ(__ldsan_host_trap_count, 3);
  unit_channel_reset(dev.channel, LDSAN_CHANNEL_CAPACITY);
  __ldsan_host_trap_count = 0;
}

static void test_exhaustion_and_too_large(void) {
  uint64_t held[4];
  for (int i = 0; i < 4; ++i) held[i] = LDSAN_ENTRY(__asan_malloc_impl)(LDSAN_POOL_REGION_SIZE - 128, 0);
  for (int i = 0; i < 4; ++i) CHECK(held[i] != 0);
  /* Device malloc: NULL, a no-abort POOL_EXHAUSTED record, no trap. */
  CHECK_EQ(LDSAN_ENTRY(__asan_malloc_impl)(10, 0x77), 0);
  ldsan_report_record *r = &dev.channel->records[0];
  CHECK_EQ(r->kind, LDSAN_REPORT_POOL_EXHAUSTED);
  CHECK_EQ(r->size, 10);
  CHECK_EQ(r->flags, LDSAN_ACCESS_NOABORT);
  CHECK_EQ(r->pc, 0x77);
  CHECK_EQ(__ldsan_host_trap_count, 0);
  /* A kernel cannot run without its block: aborting report. */
  CHECK_EQ(unit_kernel_enter(10, 0), 0);
  CHECK_EQ(dev.channel->records[1].kind, LDSAN_REPORT_POOL_EXHAUSTED);
  CHECK_EQ(dev.channel->records[1].flags, 0);
  CHECK_EQ(__ldsan_host_trap_count, 1);
  for (int i = 0; i < 4; ++i) LDSAN_ENTRY(__asan_free_impl)(held[i], 0);
  CHECK_EQ(unit_kernel_enter(5 * LDSAN_POOL_REGION_SIZE, 0), 0);
  CHECK_EQ(dev.channel->records[2].kind, LDSAN_REPORT_BLOCK_TOO_LARGE);
  CHECK_EQ(dev.channel->records[2].size, 5 * LDSAN_POOL_REGION_SIZE);
  CHECK_EQ(LDSAN_ENTRY(__asan_malloc_impl)(UINT64_MAX - 10, 0), 0); /* size wraps */
  CHECK_EQ(dev.channel->records[3].kind, LDSAN_REPORT_BLOCK_TOO_LARGE);
  uint64_t big = unit_kernel_enter(3 * LDSAN_POOL_REGION_SIZE, 0); /* multi-region block */
  CHECK(big != 0);
  CHECK_EQ(header_of(big)->chunk_size, 4 * LDSAN_POOL_REGION_SIZE);
  CHECK_EQ(unit_shadow(big + 3 * LDSAN_POOL_REGION_SIZE), LDSAN_SHADOW_LDS_DYNAMIC_TAIL);
  unit_kernel_exit(big, 0);
  CHECK_EQ(dev.channel->next, 4);
  unit_channel_reset(dev.channel, LDSAN_CHANNEL_CAPACITY);
  __ldsan_host_trap_count = 0;
}

/* A chunk back from the block cache keeps its last block's shadow (header e2,
 * block e4 in whole 16-byte shadow units, 128 bytes of block each; tail e3); the next block's enter rewrites
 * only what differs, and the result is exact whether the new block is smaller
 * or larger. */
static void test_recycled_chunk_shadow(void) {
  /* Blocks of up to 128 bytes share class 0: 256-byte chunks, 192 after the header. */
  uint64_t a = unit_kernel_enter(100, 0);
  unit_kernel_exit(a, 0); /* a: in the ring */
  uint64_t b = unit_kernel_enter(100, 0);
  unit_kernel_exit(b, 0); /* b behind a */
  for (uint32_t i = 1; i < LDSAN_POOL_QUARANTINE; ++i) unit_kernel_exit(unit_kernel_enter(100, 0), 0);
  uint64_t c = unit_kernel_enter(20, 0); /* a is past the quarantine */
  CHECK_EQ(c, a);
  CHECK(shadow_is(c - 64, c, LDSAN_SHADOW_LDS_BLOCK_HEADER));
  CHECK(shadow_is(c, c + 16, 0));
  CHECK_EQ(unit_shadow(c + 16), 4);
  CHECK(shadow_is(c + 24, c + 192, LDSAN_SHADOW_LDS_DYNAMIC_TAIL)); /* was e4 up to 128 */
  unit_kernel_exit(c, 0); /* b is next */
  CHECK(shadow_is(c, c + 128, LDSAN_SHADOW_LDS_FREED)); /* 20 bytes: one unit */
  CHECK(shadow_is(c + 128, c + 192, LDSAN_SHADOW_LDS_DYNAMIC_TAIL));
  uint64_t d = unit_kernel_enter(124, 0); /* larger than b's 100 */
  CHECK_EQ(d, b);
  CHECK(shadow_is(d - 64, d, LDSAN_SHADOW_LDS_BLOCK_HEADER));
  CHECK(shadow_is(d, d + 120, 0));
  CHECK_EQ(unit_shadow(d + 120), 4);
  CHECK(shadow_is(d + 128, d + 192, LDSAN_SHADOW_LDS_DYNAMIC_TAIL));
  unit_kernel_exit(d, 0);
  CHECK_EQ(dev.channel->next, 0);
}

/* The program overwrote the block's header (an underflow in recover mode):
 * chunk_size 1 MiB and block_size 512 KiB. The exit poisons only the chunk
 * the pool handed out (256 bytes: the shadow past it is untouched), reports
 * the header as corrupted, and gives the chunk back by its real class. Read
 * from the header, the sizes made the exit poison 512 KiB of other blocks'
 * shadow (and terabytes with larger values). */
static void test_corrupted_header_exit(void) {
  uint64_t block = unit_kernel_enter(100, 0);
  CHECK(block != 0);
  enum { AFTER = 8192 };
  static uint8_t before[AFTER / 8];
  uint64_t chunk_end = block - 64 + 256;
  /* Marks the shadow past the chunk (other chunks: no other test follows). */
  memset((void *)__ldsan_shadow_of(chunk_end), 0x5a, sizeof before);
  memcpy(before, (const void *)__ldsan_shadow_of(chunk_end), sizeof before);
  ldsan_block_header *h = header_of(block);
  h->chunk_size = 1u << 20;
  h->block_size = 1u << 19;
  uint32_t cached = pool_cached(0);
  unit_kernel_exit(block, 0);
  CHECK(memcmp(before, (const void *)__ldsan_shadow_of(chunk_end), sizeof before) == 0);
  CHECK(shadow_is(block, chunk_end, LDSAN_SHADOW_LDS_FREED) || shadow_is(block, block + 128, LDSAN_SHADOW_LDS_FREED));
  CHECK_EQ(dev.channel->next, 1);
  ldsan_report_record *r = &dev.channel->records[0];
  CHECK_EQ(r->kind, LDSAN_REPORT_BLOCK_HEADER_CORRUPTED);
  CHECK_EQ(r->address, block);
  CHECK_EQ(r->size, 256);
  CHECK_EQ(pool_cached(0), cached + 1); /* back in its real class */
  unit_channel_reset(dev.channel, LDSAN_CHANNEL_CAPACITY);
  __ldsan_host_trap_count = 0;
}

/* Only the header's seal and self written over (its sizes as they were):
 * the exit reports the header, repairs it, and the next workgroup that gets
 * the chunk from the block cache exits with nothing to say. The magic written
 * over is a bad free (nothing of the header can be told apart from another
 * block's). */
static void test_damaged_header_repaired(void) {
  uint64_t block = unit_kernel_enter(100, 0);
  CHECK(block != 0);
  ldsan_block_header *h = header_of(block);
  h->chunk_seal ^= 1u;
  h->self = 0x1234;
  uint32_t cached = pool_cached(0);
  unit_kernel_exit(block, 0);
  CHECK_EQ(dev.channel->next, 1);
  CHECK_EQ(dev.channel->records[0].kind, LDSAN_REPORT_BLOCK_HEADER_CORRUPTED);
  CHECK_EQ(pool_cached(0), cached + 1);
  CHECK_EQ(h->self, block);
  CHECK_EQ(h->chunk_seal, ldsan_chunk_seal(block, 256, 0));
  /* Workgroups take chunks from the block cache until the repaired one comes
   * back (a ring is FIFO: a quarantine): every exit is silent. */
  int reused = 0;
  for (int i = 0; i < 4096 && !reused; i++) {
    uint64_t again = unit_kernel_enter(100, 0);
    reused = again == block;
    unit_kernel_exit(again, 0);
  }
  CHECK(reused);
  CHECK_EQ(dev.channel->next, 1);
  uint64_t third = unit_kernel_enter(100, 0);
  header_of(third)->magic = 0x41414141u;
  unit_kernel_exit(third, 0);
  CHECK_EQ(dev.channel->next, 2);
  CHECK_EQ(dev.channel->records[1].kind, LDSAN_REPORT_BAD_FREE);
  unit_channel_reset(dev.channel, LDSAN_CHANNEL_CAPACITY);
  __ldsan_host_trap_count = 0;
}

int main(void) {
  unit_device_init(&dev, UNIT_POOL_BYTES(4));
  RUN(test_enter_exit_without_desc);
  RUN(test_recycled_chunk_shadow);
  RUN(test_enter_static_desc);
  RUN(test_shadow_image_as_redzone_calls);
  RUN(test_wave_of_64_as_one_lane);
  RUN(test_enter_dynamic_desc);
  RUN(test_bad_desc_ignored);
  RUN(test_malloc_free);
  RUN(test_bad_free);
  RUN(test_exhaustion_and_too_large);
  RUN(test_corrupted_header_exit);
  RUN(test_damaged_header_repaired);
  unit_device_fini(&dev);
  return unit_summary();
}
