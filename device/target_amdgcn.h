/* ldsan target layer for amdgcn (gfx908/gfx90a/gfx942/gfx950 with full ASan;
 * any target, RDNA's wave32 included, in the LDS-only mode): the
 * only file in the runtime that uses __builtin_amdgcn_*. Included by target.h;
 * every function is static inline, so the linked runtime carries no target
 * calls. Pointers are flat (address space 0) unless written otherwise. */
#ifndef LDSAN_DEVICE_TARGET_AMDGCN_H
#define LDSAN_DEVICE_TARGET_AMDGCN_H

#include <ldsan/abi.h>

static inline uint32_t __ldsan_workgroup_id_x(void) { return __builtin_amdgcn_workgroup_id_x(); }
static inline uint32_t __ldsan_workgroup_id_y(void) { return __builtin_amdgcn_workgroup_id_y(); }
static inline uint32_t __ldsan_workgroup_id_z(void) { return __builtin_amdgcn_workgroup_id_z(); }
static inline uint32_t __ldsan_workitem_id_x(void) { return __builtin_amdgcn_workitem_id_x(); }
static inline uint32_t __ldsan_workitem_id_y(void) { return __builtin_amdgcn_workitem_id_y(); }
static inline uint32_t __ldsan_workitem_id_z(void) { return __builtin_amdgcn_workitem_id_z(); }

/* mbcnt counts the active-or-not lanes below this one: the lane index. */
static inline uint32_t __ldsan_lane_id(void) {
  return __builtin_amdgcn_mbcnt_hi(~0u, __builtin_amdgcn_mbcnt_lo(~0u, 0u));
}

static inline uint32_t __ldsan_uniform_u32(uint32_t x) { return (uint32_t)__builtin_amdgcn_readfirstlane((int)x); }
static inline uint64_t __ldsan_uniform_u64(uint64_t x) {
  return (uint64_t)__ldsan_uniform_u32((uint32_t)x) | (uint64_t)__ldsan_uniform_u32((uint32_t)(x >> 32)) << 32;
}
/* ballot(true) is the exec mask: its bit count, and its bits below this lane. */
static inline uint32_t __ldsan_lane_count(void) { return (uint32_t)__builtin_popcountll(__builtin_amdgcn_ballot_w64(1)); }
static inline uint32_t __ldsan_lane_rank(void) {
  uint64_t exec = __builtin_amdgcn_ballot_w64(1);
  return __builtin_amdgcn_mbcnt_hi((uint32_t)(exec >> 32), __builtin_amdgcn_mbcnt_lo((uint32_t)exec, 0u));
}
static inline int __ldsan_first_active_lane(void) {
  uint32_t lane = __ldsan_lane_id();
  return lane == __ldsan_uniform_u32(lane);
}

/* Constant (address space 4) addresses are plain 64-bit global addresses. */
static inline uint64_t __ldsan_dispatch_ptr(void) {
  return (uint64_t)(uintptr_t)__builtin_amdgcn_dispatch_ptr();
}

static inline uint64_t __ldsan_implicitarg_ptr(void) {
  return (uint64_t)(uintptr_t)__builtin_amdgcn_implicitarg_ptr();
}

/* 64 on gfx9/CDNA, 32 or 64 on RDNA (the LDS-only mode's targets): the
 * backend folds it for the code object's target (the CPU emulator's for
 * emulated code). */
static inline uint32_t __ldsan_wave_size(void) { return __builtin_amdgcn_wavefrontsize(); }

static inline void __ldsan_target_barrier(void) {
  __builtin_amdgcn_fence(__ATOMIC_RELEASE, "workgroup");
  __builtin_amdgcn_s_barrier();
  __builtin_amdgcn_fence(__ATOMIC_ACQUIRE, "workgroup");
}

static inline uint64_t __ldsan_target_pc(void) { return (uint64_t)__builtin_amdgcn_s_getpc(); }

/* llvm.trap is s_trap 2 on amdhsa: the queue reports the wave and stops it. */
static inline void __ldsan_target_trap(void) { __builtin_trap(); }

/* A literal (T *)0 in LDS would be the target's null (-1 for LDS), not address
 * 0: build the pointer from a non-constant integer so clang emits inttoptr 0.
 * Volatile: the slot is written by work-item 0 before a barrier the compiler
 * does not see from here. */
static inline uint64_t __ldsan_lds0_read(void) {
  uint32_t zero = 0;
  return *(volatile __attribute__((address_space(3))) uint64_t *)zero;
}

/* ASan's mapping, or in the LDS-only runtime (LDSAN_OWN_SHADOW) ldsan's own
 * shadow of its pool (own_shadow.c). */
#ifdef LDSAN_OWN_SHADOW
uint64_t __ldsan_own_shadow_offset(void);
#define LDSAN_TARGET_SHADOW_OFFSET __ldsan_own_shadow_offset()
#else
#define LDSAN_TARGET_SHADOW_OFFSET LDSAN_SHADOW_OFFSET
#endif
static inline LDSAN_GLOBAL uint8_t *__ldsan_shadow_of(uint64_t addr) {
  return (LDSAN_GLOBAL uint8_t *)(uintptr_t)((addr >> LDSAN_SHADOW_SCALE) + LDSAN_TARGET_SHADOW_OFFSET);
}

/* s_sleep 127 is ~8k cycles; wait 1..16 of those as attempts grow. Out of
 * line: the block paths are inlined into kernels, and the CPU emulator tells
 * this back-off (a wait for other workgroups) from a kernel's own s_sleep (a
 * possible wait for its workgroup's work-items) by the function it is in. */
static __attribute__((noinline)) void __ldsan_target_backoff(uint32_t attempt) {
  uint32_t n = attempt < 16 ? attempt + 1 : 16;
  for (uint32_t i = 0; i < n; ++i) __builtin_amdgcn_s_sleep(127);
}

#endif /* LDSAN_DEVICE_TARGET_AMDGCN_H */
