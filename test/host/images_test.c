/* ldsan host library unit tests: the code-object registry (host/images.c)
 * through a fake backend: registration checks the ABI version and writes the
 * channel and flags into the device state; a dispatch drains only its records;
 * a fatal report found when a code object is unregistered ends the process
 * (exit status `exitcode`) instead of leaving other threads waiting for a death
 * that never comes; LDS backing stores, LDS-only ones with their own shadow. */
#include "host_test.h"

#include <sys/wait.h>

static fake_memory mem_map;
static ldsan_device_state *state;  /* host view of the fake device state */
#define STATE_ADDR 0x900000ull

static int fake_write(void *ctx, uint64_t addr, const void *src, size_t n) {
  fake_memory *m = ctx;
  for (int i = 0; i < m->n; i++)
    if (addr >= m->r[i].base && addr + n <= m->r[i].base + m->r[i].size) {
      memcpy(m->r[i].data + (addr - m->r[i].base), src, n);
      return 0;
    }
  return -1;
}
static void *fake_alloc(void *ctx, size_t n, uint64_t *device_addr) {
  (void)ctx;
  void *p = calloc(1, n);
  *device_addr = (uint64_t)(uintptr_t)p;
  return p;
}
static void fake_release(void *ctx, void *p) {
  (void)ctx;
  free(p);
}

static ldsan_backend backend;

static void setup(void) {
  mini_setup(&mem_map, 0, 0);
  state = (ldsan_device_state *)fake_map(&mem_map, STATE_ADDR, sizeof *state);
  state->abi_version = LDSAN_ABI_VERSION;
  state->flags = 0;
  backend = (ldsan_backend){.device_name = "fake-gpu", .device = 3, .mem = fake_reader(&mem_map),
                            .write = fake_write, .alloc_shared = fake_alloc, .free_shared = fake_release};
}

/* A fatal record of the dispatch whose implicit arguments are at `args`. */
static void put_record(ldsan_report_channel *ch, uint64_t args) {
  ldsan_report_record r = mini_record(288, 4, 1, LDSAN_SHADOW_LDS_REDZONE);
  r.dispatch = args;
  uint32_t slot = ch->next++ % ch->capacity;
  ch->records[slot] = r;
}

/* Registers code object `name` on b with stderr captured: *err gets what the
 * registration printed (the caller frees it). */
static ldsan_image *register_capturing(const ldsan_backend *b, const char *name, char **err) {
  capture c;
  capture_begin(&c);
  FILE *old = stderr;
  stderr = c.f;
  ldsan_image *img = ldsan_host_image_register(b, name, STATE_ADDR);
  stderr = old;
  capture_end(&c);
  *err = c.buf;
  return img;
}

static void test_register(void) {
  state->abi_version = 99; /* another ldsan's */
  char *err;
  ldsan_image *img = register_capturing(&backend, "co-old", &err);
  CHECK(img == NULL);
  CHECK_HAS(err, "ldsan: error: co-old was built with ldsan ABI version 99");
  free(err);
  state->abi_version = LDSAN_ABI_VERSION;
  img = ldsan_host_image_register(&backend, "co", STATE_ADDR);
  CHECK(img != NULL);
  ldsan_report_channel *ch = ldsan_host_image_channel(img);
  CHECK_EQ(state->channel, (uint64_t)(uintptr_t)ch);
  CHECK_EQ(state->flags & LDSAN_STATE_HALT_ON_ERROR, LDSAN_STATE_HALT_ON_ERROR);
  CHECK_EQ(ch->abi_version, LDSAN_ABI_VERSION);
  CHECK_EQ(ch->capacity, LDSAN_CHANNEL_CAPACITY);
}

/* Unregistering a code object whose channel holds a fatal report ends the
 * process with exitcode (run in a child). */
static void test_unregister_fatal(void) {
  pid_t pid = fork();
  if (pid == 0) {
    ldsan_log_override(fopen("/dev/null", "w"));
    ldsan_image *img = ldsan_host_image_register(&backend, "co", STATE_ADDR);
    put_record(ldsan_host_image_channel(img), 0x5010);
    ldsan_host_image_unregister(img);
    _exit(0);  /* reached only if the fatal report was ignored */
  }
  int status = 0;
  waitpid(pid, &status, 0);
  CHECK(WIFEXITED(status));
  CHECK_EQ(WEXITSTATUS(status), 1);
}

/* A finished dispatch drains its own records only. */
static void test_dispatch_done(void) {
  ldsan_flags_parse("halt_on_error=0", stderr);
  ldsan_image *img = ldsan_host_image_register(&backend, "co", STATE_ADDR);
  ldsan_report_channel *ch = ldsan_host_image_channel(img);
  put_record(ch, 0x5010);
  put_record(ch, 0x9010);
  capture c;
  capture_begin(&c);
  ldsan_log_override(c.f);
  ldsan_dispatch_info d = mini_dispatch;
  d.args_begin = 0x5000;
  d.args_end = 0x5000 + 272;
  CHECK_EQ(ldsan_host_dispatch_done(img, &d), 1);
  ldsan_log_override(NULL);
  capture_end(&c);
  CHECK_HAS(c.buf, "on amdgpu device 3 (gfx90a:xnack+)");  /* the backend's index, the dispatch's name */
  free(c.buf);
  CHECK_EQ(ch->records[0].state, LDSAN_RECORD_EMPTY);
  CHECK_EQ(ch->records[1].state, LDSAN_RECORD_READY);
  ldsan_log_override(fopen("/dev/null", "w"));
  ldsan_host_image_unregister(img);  /* drains the other record; halt_on_error=0: returns */
  ldsan_flags_parse("halt_on_error=1", stderr);
}

/* Device memory for the LDS backing store: what the fake device was asked for. */
static size_t device_asked;
static int device_calls, device_fails;
static void *fake_alloc_device(void *ctx, size_t n, uint64_t *device_addr) {
  (void)ctx;
  device_calls++;
  device_asked = n;
  if (device_fails) return NULL;
  *device_addr = 0x7000000000ull; /* VRAM: the host never dereferences it */
  return (void *)1;
}
static void *no_alloc(void *ctx, size_t n, uint64_t *device_addr) {
  (void)ctx, (void)n, (void)device_addr;
  return NULL;
}

/* Registers one code object on b and returns the pool its state was given. */
static void pool_given(ldsan_backend *b, uint64_t *base, uint64_t *size) {
  state->pool_base = state->pool_size = 0;
  ldsan_log_override(fopen("/dev/null", "w"));
  char *err;
  ldsan_image *img = register_capturing(b, "co-store", &err);
  free(err);
  CHECK(img != NULL);
  *base = state->pool_base;
  *size = state->pool_size;
  ldsan_host_image_unregister(img);
  ldsan_log_override(NULL);
}

/* Each device gets one LDS backing store, sized 2 MiB per compute unit (at
 * least 64 MiB) or by lds_pool_size, in its own memory when it has some,
 * shared by every code object registered on it. */
static void test_lds_store(void) {
  uint64_t base, size;
  ldsan_backend gpu = backend;
  gpu.alloc_device = fake_alloc_device;
  gpu.compute_units = 104;
  pool_given(&gpu, &base, &size);
  CHECK_EQ(device_calls, 1);
  CHECK_EQ(size, 104ull * (2u << 20));
  CHECK_EQ(device_asked, (size_t)size);
  CHECK_EQ(base, 0x7000000000ull);
  pool_given(&gpu, &base, &size); /* a second code object: the same store */
  CHECK_EQ(device_calls, 1);
  CHECK_EQ(size, 104ull * (2u << 20));

  ldsan_backend small = gpu; /* few compute units: the 64 MiB floor */
  small.compute_units = 4;
  pool_given(&small, &base, &size);
  CHECK_EQ(size, 64ull << 20);

  ldsan_backend cpu = backend; /* no device memory: shared memory */
  ldsan_flags_parse("lds_pool_size=3M", stderr);
  pool_given(&cpu, &base, &size);
  CHECK_EQ(size, 3ull << 20);
  CHECK(base != 0);
  ldsan_flags_parse("lds_pool_size=0", stderr);

  ldsan_backend full = gpu; /* the device is out of memory: shared memory instead */
  device_fails = 1;
  pool_given(&full, &base, &size);
  CHECK_EQ(device_calls, 3);
  CHECK_EQ(size, 104ull * (2u << 20));
  CHECK(base != 0x7000000000ull && base != 0);

  ldsan_backend none = gpu; /* no memory at all: the built-in pool (state left 0) */
  none.alloc_shared = no_alloc;
  char *err;
  ldsan_image *img = register_capturing(&none, "co-nomem", &err);
  CHECK(img == NULL); /* no channel either: alloc_shared fails first */
  CHECK_HAS(err, "cannot allocate a report channel");
  free(err);
  device_fails = 0;
}

/* The fake device's mapped memory (its state), else shared memory it reaches
 * at its host address (what fake_alloc gave). */
static int direct_write(void *ctx, uint64_t addr, const void *src, size_t n) {
  if (fake_write(ctx, addr, src, n) == 0) return 0;
  memcpy((void *)(uintptr_t)addr, src, n);
  return 0;
}

/* An LDS-only code object (LDSAN_STATE_OWN_SHADOW) gets a store of its own
 * kind with its shadow beside it: guards of store memory on both sides of the
 * pool, shadowed as store memory no block holds; the pool's own shadow left 0
 * for the device to prepare; shadow(addr) = (addr >> 3) + shadow_offset inside
 * the same allocation. A full-ASan code object on the same device gets the
 * other kind's store, without a shadow offset. */
/* Memory 16 bytes past a page boundary, as a large calloc gives (glibc's
 * mmap'd chunks): 16-aligned, not page-aligned. */
static void *alloc_16_past_page(void *ctx, size_t n, uint64_t *device_addr) {
  (void)ctx;
  uint8_t *p = aligned_alloc(4096, (n + 16 + 4095) & ~(size_t)4095);
  if (!p) return NULL;
  memset(p, 0, n + 16);
  *device_addr = (uint64_t)(uintptr_t)(p + 16);
  return p + 16;
}
static void free_16_past_page(void *ctx, void *p) {
  (void)ctx;
  free((uint8_t *)p - 16);
}

static void test_own_shadow_store(void) {
  ldsan_backend cpu = backend;
  cpu.write = direct_write;
  cpu.alloc_shared = alloc_16_past_page;
  cpu.free_shared = free_16_past_page;
  ldsan_flags_parse("lds_pool_size=3M", stderr);
  state->flags = LDSAN_STATE_OWN_SHADOW;
  state->pool_base = state->pool_size = state->shadow_offset = 0;
  ldsan_log_override(fopen("/dev/null", "w"));
  ldsan_image *img = ldsan_host_image_register(&cpu, "co-lds-only", STATE_ADDR);
  CHECK(img != NULL);
  uint64_t base = state->pool_base, size = state->pool_size, off = state->shadow_offset;
  CHECK_EQ(size, 3ull << 20);
  CHECK(base != 0 && off != 0);
  CHECK_EQ(state->flags & LDSAN_STATE_OWN_SHADOW, LDSAN_STATE_OWN_SHADOW); /* the host keeps the image's mode */
  const uint64_t guard = LDSAN_OWN_SHADOW_GUARD;
  uint64_t alloc = base - guard, alloc_end = alloc + size + 2 * guard + 16 + ((size + 2 * guard) >> 3);
  CHECK_EQ(alloc % 4096, 16);
#define SHADOW_OF(a) (*(const uint8_t *)(uintptr_t)(((a) >> 3) + off))
  /* The shadow lies after guard, pool, guard, in the same allocation, at an
   * offset that is a multiple of 16 (abi.h), however the allocation is
   * aligned: a 256-aligned block's shadow starts a whole 16-byte unit. */
  CHECK_EQ(off % 16, 0);
  CHECK((alloc >> 3) + off >= alloc + size + 2 * guard);
  CHECK((alloc >> 3) + off < alloc + size + 2 * guard + 16);
  CHECK((((base + size + guard - 1) >> 3) + off) < alloc_end);
  CHECK_EQ(SHADOW_OF(alloc), LDSAN_SHADOW_LDS_STORE);
  CHECK_EQ(SHADOW_OF(base - 8), LDSAN_SHADOW_LDS_STORE);
  CHECK_EQ(SHADOW_OF(base), 0);
  CHECK_EQ(SHADOW_OF(base + size - 8), 0);
  CHECK_EQ(SHADOW_OF(base + size), LDSAN_SHADOW_LDS_STORE);
  CHECK_EQ(SHADOW_OF(base + size + guard - 8), LDSAN_SHADOW_LDS_STORE);
#undef SHADOW_OF
  ldsan_host_image_unregister(img);

  /* A second LDS-only code object: the same store and shadow. */
  state->pool_base = state->pool_size = state->shadow_offset = 0;
  img = ldsan_host_image_register(&cpu, "co-lds-only-2", STATE_ADDR);
  CHECK_EQ(state->pool_base, base);
  CHECK_EQ(state->shadow_offset, off);
  ldsan_host_image_unregister(img);

  /* A full-ASan code object there: the other store, ASan's shadow. */
  state->flags = 0;
  state->pool_base = state->pool_size = state->shadow_offset = 0;
  img = ldsan_host_image_register(&cpu, "co-full", STATE_ADDR);
  CHECK(img != NULL);
  CHECK(state->pool_base != 0 && state->pool_base != base);
  CHECK_EQ(state->shadow_offset, 0);
  ldsan_host_image_unregister(img);
  ldsan_log_override(NULL);
  ldsan_flags_parse("lds_pool_size=0", stderr);
}

int main(void) {
  setup();
  test_register();
  test_unregister_fatal();
  test_dispatch_done();
  test_lds_store();
  test_own_shadow_store();
  return test_done("images_test");
}
