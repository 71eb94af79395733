/* ldsan host library: the registry of code objects that carry ldsan's device
 * runtime, and what happens to them over a program's life — registered when a
 * backend loads one (ABI check, own report channel, option flags written into
 * its device state), drained after each dispatch or device error, drained and
 * forgotten when unloaded or at exit. One path for every backend (GPU, CPU
 * emulator); backends only say how memory is reached (ldsan_backend).
 * Threading: the registry is a list under images_mu (locks.c), the LDS stores a list
 * under stores_mu (taken inside images_mu, never around it); draining takes the report
 * lock (locks.c) and may end the process (die.c) when the drain's answer
 * (stop.c, ldsan_drain_stats.must_abort) says so. */
#define _POSIX_C_SOURCE 200809L
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"

struct ldsan_image {
  struct ldsan_image *next;
  const ldsan_backend *backend;
  ldsan_report_channel *channel; /* host view of the image's own channel */
  int own_shadow;                /* an LDS-only image (LDSAN_STATE_OWN_SHADOW) */
  uint64_t shadow_offset;        /* ldsan_dispatch_info.shadow_offset for its reports */
};

static ldsan_image *images;
static pthread_once_t atexit_once = PTHREAD_ONCE_INIT;

/* At exit, reports of dispatches nobody waited for are printed; one that would
 * have stopped the program sets the exit status as it would have. */
static void drain_at_exit(void) { ldsan_host_drain_all(); }
static void install_atexit(void) { atexit(drain_at_exit); }

/* LDS backing stores, one per backend (device) and kind, shared by every code
 * object of that kind registered on it and kept until exit (a block of one code
 * object may still be live when another unloads). size 0: the device could not
 * get one. The LDS-only kind (own_shadow) carries its own shadow, in the same
 * allocation:
 *   | guard | pool (size) | guard | < 16 | shadow of guard, pool, guard |
 * each guard LDSAN_OWN_SHADOW_GUARD bytes, shadowed as store memory no block
 * holds, so that an access a little outside the pool is reported and stays in
 * memory ldsan owns; shadow(addr) = (addr >> 3) + shadow_offset. */
#define OWN_SHADOW_ALIGN 16u /* of the shadow offset */
typedef struct lds_store {
  const ldsan_backend *backend;
  int own_shadow;
  uint64_t base, size;      /* the pool */
  uint64_t shadow_offset;   /* own_shadow stores */
  void *shared; /* host pointer when it came from alloc_shared (freed at shutdown) */
  struct lds_store *next;
} lds_store;
static lds_store *stores; /* under stores_mu (drains run under images_mu and ask for sizes) */


/* The store's size: option lds_pool_size, else 2 MiB per compute unit (for
 * example 16 resident workgroups per CU with 64 KiB of LDS each, a chunk being
 * the block rounded up to a power of two), at least 64 MiB. */
#define LDS_STORE_PER_CU (2ull << 20)
#define LDS_STORE_MIN (64ull << 20)
static unsigned long long lds_store_size_for(const ldsan_backend *b) {
  unsigned long long size = ldsan_flags_get()->lds_pool_size;
  if (size) return size;
  size = (unsigned long long)b->compute_units * LDS_STORE_PER_CU;
  return size > LDS_STORE_MIN ? size : LDS_STORE_MIN;
}

/* b's store of that kind if it has one yet, else NULL; under stores_mu. */
static lds_store *find_store(const ldsan_backend *b, int own_shadow) {
  lds_store *s = stores;
  while (s && (s->backend != b || s->own_shadow != own_shadow)) s = s->next;
  return s;
}

/* Shadows [beg, end) of an own-shadow store as store memory no block holds. */
static int poison_guard(const ldsan_backend *b, const lds_store *s, uint64_t beg, uint64_t end) {
  static uint8_t fill[4096];
  memset(fill, LDSAN_SHADOW_LDS_STORE, sizeof fill);
  uint64_t sb = (beg >> LDSAN_SHADOW_SCALE) + s->shadow_offset, se = (end >> LDSAN_SHADOW_SCALE) + s->shadow_offset;
  for (uint64_t a = sb; a < se; a += sizeof fill) {
    size_t n = se - a < sizeof fill ? (size_t)(se - a) : sizeof fill;
    if (b->write(b->mem.ctx, a, fill, n) != 0) return -1;
  }
  return 0;
}

/* The device's store, allocated on first use (device memory when the backend
 * has it, else shared memory); under stores_mu. */
static lds_store *lds_store_of(const ldsan_backend *b, const char *name, int own_shadow) {
  lds_store *s = find_store(b, own_shadow);
  if (s || (s = calloc(1, sizeof *s)) == NULL) return s;
  s->backend = b;
  s->own_shadow = own_shadow;
  unsigned long long size = lds_store_size_for(b), total = size;
  const unsigned long long guard = own_shadow ? LDSAN_OWN_SHADOW_GUARD : 0;
  if (own_shadow) total = size + 2 * guard + ((size + 2 * guard) >> LDSAN_SHADOW_SCALE) + OWN_SHADOW_ALIGN;
  void *handle = NULL;
  uint64_t at = 0;
  if (total <= SIZE_MAX) {
    handle = b->alloc_device ? b->alloc_device(b->mem.ctx, (size_t)total, &at) : NULL;
    if (!handle) handle = s->shared = b->alloc_shared(b->mem.ctx, (size_t)total, &at);
  }
  if (handle && own_shadow) {
    /* Allocations are at least 16-aligned, so granules map whole. The
     * offset is a multiple of 16, as ASan's is: the shadow of a 256-aligned
     * block starts a 16-byte unit, which the runtime writes whole
     * (device/runtime.h); shadow(at) lies at most 15 bytes past the guard. */
    s->shadow_offset = (at + size + 2 * guard - (at >> LDSAN_SHADOW_SCALE) + OWN_SHADOW_ALIGN - 1) &
                       ~(uint64_t)(OWN_SHADOW_ALIGN - 1);
    if (poison_guard(b, s, at, at + guard) != 0 || poison_guard(b, s, at + guard + size, at + 2 * guard + size) != 0) {
      fprintf(stderr, "ldsan: warning: cannot write the shadow of the LDS backing store on %s; %s and every other "
              "LDS-only code object there use their built-in %u MiB pool\n",
              b->device_name ? b->device_name : "the device", name, LDSAN_BUILTIN_POOL_SIZE >> 20);
      if (s->shared) b->free_shared(b->mem.ctx, s->shared);
      s->shared = NULL;
      handle = NULL; /* device memory stays allocated until exit, unused */
    }
  }
  if (handle) {
    s->base = at + guard;
    s->size = size;
  } else {
    s->base = 0;
    fprintf(stderr, "ldsan: warning: cannot allocate the LDS backing store of %llu bytes on %s; %s and every "
            "other code object there use their built-in %u MiB pool (set a smaller LDSAN_OPTIONS=lds_pool_size "
            "to avoid this)\n", size, b->device_name ? b->device_name : "the device", name,
            LDSAN_BUILTIN_POOL_SIZE >> 20);
  }
  s->next = stores;
  stores = s;
  return s;
}

/* Points st at the device's LDS backing store of img's kind (leaves its
 * built-in pool if the store cannot be had), and sets the shadow img's reports read. */
static void use_lds_store(const ldsan_backend *b, const char *name, ldsan_device_state *st, ldsan_image *img) {
  ldsan_stores_lock();
  lds_store *s = lds_store_of(b, name, img->own_shadow);
  if (s && s->size) {
    st->pool_base = s->base;
    st->pool_size = s->size;
    st->shadow_offset = s->shadow_offset;
  }
  /* ASan's shadow (0), ldsan's own, or the built-in pool's, which the host cannot find. */
  img->shadow_offset = !img->own_shadow ? 0 : s && s->size ? s->shadow_offset : LDSAN_SHADOW_UNREADABLE;
  ldsan_stores_unlock();
}

/* Forgets the stores (shutdown: no kernel runs any more; the runtime frees
 * device memory itself, and an unloaded tools library leaves nothing behind). */
static void forget_lds_stores(void) {
  ldsan_stores_lock();
  while (stores) {
    lds_store *next = stores->next;
    if (stores->shared) stores->backend->free_shared(stores->backend->mem.ctx, stores->shared);
    free(stores);
    stores = next;
  }
  ldsan_stores_unlock();
}

/* Bytes of b's store of that kind, 0 if it has none (its code objects use their built-in pool). */
static uint64_t lds_store_size(const ldsan_backend *b, int own_shadow) {
  ldsan_stores_lock();
  lds_store *s = find_store(b, own_shadow);
  uint64_t size = s ? s->size : 0;
  ldsan_stores_unlock();
  return size;
}

/* Reads the device state; returns 0 and fills *st, or prints why not. */
static int read_state(const ldsan_backend *b, const char *name, uint64_t addr, ldsan_device_state *st) {
  if (b->mem.read(b->mem.ctx, addr, st, sizeof *st) == 0) return 0;
  fprintf(stderr, "ldsan: error: cannot read __ldsan_device_state at 0x%llx in %s on %s; "
          "LDS reports of this code object will not be printed\n", (unsigned long long)addr, name,
          b->device_name ? b->device_name : "the device");
  return -1;
}

ldsan_image *ldsan_host_image_register(const ldsan_backend *b, const char *name, uint64_t state_addr) {
  ldsan_host_init();
  ldsan_host_fork_safe();
  if (!name) name = "a code object";
  ldsan_device_state st;
  if (read_state(b, name, state_addr, &st) != 0) return NULL;
  if (st.abi_version != LDSAN_ABI_VERSION) {
    fprintf(stderr, "ldsan: error: %s was built with ldsan ABI version %u, this ldsan host library is "
            "version %u: its kernels run without LDS reports; rebuild it with this ldsan's ldsan-cc\n",
            name, st.abi_version, LDSAN_ABI_VERSION);
    return NULL;
  }
  int own_shadow = (st.flags & LDSAN_STATE_OWN_SHADOW) != 0;
  /* Full-ASan device code writes ASan's shadow; without host ASan it is ldsan's to map. */
  if (!own_shadow && b->maps_asan_shadow && ldsan_host_map_shadow() != 0) {
    fprintf(stderr, "ldsan: error: %s needs AddressSanitizer's shadow, which could not be mapped (above); "
            "its kernels cannot run checked: build the program with ldsan-cc (host ASan), or build the "
            "device code with -fsanitize=lds (no ASan shadow needed)\n", name);
    return NULL;
  }
  ldsan_image *img = calloc(1, sizeof *img);
  uint64_t channel_addr = 0;
  if (img) img->channel = b->alloc_shared(b->mem.ctx, sizeof *img->channel, &channel_addr);
  if (!img || !img->channel) {
    fprintf(stderr, "ldsan: error: cannot allocate a report channel (%zu bytes of shared memory) for %s; "
            "LDS reports of this code object will not be printed\n", sizeof *img->channel, name);
    free(img);
    return NULL;
  }
  img->backend = b;
  img->own_shadow = own_shadow;
  memset(img->channel, 0, sizeof *img->channel); /* every slot EMPTY, every reserve slot free */
  img->channel->abi_version = LDSAN_ABI_VERSION;
  img->channel->capacity = LDSAN_CHANNEL_CAPACITY;
  /* The device traps on aborting reports only if the host wants to halt. */
  st.channel = channel_addr;
  use_lds_store(b, name, &st, img);
  const ldsan_flags *f = ldsan_flags_get();
  st.flags &= ~(uint32_t)(LDSAN_STATE_HALT_ON_ERROR | LDSAN_STATE_SAME_WAVE_ERRORS | LDSAN_STATE_LDS_CHECKS_OFF);
  st.flags |= ldsan_stop_device_flags();  /* stop.c's rule, the device's share */
  if (f->detect_races >= 2) st.flags |= LDSAN_STATE_SAME_WAVE_ERRORS;
  /* The emulator's own run-time checks replace compiled-in ones (no report twice). */
  if (b->checks_lds_itself && (f->detect_races || f->detect_uninit)) st.flags |= LDSAN_STATE_LDS_CHECKS_OFF;
  if (b->write(b->mem.ctx, state_addr, &st, sizeof st) != 0) {
    fprintf(stderr, "ldsan: error: cannot write __ldsan_device_state at 0x%llx in %s; "
            "LDS reports of this code object will not be printed\n", (unsigned long long)state_addr, name);
    b->free_shared(b->mem.ctx, img->channel);
    free(img);
    return NULL;
  }
  pthread_once(&atexit_once, install_atexit);
  ldsan_images_lock();
  img->next = images;
  images = img;
  ldsan_images_unlock();
  return img;
}

ldsan_report_channel *ldsan_host_image_channel(const ldsan_image *img) { return img ? img->channel : NULL; }

/* Fills what the backend knows into a copy of the caller's dispatch info. */
static ldsan_dispatch_info with_backend(const ldsan_image *img, const ldsan_dispatch_info *d) {
  ldsan_dispatch_info info;
  if (d) info = *d;
  else memset(&info, 0, sizeof info);
  info.device = img->backend->device;  /* only the backend knows which device it is */
  if (!info.device_name) info.device_name = img->backend->device_name;
  if (!info.symbolize) {
    info.symbolize = img->backend->symbolize;
    info.symbolize_ctx = img->backend->symbolize_ctx;
  }
  info.lds_store_size = lds_store_size(img->backend, img->own_shadow);
  info.shadow_offset = img->shadow_offset;
  return info;
}

/* Drains one image; returns what the drain saw. final: no dispatch can still
 * be running (device error, exit, unload), so half-written records are lost. */
static ldsan_drain_stats drain(ldsan_image *img, const ldsan_dispatch_info *d, int final) {
  ldsan_dispatch_info info = with_backend(img, d);
  if (final) info.final = 1;
  ldsan_drain_stats st;
  ldsan_host_drain_channel_stats(img->channel, &img->backend->mem, &info, &st);
  return st;
}

int ldsan_host_dispatch_done(ldsan_image *img, const ldsan_dispatch_info *d) {
  if (!img) return 0;
  ldsan_drain_stats st = drain(img, d, 0);
  if (st.must_abort) ldsan_host_die();
  return (int)st.printed;
}

int ldsan_host_device_error(const ldsan_backend *b) {
  int found = 0, must_abort = 0;
  ldsan_images_lock();
  for (ldsan_image *img = images; img; img = img->next) {
    if (img->backend != b) continue;
    ldsan_drain_stats st = drain(img, NULL, 1);
    found += (int)(st.errors + st.lost + st.dropped);
    must_abort |= st.must_abort;
  }
  ldsan_images_unlock();
  /* A queue stopped by ldsan's own trap: end here, before the runtime prints
   * its abort message for the same trap. */
  if (must_abort) ldsan_host_die();
  return found;
}

void ldsan_host_drain_all(void) {
  int must_abort = 0;
  ldsan_images_lock();
  for (ldsan_image *img = images; img; img = img->next) must_abort |= drain(img, NULL, 1).must_abort;
  ldsan_images_unlock();
  if (must_abort) ldsan_host_die();
}

void ldsan_host_image_unregister(ldsan_image *img) {
  if (!img) return;
  ldsan_images_lock();
  for (ldsan_image **p = &images; *p; p = &(*p)->next)
    if (*p == img) { *p = img->next; break; }
  ldsan_images_unlock();
  /* A fatal report found here must end the process like any other: the drain
   * has claimed death, and other threads now wait for it. */
  if (drain(img, NULL, 1).must_abort) ldsan_host_die();
  img->backend->free_shared(img->backend->mem.ctx, img->channel);
  free(img);
}

void ldsan_host_shutdown(void) {
  ldsan_host_drain_all();
  forget_lds_stores();
  ldsan_symbolizer_reset(0);  /* stops the symbolizer process, frees its cache */
  ldsan_log_close();
  ldsan_flags_release();
}
