/* ldsan emulator core: the image registry and ldsan_emu_launch. Images are
 * registered from constructors (before main, single-threaded in practice;
 * still locked) and only read afterwards. A launch validates its geometry,
 * fills the COV5 implicit-argument block and the dispatch packet, runs the
 * dispatch, then drains the image's report channel. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ldsan/host.h"
#include "core_internal.h"

static pthread_mutex_t images_mu = PTHREAD_MUTEX_INITIALIZER;
static const ldsan_emu_image **images;
static struct ldsan_image **image_hosts;   /* images[i]'s registration with the host library */
static unsigned image_count;

void __ldsan_emu_register_image(const ldsan_emu_image *image) {
  const char *source = image->source ? image->source : "a device object";
  if (image->version != LDSAN_EMU_IMAGE_VERSION)
    ldsan_emu_die("%s was retargeted for image version %u, this core is version %u; rebuild the program with "
                  "this ldsan's ldsan-cc --emulate", source, image->version, LDSAN_EMU_IMAGE_VERSION);
  /* An image with ldsan's runtime that the host library refuses (it said why:
   * ASan's shadow not mappable, out of memory) would run unchecked or fault. */
  struct ldsan_image *host = ldsan_emu_register_host(image);
  if (!host && image->device_state)
    ldsan_emu_die("the kernels of %s cannot run without ldsan's host library, which refused the image (the "
                  "message above says why): fix that and rerun", source);
  pthread_mutex_lock(&images_mu);
  images = ldsan_emu_xrealloc(images, (image_count + 1) * sizeof *images, "the emulator's table of device images");
  image_hosts = ldsan_emu_xrealloc(image_hosts, (image_count + 1) * sizeof *image_hosts,
                                   "the host library registrations of the emulator's device images");
  images[image_count] = image;
  image_hosts[image_count++] = host;
  pthread_mutex_unlock(&images_mu);
}

const ldsan_emu_kernel *ldsan_emu_find_kernel(const char *name) {
  for (unsigned i = 0; i < image_count; i++)
    for (uint32_t k = 0; k < images[i]->kernel_count; k++)
      if (!strcmp(images[i]->kernels[k].name, name)) return &images[i]->kernels[k];
  return NULL;
}

const ldsan_emu_global *ldsan_emu_find_global(const char *name) {
  for (unsigned i = 0; i < image_count; i++)
    for (uint32_t g = 0; g < images[i]->global_count; g++)
      if (!strcmp(images[i]->globals[g].name, name)) return &images[i]->globals[g];
  return NULL;
}

/* Index of the image holding `kernel`, or -1. */
static int kernel_image_index(const ldsan_emu_kernel *kernel) {
  for (unsigned i = 0; i < image_count; i++)
    if (kernel >= images[i]->kernels && kernel < images[i]->kernels + images[i]->kernel_count) return (int)i;
  return -1;
}

uint32_t ldsan_emu_wave_size(void) {
  uint32_t size = 64;
  pthread_mutex_lock(&images_mu);
  for (unsigned i = 0; i < image_count; i++)
    if (images[i]->kernel_count) {
      size = images[i]->wave_size == 32 ? 32 : 64;
      break;
    }
  pthread_mutex_unlock(&images_mu);
  return size;
}

const char *ldsan_emu_target(void) {
  const char *target = "gfx90a:xnack+";
  pthread_mutex_lock(&images_mu);
  for (unsigned i = 0; i < image_count; i++)
    if (images[i]->kernel_count) {
      if (images[i]->target && images[i]->target[0]) target = images[i]->target;
      break;
    }
  pthread_mutex_unlock(&images_mu);
  return target;
}

const ldsan_emu_image *ldsan_emu_kernel_image(const ldsan_emu_kernel *kernel) {
  int i = kernel_image_index(kernel);
  return i < 0 ? NULL : images[i];
}

static void put16(uint8_t *b, unsigned off, uint32_t v) { uint16_t x = (uint16_t)v; memcpy(b + off, &x, 2); }
static void put32(uint8_t *b, unsigned off, uint32_t v) { memcpy(b + off, &v, 4); }

/* COV5 hidden arguments (AMDGPU code object v5) and the dispatch packet. */
static void emu_fill_blocks(emu_dispatch *d, uint32_t dynamic_lds) {
  uint8_t *ia = d->implicitarg, *pk = d->packet;
  uint32_t dims = d->grid[2] * d->block[2] > 1 ? 3 : d->grid[1] * d->block[1] > 1 ? 2 : 1;
  for (int i = 0; i < 3; i++) {
    put32(ia, 0 + 4 * i, d->grid[i]);      /* hidden_block_count_{x,y,z} */
    put16(ia, 12 + 2 * i, d->block[i]);    /* hidden_group_size_{x,y,z} */
    put16(ia, 18 + 2 * i, 0);              /* hidden_remainder_{x,y,z}: HIP grids are whole workgroups */
    put16(pk, 4 + 2 * i, d->block[i]);     /* workgroup_size_{x,y,z} */
    put32(pk, 12 + 4 * i, d->grid[i] * d->block[i]); /* grid_size_{x,y,z} in work-items */
  }
  put16(ia, 64, dims);                      /* hidden_grid_dims */
  /* 96: hidden_heap_v1 = 0 (no device heap). 120: hidden_dynamic_lds_size, as
   * the HIP runtime writes it from ROCm 6.1 for a kernel whose metadata names
   * it: code lowered by upstream amdgpu-sw-lower-lds alone reads it; ldsan's
   * kernels read the size from the packet (instrument/DynamicLdsSize.h). */
  put32(ia, 120, dynamic_lds);
  /* 88: hidden_multigrid_sync_arg, nonzero for a cooperative launch (what
   * cooperative groups' grid.is_valid() reads); nothing reads what it points at. */
  if (d->cooperative) {
    uint64_t sync = (uint64_t)(uintptr_t)d;
    memcpy(ia + 88, &sync, sizeof sync);
  }
  put16(pk, 2, dims);                       /* setup: dimensions */
  /* group_segment_size: the kernel's own LDS plus the launch's dynamic LDS,
   * not rounded (CLR VirtualGPU::submitKernelInternal); kernel_object: a
   * descriptor whose group_segment_fixed_size is the kernel's own LDS. */
  put32(pk, 28, d->kernel->static_lds_size + dynamic_lds);
  uint64_t kd = (uint64_t)(uintptr_t)d->kernel_descriptor;
  memcpy(pk + 32, &kd, sizeof kd);
  put32(d->kernel_descriptor, 0, d->kernel->static_lds_size);
}

int ldsan_emu_launch(const ldsan_emu_kernel *kernel, const uint32_t grid[3], const uint32_t block[3],
                     void **args, uint32_t dynamic_lds_size, char *err, size_t err_len) {
  return ldsan_emu_launch_flags(kernel, grid, block, args, dynamic_lds_size, 0, err, err_len);
}

int ldsan_emu_launch_flags(const ldsan_emu_kernel *kernel, const uint32_t grid[3], const uint32_t block[3],
                           void **args, uint32_t dynamic_lds_size, uint32_t flags, char *err, size_t err_len) {
  if (err && err_len) err[0] = 0;
  uint64_t items = (uint64_t)block[0] * block[1] * block[2];
  if (!kernel || !kernel->entry) {
    if (err) snprintf(err, err_len, "ldsan-emu: launch of a null kernel");
    return 1;
  }
  if (items == 0 || items > EMU_MAX_BLOCK || !grid[0] || !grid[1] || !grid[2]) {
    if (err)
      snprintf(err, err_len, "ldsan-emu: invalid launch of %s: grid (%u,%u,%u) block (%u,%u,%u); a block has 1..%u work-items",
               kernel->name, grid[0], grid[1], grid[2], block[0], block[1], block[2], EMU_MAX_BLOCK);
    return 1;
  }
  emu_dispatch *d = ldsan_emu_xalloc(sizeof *d, 64, "a kernel dispatch");
  pthread_mutex_init(&d->lock, NULL);
  pthread_cond_init(&d->gws_cond, NULL);
  d->cooperative = (flags & LDSAN_EMU_LAUNCH_COOPERATIVE) != 0;
  d->kernel = kernel;
  d->args = args;
  memcpy(d->grid, grid, sizeof d->grid);
  memcpy(d->block, block, sizeof d->block);
  d->groups = (uint64_t)grid[0] * grid[1] * grid[2];
  d->items = (uint32_t)items;
  d->lds_size = (kernel->static_lds_size + dynamic_lds_size + 15u) & ~15u;
  /* Where the program launched it from, for its reports (a few us per launch). */
  d->launch_depth = ldsan_host_launch_stack(d->launch_pcs, LDSAN_EMU_LAUNCH_FRAMES);
  int image = kernel_image_index(kernel);
  /* The lanes of a wave: the target the image was compiled for (RDNA: 32). */
  d->wave_shift = image >= 0 && images[image]->wave_size == 32 ? 5 : 6;
  d->host = image >= 0 ? image_hosts[image] : NULL;
  emu_fill_blocks(d, dynamic_lds_size);
  int trapped = ldsan_emu_run(d);
  int reports = image >= 0 ? ldsan_emu_finish_dispatch(image_hosts[image], d) : 0;
  int rc = 0;
  if (trapped && __atomic_load_n(&d->refused, __ATOMIC_RELAXED)) {
    if (err) snprintf(err, err_len, "ldsan-emu: kernel %s stopped: the emulator cannot run it as launched (see above)",
                      kernel->name);
    rc = 1; /* an invalid launch: no device trap of the program's */
  } else if (trapped) {
    if (err)
      snprintf(err, err_len, "ldsan-emu: %s in kernel %s at workgroup (%u,%u,%u) work-item (%u,%u,%u)%s",
               d->trap_assert ? "device assertion failed" : "device trap", kernel->name, d->trap_group[0], d->trap_group[1], d->trap_group[2], d->trap_item[0],
               d->trap_item[1], d->trap_item[2], reports ? " after an ldsan report" : "");
    rc = LDSAN_EMU_TRAPPED;
  }
  pthread_cond_destroy(&d->gws_cond);
  pthread_mutex_destroy(&d->lock);
  free(d);
  return rc;
}
