/* ldsan CPU emulator, HIP layer: kernel launch. `k<<<g, b, lds, s>>>(args)`
 * compiles to __hipPushCallConfiguration at the call site and, in the kernel's
 * host stub, __hipPopCallConfiguration + hipLaunchKernel(handle, ...);
 * hipLaunchKernelGGL is a macro over the same. Launches are synchronous: a
 * kernel has finished (and its reports are printed) when the call returns.
 * A device trap ends the process after its message, as CLR does on a GPU
 * (ldsan_emu_after_trap; option abort_on_trap=0: the launch fails, sticky).
 * Threading: the call-configuration stack is per thread, as in HIP. */
#include <stdio.h>
#include <stdlib.h>

#include "hip_internal.h"

/* The C++ runtime's demangler; the --emulate link always has it. */
char *__cxa_demangle(const char *mangled, char *buf, size_t *len, int *status) __attribute__((weak));

/* "saxpy(float, float const*, float*, int)" for "_Z5saxpyfPKfPfi", else the name itself. */
static const char *ldsan_emu_pretty(const char *name, char *buf, size_t len) {
  int status = -1;
  char *d = __cxa_demangle && name ? __cxa_demangle(name, NULL, NULL, &status) : NULL;
  snprintf(buf, len, "%s", status == 0 && d ? d : name);
  free(d);
  return buf;
}

typedef struct ldsan_emu_call_config {
  dim3 grid, block;
  size_t shared_mem;
  hipStream_t stream;
} ldsan_emu_call_config;

/* <<<>>> may nest (a launch inside a kernel argument expression); 16 is plenty. */
#define LDSAN_EMU_CONFIG_DEPTH 16
static _Thread_local ldsan_emu_call_config ldsan_emu_configs[LDSAN_EMU_CONFIG_DEPTH];
static _Thread_local int ldsan_emu_config_depth;

hipError_t __hipPushCallConfiguration(dim3 grid, dim3 block, size_t shared_mem, hipStream_t stream) {
  if (ldsan_emu_config_depth == LDSAN_EMU_CONFIG_DEPTH)
    return ldsan_emu_hip_fail(hipErrorInvalidConfiguration, "<<<>>>",
                              "more than %d nested kernel launch configurations", LDSAN_EMU_CONFIG_DEPTH);
  ldsan_emu_configs[ldsan_emu_config_depth++] = (ldsan_emu_call_config){grid, block, shared_mem, stream};
  return hipSuccess;
}

hipError_t __hipPopCallConfiguration(dim3 *grid, dim3 *block, size_t *shared_mem, hipStream_t *stream) {
  if (ldsan_emu_config_depth == 0)
    return ldsan_emu_hip_fail(hipErrorMissingConfiguration, "<<<>>>",
                              "kernel stub called without a launch configuration");
  ldsan_emu_call_config *c = &ldsan_emu_configs[--ldsan_emu_config_depth];
  *grid = c->grid;
  *block = c->block;
  *shared_mem = c->shared_mem;
  *stream = c->stream;
  return hipSuccess;
}

/* Checks a launch configuration against the emulated gfx90a's limits; returns
 * hipSuccess or prints why not (naming the kernel) and returns the error. */
static hipError_t ldsan_emu_check_config(const char *api, const char *name, const ldsan_emu_kernel *k,
                                         dim3 grid, dim3 block, size_t shared_mem) {
  uint64_t threads = (uint64_t)block.x * block.y * block.z;
  if (grid.x == 0 || grid.y == 0 || grid.z == 0 || threads == 0)
    return ldsan_emu_hip_fail(hipErrorInvalidConfiguration, api,
                              "kernel '%s' launched with an empty grid (%u,%u,%u) or block (%u,%u,%u); "
                              "every dimension must be at least 1",
                              name, grid.x, grid.y, grid.z, block.x, block.y, block.z);
  if (threads > LDSAN_EMU_MAX_THREADS_PER_BLOCK)
    return ldsan_emu_hip_fail(hipErrorInvalidConfiguration, api,
                              "kernel '%s' launched with %llu work-items per block (%u,%u,%u); "
                              "the device allows at most %u",
                              name, (unsigned long long)threads, block.x, block.y, block.z,
                              LDSAN_EMU_MAX_THREADS_PER_BLOCK);
  /* The dispatch packet holds the grid size in work-items as 32-bit values. */
  if ((uint64_t)grid.x * block.x > UINT32_MAX || (uint64_t)grid.y * block.y > UINT32_MAX ||
      (uint64_t)grid.z * block.z > UINT32_MAX)
    return ldsan_emu_hip_fail(hipErrorInvalidConfiguration, api,
                              "kernel '%s': grid (%u,%u,%u) x block (%u,%u,%u) exceeds 2^32 work-items "
                              "in one dimension", name, grid.x, grid.y, grid.z, block.x, block.y, block.z);
  /* Compared without a sum: a size near SIZE_MAX would wrap it. */
  if (shared_mem > LDSAN_EMU_LDS_PER_BLOCK)
    return ldsan_emu_hip_fail(hipErrorInvalidValue, api,
                              "kernel '%s' asks for %zu bytes of dynamic LDS; the device has %u bytes of LDS "
                              "per workgroup", name, shared_mem, LDSAN_EMU_LDS_PER_BLOCK);
  /* The kernel's real LDS is ldsan's alone: the pointer to the workgroup's
   * block (8 bytes, padded to the kernel's LDS alignment, 16 or more here;
   * upstream's amdgpu-sw-lower-lds lays it out); the kernel's own __shared__
   * variables live in the block. A GPU counts it against the same 64 KiB. */
  if (k->static_lds_size > LDSAN_EMU_LDS_PER_BLOCK - shared_mem)
    return ldsan_emu_hip_fail(hipErrorInvalidValue, api,
                              "kernel '%s' asks for %zu bytes of dynamic LDS; under ldsan a kernel gets at most "
                              "%u - %u = %u: a workgroup has %u bytes of LDS, on a GPU too, and ldsan keeps %u of "
                              "them (the pointer to the workgroup's block in ldsan's LDS backing store, which holds "
                              "the kernel's own __shared__ variables); ask for at most %u bytes "
                              "(hipFuncGetAttributes' maxDynamicSharedSizeBytes), not the device's sharedMemPerBlock",
                              name, shared_mem, LDSAN_EMU_LDS_PER_BLOCK, k->static_lds_size,
                              LDSAN_EMU_LDS_PER_BLOCK - k->static_lds_size, LDSAN_EMU_LDS_PER_BLOCK,
                              k->static_lds_size, LDSAN_EMU_LDS_PER_BLOCK - k->static_lds_size);
  return hipSuccess;
}

/* Workgroups of `block` that run at once on the emulated device: 2 CUs of
 * 2048 work-items (what the occupancy API answers), at most
 * LDSAN_EMU_COOPERATIVE_MAX_GROUPS (a cooperative launch gives each its own thread). */
static uint64_t ldsan_emu_cooperative_groups(dim3 block) {
  uint64_t threads = (uint64_t)block.x * block.y * block.z, per_cu = threads && threads <= 2048 ? 2048 / threads : 1;
  uint64_t n = 2 * per_cu;
  return n < LDSAN_EMU_COOPERATIVE_MAX_GROUPS ? n : LDSAN_EMU_COOPERATIVE_MAX_GROUPS;
}

/* Runs one kernel; the common path of every launch API. */
static hipError_t ldsan_emu_launch_kernel(const char *api, const void *function_address, dim3 grid,
                                          dim3 block, void **args, size_t shared_mem, uint32_t flags) {
  hipError_t sticky = ldsan_emu_hip_sticky();
  if (sticky != hipSuccess) return ldsan_emu_hip_set_error(sticky);
  const char *mangled;
  char name[512];
  const ldsan_emu_kernel *k = ldsan_emu_hip_find_kernel(function_address, &mangled);
  if (!mangled)
    return ldsan_emu_hip_fail(hipErrorInvalidDeviceFunction, api,
                              "%p is not a registered kernel; pass a __global__ function "
                              "(compiled with ldsan-cc --emulate)", function_address);
  ldsan_emu_pretty(mangled, name, sizeof name);
  if (!k)
    return ldsan_emu_hip_fail(hipErrorInvalidDeviceFunction, api,
                              "no emulated device code for kernel '%s'; compile its .hip file with "
                              "ldsan-cc --emulate so its retargeted device object is linked", name);
  hipError_t err = ldsan_emu_check_config(api, name, k, grid, block, shared_mem);
  if (err != hipSuccess) return err;
  if (flags & LDSAN_EMU_LAUNCH_COOPERATIVE) {
    uint64_t groups = (uint64_t)grid.x * grid.y * grid.z, fit = ldsan_emu_cooperative_groups(block);
    if (groups > fit)
      return ldsan_emu_hip_fail(hipErrorCooperativeLaunchTooLarge, api,
                                "kernel '%s': a cooperative grid of %llu workgroups of %u work-items does not fit "
                                "the emulated device (at most %llu can run at once: 2 CUs x 2048 work-items, and "
                                "at most %u workgroups); size the grid with hipOccupancyMaxActiveBlocksPerMultiprocessor "
                                "x multiProcessorCount", name, (unsigned long long)groups, block.x * block.y * block.z,
                                (unsigned long long)fit, LDSAN_EMU_COOPERATIVE_MAX_GROUPS);
  }
  uint32_t g[3] = {grid.x, grid.y, grid.z}, b[3] = {block.x, block.y, block.z};
  char msg[512] = "";
  int rc = ldsan_emu_launch_flags(k, g, b, args, (uint32_t)shared_mem, flags, msg, sizeof msg);
  if (rc != 0) {
    fprintf(stderr, LDSAN_EMU_PREFIX ": error: kernel '%s' <<<(%u,%u,%u), (%u,%u,%u), %zu>>> failed: %s\n",
            name, grid.x, grid.y, grid.z, block.x, block.y, block.z, shared_mem,
            msg[0] ? msg : "unknown device error");
    fflush(stderr);
    /* As CLR after a trap: the process ends here (abort_on_trap=0: it goes on). */
    if (rc == LDSAN_EMU_TRAPPED) ldsan_emu_after_trap();
    ldsan_emu_hip_set_sticky(hipErrorLaunchFailure);
    return hipErrorLaunchFailure;
  }
  return hipSuccess;
}

hipError_t hipLaunchKernel(const void *function_address, dim3 grid, dim3 block, void **args,
                           size_t shared_mem, hipStream_t stream) {
  (void)stream;  /* streams are in order and synchronous */
  return ldsan_emu_launch_kernel("hipLaunchKernel", function_address, grid, block, args, shared_mem, 0);
}

/* All workgroups at once, each on a thread of its own, so grid.sync() works
 * (emu.h, LDSAN_EMU_LAUNCH_COOPERATIVE). */
hipError_t hipLaunchCooperativeKernel(const void *function_address, dim3 grid, dim3 block, void **args,
                                      unsigned int shared_mem, hipStream_t stream) {
  (void)stream;
  return ldsan_emu_launch_kernel("hipLaunchCooperativeKernel", function_address, grid, block, args, shared_mem,
                                 LDSAN_EMU_LAUNCH_COOPERATIVE);
}

hipError_t hipExtLaunchKernel(const void *function_address, dim3 grid, dim3 block, void **args,
                              size_t shared_mem, hipStream_t stream, hipEvent_t start, hipEvent_t stop,
                              int flags) {
  (void)flags;
  if (start) hipEventRecord(start, stream);
  hipError_t err = ldsan_emu_launch_kernel("hipExtLaunchKernel", function_address, grid, block, args,
                                           shared_mem, 0);
  if (stop) hipEventRecord(stop, stream);
  return err;
}

/* Kernel attributes the emulator can state; hipFuncSetAttribute/-CacheConfig
 * tune hardware that does not exist here, so they succeed without effect. */
hipError_t hipFuncGetAttributes(struct hipFuncAttributes *attr, const void *func) {
  const char *name;
  const ldsan_emu_kernel *k = ldsan_emu_hip_find_kernel(func, &name);
  if (!attr || !k)
    return ldsan_emu_hip_fail(hipErrorInvalidDeviceFunction, "hipFuncGetAttributes",
                              "%p is not a kernel with emulated device code", func);
  *attr = (struct hipFuncAttributes){0};
  attr->maxThreadsPerBlock = (int)LDSAN_EMU_MAX_THREADS_PER_BLOCK;
  attr->maxDynamicSharedSizeBytes = (int)(LDSAN_EMU_LDS_PER_BLOCK - k->static_lds_size);
  attr->sharedSizeBytes = k->static_lds_size;
  attr->numRegs = 32;
  attr->binaryVersion = 90;
  attr->ptxVersion = 90;
  return hipSuccess;
}

hipError_t hipFuncSetAttribute(const void *func, hipFuncAttribute attr, int value) {
  (void)func; (void)attr; (void)value;
  return hipSuccess;
}

hipError_t hipFuncSetCacheConfig(const void *func, hipFuncCache_t config) {
  (void)func; (void)config;
  return hipSuccess;
}

hipError_t hipFuncSetSharedMemConfig(const void *func, hipSharedMemConfig config) {
  (void)func; (void)config;
  return hipSuccess;
}

/* Occupancy: the emulator has no occupancy; answer what a gfx90a would for a
 * small kernel, so programs that size grids with it run. */
hipError_t hipOccupancyMaxPotentialBlockSize(int *grid_size, int *block_size, const void *f,
                                             size_t dyn_shared_mem, int block_size_limit) {
  (void)f; (void)dyn_shared_mem;
  if (!grid_size || !block_size) return ldsan_emu_hip_set_error(hipErrorInvalidValue);
  int b = (int)LDSAN_EMU_MAX_THREADS_PER_BLOCK;
  if (block_size_limit > 0 && block_size_limit < b) b = block_size_limit;
  *block_size = b;
  *grid_size = 2 * 2048 / b > 0 ? 2 * 2048 / b : 1;  /* 2 CUs x 2048 resident work-items */
  return hipSuccess;
}

hipError_t hipOccupancyMaxActiveBlocksPerMultiprocessor(int *num_blocks, const void *f, int block_size,
                                                        size_t dyn_shared_mem) {
  (void)f; (void)dyn_shared_mem;
  if (!num_blocks || block_size <= 0) return ldsan_emu_hip_set_error(hipErrorInvalidValue);
  dim3 b = {(unsigned)block_size, 1, 1};
  *num_blocks = (int)(ldsan_emu_cooperative_groups(b) / 2);  /* per CU, 2 CUs */
  return hipSuccess;
}
