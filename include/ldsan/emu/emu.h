/* ldsan CPU emulator: the interface between a retargeted device object, the
 * emulator core (scheduling, LDS, intrinsics) and the emulated HIP layer.
 * Host C only. Owned jointly: change only by agreement of core and HIP layer. */
#ifndef LDSAN_EMU_H
#define LDSAN_EMU_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define LDSAN_EMU_IMAGE_VERSION 10u /* 10: LDSAN_EMU_GROUP_CHAIN; 9: regions past LDSAN_EMU_GROUP_LOW_REGIONS */

#define LDSAN_EMU_GROUP_DONE (1ull << 63)
/* A group function's region sets (its result, group_exit_regions,
 * group_wave_regions) are 64-bit masks: region j < LDSAN_EMU_GROUP_LOW_REGIONS
 * is bit j; every later region is LDSAN_EMU_GROUP_HIGH, and which ones the
 * work-items' states say. Regions after a kernel-exit barrier or a cross-lane
 * stop are always below LDSAN_EMU_GROUP_LOW_REGIONS. */
#define LDSAN_EMU_GROUP_LOW_REGIONS 62u
#define LDSAN_EMU_GROUP_HIGH (1ull << 62)
/* Region r's bit in those masks. */
static inline uint64_t ldsan_emu_region_bit(uint32_t r) {
  return r < LDSAN_EMU_GROUP_LOW_REGIONS ? 1ull << r : LDSAN_EMU_GROUP_HIGH;
}
#define LDSAN_EMU_GROUP_ALL_WAITING 2u
#define LDSAN_EMU_GROUP_ONE_D 4u        /* parity flag: the workgroup is one-dimensional */
/* parity flag: with LDSAN_EMU_GROUP_ALL_WAITING, when every work-item
 * stops at one barrier j of a later region (not a kernel-exit or cross-lane
 * region, j < LDSAN_EMU_GROUP_LOW_REGIONS), the group function runs region j
 * next itself, all waiting, with the other parity, and so on, adding 1 to
 * the TLS field `chained` (emu_tls.h) each time (a group function of the LDS
 * checks' copy calls __ldsan_emu_lds_chained instead, which also does the
 * core's part at a barrier); it returns where the last region's work-items
 * stopped. */
#define LDSAN_EMU_GROUP_CHAIN 8u
#define LDSAN_EMU_GROUP_STATE_DONE 0xffffffffu /* a work-item's state once it reached the end */
/* The parked record of a lockstep work-item (group_park_offset below; the
 * core's emu_parked asserts the same layout): byte offsets of its fields. */
#define LDSAN_EMU_PARK_OP 0      /* u32: the operation (wave_ops.h) */
#define LDSAN_EMU_PARK_ARG 4     /* u32 */
#define LDSAN_EMU_PARK_VAL 8     /* u64 */
#define LDSAN_EMU_PARK_RES 16    /* u64: the result, written by the core */
#define LDSAN_EMU_PARK_RANK 24   /* u64 */
#define LDSAN_EMU_PARK_SITE 32   /* u64: the region the work-item stopped before */
#define LDSAN_EMU_PARK_DEPTH 40  /* u64: 0 in loops */
#define LDSAN_EMU_PARK_SIZE 48

/* One kernel of a retargeted device image. */
typedef struct ldsan_emu_kernel {
  const char *name;              /* device symbol name, as __hipRegisterFunction names it */
  void (*entry)(void **args);    /* runs the kernel body for the calling work-item;
                                    args[i] points at the i-th kernel argument, as
                                    hipLaunchKernel's void **args does */
  uint32_t arg_count;
  uint32_t static_lds_size;      /* bytes of real LDS the lowered kernel uses (amdgpu-lds-size) */
  /* Work-item loops (NULL: the kernel runs as fibers). Runs region `region`
   * (0: kernel start, j: after barrier j) for each work-item i < n whose
   * states[i] == region * 2 + parity, with the TLS work-item pointing at
   * ids[i] (ldsan_emu_item_ids) and its per-work-item state at
   * frames + i * group_frame_size. Each such work-item's state becomes
   * where it stopped: j * 2 + (parity ^ 1) at barrier j, j * 2 at a
   * kernel-exit barrier (group_exit_regions bit j), LDSAN_EMU_GROUP_STATE_DONE at the end.
   * Returns the set of regions work-items stopped at (bit j, or
   * LDSAN_EMU_GROUP_HIGH for j >= LDSAN_EMU_GROUP_LOW_REGIONS), plus
   * LDSAN_EMU_GROUP_DONE if some work-item reached the end. parity may carry
   * LDSAN_EMU_GROUP_ALL_WAITING: all n work-items wait at this region with
   * this parity, so their states need not be read; and LDSAN_EMU_GROUP_ONE_D:
   * the workgroup's y and z sizes are 1, so ids[i] is {i, 0, 0} (the loops
   * then take work-item ids from their index, and may run only over the
   * indices a condition on threadIdx.x admits). */
  uint64_t (*group)(void **args, const void *ids, uint32_t n, void *frames, uint32_t *states, uint32_t region,
                    uint32_t parity);
  uint32_t group_frame_size;     /* bytes, a multiple of 16, alignment up to 64 */
  uint64_t group_exit_regions;
  /* Lockstep kernels' loops: bit j, region j follows a cross-lane stop (an
   * operation or a lockstep point). A work-item stops there as at a barrier,
   * after writing the operation, its operands, rank and site j into the record
   * at group_park_offset in its frame (laid out as the core's emu_parked);
   * once the lanes of its wave that stopped at the first such site executed
   * it together, region j runs for them and reads each one's result there. */
  uint64_t group_wave_regions;
  uint32_t group_park_offset;
  /* 1: the lanes of each wave run in lockstep, as on the hardware: a lane
   * stops at every cross-lane operation and every shared memory access of the
   * kernel's own code until the wave's lanes execute it together, in work-item
   * loops (group_wave_regions) or as fibers (emulator/core/README.md). */
  uint32_t lockstep;
  /* The kernel with a call before each shared-memory access for the LDS
   * checks (options detect_races, detect_uninit, report_wave_sync), run when
   * one is on; NULL: none. Its work-item loops as group's are the kernel's
   * (NULL: it runs as fibers). */
  void (*entry_checked)(void **args);
  uint64_t (*group_checked)(void **args, const void *ids, uint32_t n, void *frames, uint32_t *states,
                            uint32_t region, uint32_t parity);
  uint32_t group_checked_frame_size;
  uint64_t group_checked_exit_regions;
  uint64_t group_checked_wave_regions;
  uint32_t group_checked_park_offset;
  /* Per region of group_checked: where the pc of the barrier it follows is
   * noted (by its first work-item to pass it), NULL for region 0; the array
   * NULL if no barrier has one. */
  const uint64_t *const *group_checked_barrier_pcs;
} ldsan_emu_kernel;

/* One device global variable (for hipMemcpyToSymbol / __hipRegisterVar). */
typedef struct ldsan_emu_global {
  const char *name;              /* device symbol name */
  void *address;                 /* its storage in this process */
  uint64_t size;
} ldsan_emu_global;

/* Everything one retargeted device object provides; registered from a
 * constructor the retarget tool adds to the object. */
typedef struct ldsan_emu_image {
  uint32_t version;              /* LDSAN_EMU_IMAGE_VERSION */
  uint32_t kernel_count;
  const ldsan_emu_kernel *kernels;
  uint32_t global_count;
  const ldsan_emu_global *globals;
  const char *source;            /* for messages: the source file it came from, or what the driver named it */
  /* Added by the core (additive): the image's ldsan device state and built-in
   * report channel (the retargeted __ldsan_device_state / __ldsan_builtin_channel),
   * NULL when the device code has no ldsan runtime linked. */
  void *device_state;            /* ldsan_device_state * */
  void *builtin_channel;         /* ldsan_report_channel * */
  uint32_t wave_size;            /* lanes per wave of the target it was compiled for: 64, or 32 (RDNA) */
  const char *target;            /* that target as HIP names it ("gfx90a:xnack+", "gfx1100"), or "" */
} ldsan_emu_image;

/* Called by each retargeted object's constructor (core). */
void __ldsan_emu_register_image(const ldsan_emu_image *image);

/* Looks a kernel up by device name (core). NULL if no image has it. */
const ldsan_emu_kernel *ldsan_emu_find_kernel(const char *name);

/* Looks a device global up by name (core). NULL if none. */
const ldsan_emu_global *ldsan_emu_find_global(const char *name);

/* Runs one dispatch to completion (core). Returns 0 on success; on a device
 * trap or error, fills err (one line: what happened, where) and returns nonzero:
 * LDSAN_EMU_TRAPPED for a trap (then the HIP layer, having said so, calls
 * ldsan_emu_after_trap), 1 for an invalid launch.
 * Reports found in the device channel are printed (through the host library)
 * before it returns; if one of them was aborting and halt_on_error is set, it
 * exits the process with the configured exit code after flushing. */
int ldsan_emu_launch(const ldsan_emu_kernel *kernel, const uint32_t grid[3], const uint32_t block[3],
                     void **args, uint32_t dynamic_lds_size, char *err, size_t err_len);
/* Added by the core (additive): ldsan_emu_launch with flags. Cooperative
 * (hipLaunchCooperativeKernel): every workgroup runs at once, each on a
 * thread of its own, so grid-wide barriers (cooperative groups'
 * this_grid().sync(), ds_gws_barrier) work; the HIP layer checks the grid
 * fits (LDSAN_EMU_COOPERATIVE_MAX_GROUPS). */
#define LDSAN_EMU_LAUNCH_COOPERATIVE 1u
#define LDSAN_EMU_COOPERATIVE_MAX_GROUPS 256u
int ldsan_emu_launch_flags(const ldsan_emu_kernel *kernel, const uint32_t grid[3], const uint32_t block[3],
                           void **args, uint32_t dynamic_lds_size, uint32_t flags, char *err, size_t err_len);

/* Added by the core (additive): ldsan_emu_launch's result for a device trap. */
#define LDSAN_EMU_TRAPPED 2

/* Added by the core (additive): what follows a device trap once the HIP layer
 * printed it. As the HIP runtime ends the process on a GPU after a trap, this
 * prints every LDS report still recorded and ends the process the way a fatal
 * ldsan report does (exit status exitcode, abort() under abort_on_error),
 * unless option abort_on_trap=0: then it returns, and the launch fails. */
void ldsan_emu_after_trap(void);

/* Added by the core (additive): the image that holds a kernel, NULL if none. */
const ldsan_emu_image *ldsan_emu_kernel_image(const ldsan_emu_kernel *kernel);

/* Added by the core (additive): lanes per wave of the program's device code
 * (the first registered image with kernels: 32 for RDNA targets), else 64;
 * and its target (gcnArchName), else "gfx90a:xnack+". */
uint32_t ldsan_emu_wave_size(void);
const char *ldsan_emu_target(void);

/* Added by the core (additive): memory for the emulator's own state (the HIP
 * layer's tables; not the program's hipMalloc): n zeroed bytes aligned to
 * align (0: malloc's), or p grown to n bytes. On failure they print one line
 * (how many bytes, for `what`, what to do) and exit the process with status
 * 1: they never return NULL. */
void *ldsan_emu_xalloc(size_t n, size_t align, const char *what);
void *ldsan_emu_xrealloc(void *p, size_t n, const char *what);

/* Added by the core (additive), for tests and tools: called for every READY
 * record of the channel after a dispatch, before the host library prints and
 * resets it. NULL removes the hook. Not thread-safe against launches. */
struct ldsan_report_record;
typedef void (*ldsan_emu_report_hook)(const struct ldsan_report_record *record, void *ctx);
void ldsan_emu_set_report_hook(ldsan_emu_report_hook hook, void *ctx);

#ifdef __cplusplus
}
#endif
#endif /* LDSAN_EMU_H */
