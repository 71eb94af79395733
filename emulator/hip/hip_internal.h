/* ldsan CPU emulator, HIP layer: internal prototypes shared by the files of emulator/hip/.
 * The HIP layer implements the subset of the HIP runtime API that programs
 * compiled with `clang -x hip --offload-host-only` call, on top of emu.h.
 * Threading: every entry point may be called from any host thread; shared
 * tables are guarded by mutexes, the last error is per thread (as in HIP). */
#ifndef LDSAN_EMU_HIP_INTERNAL_H
#define LDSAN_EMU_HIP_INTERNAL_H

#ifndef __HIP_PLATFORM_AMD__
#define __HIP_PLATFORM_AMD__ 1
#endif
#include <hip/hip_runtime_api.h>

#include <stddef.h>
#include <stdint.h>

#include "ldsan/emu/emu.h"

/* Every message the HIP layer prints starts with this. */
#define LDSAN_EMU_PREFIX "ldsan-emu"

/* ---- error.c ---- */

/* Records err as the calling thread's last error unless it is hipSuccess;
 * returns err so callers can `return ldsan_emu_hip_set_error(e);`. */
hipError_t ldsan_emu_hip_set_error(hipError_t err);

/* Like ldsan_emu_hip_set_error, and also prints "ldsan-emu: error: <api>: <fmt>"
 * to stderr (one line). Use for errors a user needs to see even if the
 * program never checks return codes. */
hipError_t ldsan_emu_hip_fail(hipError_t err, const char *api, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

/* Marks the device as failed (a kernel trapped): every later API that touches
 * the device returns this error, as a real HIP runtime does after a fault. */
void ldsan_emu_hip_set_sticky(hipError_t err);

/* The sticky error, or hipSuccess. */
hipError_t ldsan_emu_hip_sticky(void);

/* LeakSanitizer's API, present when the program is linked with host ASan. */
void __lsan_ignore_object(const void *p) __attribute__((weak));

/* Exempts a runtime-owned allocation (device memory, stream and event
 * handles) from leak reports: a GPU runtime's are never leak-checked. */
static inline void ldsan_emu_hip_not_a_leak(const void *p) {
  if (__lsan_ignore_object && p) __lsan_ignore_object(p);
}

/* ---- register.c ---- */

/* The emulated kernel for a host kernel handle (the address hipLaunchKernel
 * receives). NULL if unknown; then *name is the registered device name, or
 * NULL if the program never registered the handle. */
const ldsan_emu_kernel *ldsan_emu_hip_find_kernel(const void *host_function, const char **name);

/* The device global registered for a host shadow variable (the address
 * hipMemcpyToSymbol receives); NULL if unknown. *name gets the device name
 * when the host variable was registered but the image lacks it. */
const ldsan_emu_global *ldsan_emu_hip_find_symbol(const void *host_var, const char **name);

/* ---- device.c ---- */

/* The current device of the calling thread (always 0 on the emulator). */
int ldsan_emu_hip_current_device(void);

/* Emulated device limits, used by launch validation and hipGetDeviceProperties. */
#define LDSAN_EMU_MAX_THREADS_PER_BLOCK 1024u
#define LDSAN_EMU_LDS_PER_BLOCK 65536u       /* bytes: real gfx90a LDS per workgroup */

#endif /* LDSAN_EMU_HIP_INTERNAL_H */
