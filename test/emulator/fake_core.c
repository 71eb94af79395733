/* Test double for the emulator core (emu.h), used by hip_layer.sh to test the
 * HIP layer alone: a hand-written "device image" whose kernels are C functions
 * run one work-item at a time (no barriers), and a launch that records what it
 * was asked to do. Matches the kernels declared in hip_layer.hip. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ldsan/emu/emu.h"

static const ldsan_emu_image *fake_images[8];
static unsigned fake_image_count;

/* What the last launch looked like, for hip_layer.hip to check. */
uint32_t fake_last_grid[3], fake_last_block[3], fake_last_dynamic_lds, fake_last_flags;
unsigned fake_launch_count, fake_after_trap_count;
static uint32_t fake_tid[3], fake_bid[3], fake_bdim[3];

void __ldsan_emu_register_image(const ldsan_emu_image *image) {
  if (fake_image_count < 8) fake_images[fake_image_count++] = image;
}

const ldsan_emu_kernel *ldsan_emu_find_kernel(const char *name) {
  for (unsigned i = 0; i < fake_image_count; i++)
    for (uint32_t k = 0; k < fake_images[i]->kernel_count; k++)
      if (strcmp(fake_images[i]->kernels[k].name, name) == 0) return &fake_images[i]->kernels[k];
  return NULL;
}

const ldsan_emu_global *ldsan_emu_find_global(const char *name) {
  for (unsigned i = 0; i < fake_image_count; i++)
    for (uint32_t g = 0; g < fake_images[i]->global_count; g++)
      if (strcmp(fake_images[i]->globals[g].name, name) == 0) return &fake_images[i]->globals[g];
  return NULL;
}

int ldsan_emu_launch_flags(const ldsan_emu_kernel *kernel, const uint32_t grid[3], const uint32_t block[3],
                           void **args, uint32_t dynamic_lds_size, uint32_t flags, char *err, size_t err_len) {
  fake_last_flags = flags;
  memcpy(fake_last_grid, grid, sizeof fake_last_grid);
  memcpy(fake_last_block, block, sizeof fake_last_block);
  fake_last_dynamic_lds = dynamic_lds_size;
  fake_launch_count++;
  if (strcmp(kernel->name, "trap_kernel") == 0) {
    snprintf(err, err_len, "s_trap 2 in workgroup (0,0,0) work-item (0,0,0)");
    return LDSAN_EMU_TRAPPED;
  }
  memcpy(fake_bdim, block, sizeof fake_bdim);
  for (fake_bid[2] = 0; fake_bid[2] < grid[2]; fake_bid[2]++)
    for (fake_bid[1] = 0; fake_bid[1] < grid[1]; fake_bid[1]++)
      for (fake_bid[0] = 0; fake_bid[0] < grid[0]; fake_bid[0]++)
        for (fake_tid[2] = 0; fake_tid[2] < block[2]; fake_tid[2]++)
          for (fake_tid[1] = 0; fake_tid[1] < block[1]; fake_tid[1]++)
            for (fake_tid[0] = 0; fake_tid[0] < block[0]; fake_tid[0]++) kernel->entry(args);
  return 0;
}

/* The HIP layer's tables (the real ones: emulator/core/core_alloc.c). */
void *ldsan_emu_xalloc(size_t n, size_t align, const char *what) {
  void *p = NULL;
  if (posix_memalign(&p, align > sizeof(void *) ? align : sizeof(void *), n ? n : 1) != 0) {
    fprintf(stderr, "fake_core: cannot allocate %zu bytes for %s\n", n, what);
    exit(1);
  }
  return memset(p, 0, n);
}

void *ldsan_emu_xrealloc(void *p, size_t n, const char *what) {
  void *q = realloc(p, n ? n : 1);
  if (!q) {
    fprintf(stderr, "fake_core: cannot allocate %zu bytes for %s\n", n, what);
    exit(1);
  }
  return q;
}

/* As the core does under abort_on_trap=0: the launch fails, the program goes on. */
void ldsan_emu_after_trap(void) { fake_after_trap_count++; }

uint32_t ldsan_emu_wave_size(void) { return 64; }
const char *ldsan_emu_target(void) { return "gfx90a:xnack+"; }

int ldsan_emu_launch(const ldsan_emu_kernel *kernel, const uint32_t grid[3], const uint32_t block[3],
                     void **args, uint32_t dynamic_lds_size, char *err, size_t err_len) {
  return ldsan_emu_launch_flags(kernel, grid, block, args, dynamic_lds_size, 0, err, err_len);
}

/* extern "C" __global__ void scale(float *p, int n, float f) */
static void fake_scale(void **args) {
  float *p = *(float **)args[0];
  int n = *(int *)args[1];
  float f = *(float *)args[2];
  uint32_t i = fake_bid[0] * fake_bdim[0] + fake_tid[0];
  if (i < (uint32_t)n) p[i] *= f;
}

static int fake_table[4];

/* extern "C" __global__ void add_table(int *p): p[i] += table[i % 4] */
static void fake_add_table(void **args) {
  int *p = *(int **)args[0];
  uint32_t i = fake_bid[0] * fake_bdim[0] + fake_tid[0];
  p[i] += fake_table[i % 4];
}

static void fake_trap(void **args) { (void)args; }

static const ldsan_emu_kernel fake_kernels[] = {
    {.name = "scale", .entry = fake_scale, .arg_count = 3, .static_lds_size = 8},
    {.name = "add_table", .entry = fake_add_table, .arg_count = 1, .static_lds_size = 8},
    {.name = "trap_kernel", .entry = fake_trap, .arg_count = 0, .static_lds_size = 0},
};
static const ldsan_emu_global fake_globals[] = {{"table", fake_table, sizeof fake_table}};
static const ldsan_emu_image fake_image = {.version = LDSAN_EMU_IMAGE_VERSION, .kernel_count = 3,
                                           .kernels = fake_kernels, .global_count = 1,
                                           .globals = fake_globals, .source = "fake_core.c"};

__attribute__((constructor)) static void fake_register(void) { __ldsan_emu_register_image(&fake_image); }
