/* One workgroup's trip through ldsan's block fast path, run on the host build
 * of the device runtime compiled with clang's source coverage: the line counts
 * test/bench/traced_cost.sh weights the device's instructions with.
 *
 * The block cache is warmed first (the steady state of a kernel whose
 * workgroups come and go: the workgroup's chunk comes from the ring, recycled
 * from a block of the same size), the counters are reset, and one workgroup
 * goes through what the lowered kernel does (instrument/WaveShadow.h):
 * __ldsan_kernel_enter on work-item 0, __ldsan_kernel_enter_wave on the 64
 * lanes of its wave, the kernel, __ldsan_kernel_exit_wave on that wave. The
 * wave's lanes run in lockstep, so the wave executes what its busiest lane
 * does: lane 0 (rank 0 of 64), which writes its share of the shadow and both
 * ends of every range, and gives the block back.
 *
 * Between the two, where the descriptor has no shadow image, the wave poisons
 * each variable's redzone as the LDS pass's calls do (__asan_poison_region).
 *
 * Usage: trace_block_path <profile.profraw> <descriptors.bin> <kernel>
 * descriptors.bin: the code object's LDSAN_DESC_SECTION (llvm-objcopy
 * --dump-section); the kernel's descriptor is the one the device would use,
 * its static size the block. Prints "block <bytes>". */
#include <errno.h>

#include "unit.h"

/* The profile runtime's interface (compiler-rt, InstrProfiling.h); the
 * runtime writes the profile at exit, adding to what the file holds. */
void __llvm_profile_reset_counters(void);
void __llvm_profile_set_filename(const char *name);

/* The descriptor named kernel in the section's blobs, copied to 8-aligned
 * memory (the caller frees it), or NULL. */
static ldsan_kernel_desc *find_desc(const char *path, const char *kernel) {
  FILE *f = fopen(path, "rb");
  if (!f) return NULL;
  static uint8_t section[1 << 22];
  size_t n = fread(section, 1, sizeof section, f);
  fclose(f);
  for (size_t at = 0; at + sizeof(ldsan_kernel_desc) <= n;) {
    ldsan_kernel_desc h;
    memcpy(&h, section + at, sizeof h);
    if (h.magic != LDSAN_DESC_MAGIC || h.total_size < sizeof h || h.total_size > n - at) return NULL;
    if (h.name && h.name < h.total_size && strncmp((const char *)section + at + h.name, kernel, h.total_size - h.name) == 0) {
      ldsan_kernel_desc *d = aligned_alloc(8, h.total_size);
      if (d) memcpy(d, section + at, h.total_size);
      return d;
    }
    at += h.total_size;
  }
  return NULL;
}

int main(int argc, char **argv) {
  if (argc != 4) {
    fprintf(stderr, "usage: %s <profile.profraw> <descriptors.bin> <kernel>\n", argv[0]);
    return 2;
  }
  ldsan_kernel_desc *desc = find_desc(argv[2], argv[3]);
  if (!desc || (desc->flags & LDSAN_KERNEL_HAS_DYNAMIC) || desc->static_size > LDSAN_POOL_REGION_SIZE / 2) {
    fprintf(stderr, "trace_block_path: no descriptor of %s without dynamic LDS and at most 512 KiB in %s\n", argv[3],
            argv[2]);
    return 2;
  }
  const ldsan_var_desc *vars = (const ldsan_var_desc *)(desc + 1);
  uint64_t block_size = desc->static_size, kernel_desc = (uint64_t)(uintptr_t)desc;
  if (remove(argv[1]) != 0 && errno != ENOENT) {
    fprintf(stderr, "trace_block_path: cannot replace the profile %s: %s\n", argv[1], strerror(errno));
    return 2;
  }
  __llvm_profile_set_filename(argv[1]);

  unit_device dev;
  unit_device_init(&dev, UNIT_POOL_BYTES(4));
  for (uint32_t i = 0; i <= LDSAN_POOL_QUARANTINE + 1; ++i) unit_kernel_exit(unit_kernel_enter(block_size, kernel_desc), kernel_desc);

  __llvm_profile_reset_counters();
  uint64_t block = __ldsan_kernel_enter(block_size, kernel_desc);
  __ldsan_host_lane_count = 64; /* the wave of work-item 0, as its lane 0 runs it */
  __ldsan_kernel_enter_wave(block, kernel_desc);
  for (uint32_t i = 0; !desc->shadow && i < desc->var_count; ++i)
    if (vars[i].redzone) LDSAN_ENTRY(__asan_poison_region)(block + vars[i].offset + vars[i].size, vars[i].redzone);
  __ldsan_kernel_exit_wave(block, kernel_desc);
  __ldsan_host_lane_count = 1;

  /* Nothing of the runtime runs after this: the profile written at exit is
   * this one workgroup's. */
  int ok = block != 0 && dev.channel->next == 0 && __ldsan_host_trap_count == 0;
  unit_device_fini(&dev);
  free(desc);
  printf("block %llu\n", (unsigned long long)block_size);
  if (!ok) {
    fprintf(stderr, "trace_block_path: the workgroup did not get its block without a report\n");
    return 1;
  }
  return 0;
}
