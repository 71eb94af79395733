/* ldsan atomics: the one atomics layer of the device runtime, for the amdgcn
 * build and the host build of the unit tests alike. Clang's scoped atomic
 * builtins (__scoped_atomic_*, as LLVM libc's GPU RPC header uses them) take
 * a memory scope: device (all workgroups of the GPU) or system (GPU and host,
 * for memory the host reads, such as the report channel); on the host the
 * scope has no effect. Read-modify-writes return the previous value; fetch_add
 * is relaxed (a claim counter), cas/or/and are acq_rel (they hand
 * memory over), and the block cache's fast path uses the weaker orders it
 * needs (relaxed CAS on its ring positions, an acquire load and a release
 * store on its cells): on amdgcn every acquire is a cache invalidate and
 * every release a write-back, per wave. */
#ifndef LDSAN_DEVICE_ATOMICS_H
#define LDSAN_DEVICE_ATOMICS_H

#include <stdint.h>

#include "target.h" /* LDSAN_GLOBAL */

/* Memory scope of an atomic. */
enum ldsan_scope { LDSAN_SCOPE_DEVICE = 0, LDSAN_SCOPE_SYSTEM = 1, LDSAN_SCOPE_WORKGROUP = 2 };

/* The builtins take a constant scope: a ternary on the (constant after
 * inlining) ldsan scope picks one of the three. */
#define LDSAN_SCOPED(scope, call, ...)                                                  \
  ((scope) == LDSAN_SCOPE_SYSTEM      ? call(__VA_ARGS__, __MEMORY_SCOPE_SYSTEM)        \
   : (scope) == LDSAN_SCOPE_WORKGROUP ? call(__VA_ARGS__, __MEMORY_SCOPE_WRKGRP)        \
                                      : call(__VA_ARGS__, __MEMORY_SCOPE_DEVICE))

static inline uint32_t __ldsan_atomic_add_u32(LDSAN_GLOBAL uint32_t *p, uint32_t v, int scope) {
  return LDSAN_SCOPED(scope, __scoped_atomic_fetch_add, p, v, __ATOMIC_RELAXED);
}
static inline uint32_t __ldsan_atomic_max_u32(LDSAN_GLOBAL uint32_t *p, uint32_t v, int scope) {
  return LDSAN_SCOPED(scope, __scoped_atomic_fetch_max, p, v, __ATOMIC_RELAXED);
}
static inline uint64_t __ldsan_atomic_add_u64(LDSAN_GLOBAL uint64_t *p, uint64_t v, int scope) {
  return LDSAN_SCOPED(scope, __scoped_atomic_fetch_add, p, v, __ATOMIC_RELAXED);
}
/* Compare-and-swap, one definition per (name, type, success order, failure
 * order). Returns the observed value: equals `expected` iff the swap happened.
 *   cas          acq_rel   hands memory over both ways
 *   cas_relaxed  relaxed   a counter whose data has its own acquire/release
 *                          (the block cache's ring positions) */
#define LDSAN_DEFINE_CAS(name, T, success, failure)                                                    \
  static inline T name(LDSAN_GLOBAL T *p, T expected, T desired, int scope) {                           \
    (void)LDSAN_SCOPED(scope, __scoped_atomic_compare_exchange_n, p, &expected, desired, 0, success, failure); \
    return expected;                                                                                   \
  }
LDSAN_DEFINE_CAS(__ldsan_atomic_cas_u32, uint32_t, __ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE)
LDSAN_DEFINE_CAS(__ldsan_atomic_cas_u64, uint64_t, __ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE)
LDSAN_DEFINE_CAS(__ldsan_atomic_cas_relaxed_u64, uint64_t, __ATOMIC_RELAXED, __ATOMIC_RELAXED)
#undef LDSAN_DEFINE_CAS
static inline uint64_t __ldsan_atomic_or_u64(LDSAN_GLOBAL uint64_t *p, uint64_t v, int scope) {
  return LDSAN_SCOPED(scope, __scoped_atomic_fetch_or, p, v, __ATOMIC_ACQ_REL);
}
static inline uint64_t __ldsan_atomic_and_u64(LDSAN_GLOBAL uint64_t *p, uint64_t v, int scope) {
  return LDSAN_SCOPED(scope, __scoped_atomic_fetch_and, p, v, __ATOMIC_ACQ_REL);
}
static inline uint32_t __ldsan_load_acquire_u32(const LDSAN_GLOBAL uint32_t *p, int scope) {
  return LDSAN_SCOPED(scope, __scoped_atomic_load_n, p, __ATOMIC_ACQUIRE);
}
static inline uint64_t __ldsan_load_acquire_u64(const LDSAN_GLOBAL uint64_t *p, int scope) {
  return LDSAN_SCOPED(scope, __scoped_atomic_load_n, p, __ATOMIC_ACQUIRE);
}
/* Relaxed: a value another work-item may write at the same time, whose
 * staleness a later acquire/CAS catches (a free list's link). */
static inline uint64_t __ldsan_load_relaxed_u64(const LDSAN_GLOBAL uint64_t *p, int scope) {
  return LDSAN_SCOPED(scope, __scoped_atomic_load_n, p, __ATOMIC_RELAXED);
}
static inline uint32_t __ldsan_load_relaxed_u32(const LDSAN_GLOBAL uint32_t *p, int scope) {
  return LDSAN_SCOPED(scope, __scoped_atomic_load_n, p, __ATOMIC_RELAXED);
}
static inline void __ldsan_store_relaxed_u64(LDSAN_GLOBAL uint64_t *p, uint64_t v, int scope) {
  LDSAN_SCOPED(scope, __scoped_atomic_store_n, p, v, __ATOMIC_RELAXED);
}
static inline void __ldsan_store_relaxed_u32(LDSAN_GLOBAL uint32_t *p, uint32_t v, int scope) {
  LDSAN_SCOPED(scope, __scoped_atomic_store_n, p, v, __ATOMIC_RELAXED);
}
static inline void __ldsan_store_release_u32(LDSAN_GLOBAL uint32_t *p, uint32_t v, int scope) {
  LDSAN_SCOPED(scope, __scoped_atomic_store_n, p, v, __ATOMIC_RELEASE);
}
static inline void __ldsan_store_release_u64(LDSAN_GLOBAL uint64_t *p, uint64_t v, int scope) {
  LDSAN_SCOPED(scope, __scoped_atomic_store_n, p, v, __ATOMIC_RELEASE);
}

#undef LDSAN_SCOPED
#endif /* LDSAN_DEVICE_ATOMICS_H */
