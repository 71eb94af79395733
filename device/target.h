/* ldsan target contract: the few things portable runtime code needs from the
 * machine (ids, lanes, implicit arguments, LDS address 0, backoff, trap,
 * shadow mapping, the global address space; atomics are one layer for both
 * builds, atomics.h). One implementation per target: target_amdgcn.h
 * (static inline, the only file allowed __builtin_amdgcn_*) and target_host.c
 * (host unit tests: every input is a settable hook). Everything else in
 * device/ is portable C that builds unchanged for both. */
#ifndef LDSAN_DEVICE_TARGET_H
#define LDSAN_DEVICE_TARGET_H

#include <stdint.h>

/* Qualifies a pointer to device (global) memory: the pool, headers, shadow,
 * descriptors, the report channel. On amdgcn it is address space 1, which
 * tells the compiler what a generic pointer cannot: the access is not to a
 * lane's private memory, so a load from a wave-uniform address is
 * wave-uniform (kept in scalar registers) and uses global_* instructions. */
#if defined(__AMDGCN__)
#define LDSAN_GLOBAL __attribute__((address_space(1)))
#else
#define LDSAN_GLOBAL
#endif

/* Qualifies a pointer to memory no work-item writes during a dispatch (the
 * device state the host sets between dispatches): on amdgcn the constant
 * address space, read with scalar loads (the scalar cache is invalidated as
 * each dispatch starts) that the compiler may share and hoist. */
#if defined(__AMDGCN__)
#define LDSAN_CONSTANT __attribute__((address_space(4)))
#else
#define LDSAN_CONSTANT
#endif

#if defined(__AMDGCN__)
#define LDSAN_TARGET_FN static inline
/* The compiler ABI names are ours on the device. */
#define LDSAN_ENTRY(name) name
#else
#define LDSAN_TARGET_FN
/* Host tests link ASan's runtime, which defines every __asan_* name itself:
 * the host build of the runtime renames its entry points ldsan_test__asan_*. */
#define LDSAN_ENTRY(name) ldsan_test##name
#endif

/* Workgroup id of the calling work-item in dimension x, y, z. */
LDSAN_TARGET_FN uint32_t __ldsan_workgroup_id_x(void);
LDSAN_TARGET_FN uint32_t __ldsan_workgroup_id_y(void);
LDSAN_TARGET_FN uint32_t __ldsan_workgroup_id_z(void);
/* Work-item id within the workgroup in dimension x, y, z. */
LDSAN_TARGET_FN uint32_t __ldsan_workitem_id_x(void);
LDSAN_TARGET_FN uint32_t __ldsan_workitem_id_y(void);
LDSAN_TARGET_FN uint32_t __ldsan_workitem_id_z(void);
/* Lane of the calling work-item within its wavefront. */
LDSAN_TARGET_FN uint32_t __ldsan_lane_id(void);
/* Device address of the dispatch's implicit kernel arguments (code object v5). */
LDSAN_TARGET_FN uint64_t __ldsan_implicitarg_ptr(void);
/* Device address of the dispatch's AQL packet (hsa_kernel_dispatch_packet_t). */
LDSAN_TARGET_FN uint64_t __ldsan_dispatch_ptr(void);
/* Stops the wave (s_trap 2); the host version counts and returns. */
LDSAN_TARGET_FN void __ldsan_target_trap(void);
/* The 8 bytes at LDS address 0: where the lowered kernel keeps its block address. */
LDSAN_TARGET_FN uint64_t __ldsan_lds0_read(void);
/* Returns the shadow byte address of addr. */
LDSAN_TARGET_FN LDSAN_GLOBAL uint8_t *__ldsan_shadow_of(uint64_t addr);
/* x, told to the compiler as the same in every active lane of the wave
 * (v_readfirstlane on amdgcn), so it keeps x in scalar registers. Exact only
 * where one lane runs, or all active lanes hold the same x: the allocator's
 * callers guarantee that (runtime.h, "one lane at a time"). */
LDSAN_TARGET_FN uint32_t __ldsan_uniform_u32(uint32_t x);
LDSAN_TARGET_FN uint64_t __ldsan_uniform_u64(uint64_t x);
/* The active lanes of the calling wave that share a piece of work (a shadow
 * fill): how many there are, and the caller's rank among them (0 .. count-1,
 * rank 0 in the lowest active lane). One lane (count 1) where a single
 * work-item runs the code, and in the host build unless a test sets them. */
LDSAN_TARGET_FN uint32_t __ldsan_lane_count(void);
LDSAN_TARGET_FN uint32_t __ldsan_lane_rank(void);
/* Nonzero in the lowest active lane of the wave (in every host thread). */
LDSAN_TARGET_FN int __ldsan_first_active_lane(void);
/* Lanes per wavefront. */
LDSAN_TARGET_FN uint32_t __ldsan_wave_size(void);
/* A workgroup barrier with workgroup-scope release before and acquire after
 * (__syncthreads()): the LDS checks' rebase (lds_checks.c). */
LDSAN_TARGET_FN void __ldsan_target_barrier(void);
/* Waits a little before retry number `attempt` (longer as attempts grow). */
LDSAN_TARGET_FN void __ldsan_target_backoff(uint32_t attempt);

/* An address in the code that calls it (amdgcn: s_getpc): the pc of a report
 * made where the return address means nothing, in code the plugin inlines
 * into a kernel (the kernel's own prologue and epilogue, block.c). */
LDSAN_TARGET_FN uint64_t __ldsan_target_pc(void);

/* Return address of the calling function: a macro, so that it is evaluated in
 * the entry point itself (whose caller is the instrumented code). */
#define __ldsan_return_address() ((uint64_t)(uintptr_t)__builtin_return_address(0))

#if defined(__AMDGCN__)
#include "target_amdgcn.h"
#else
#include "target_host.h"
#endif

#endif /* LDSAN_DEVICE_TARGET_H */
