/* ldsan target layer, host build: trivial implementations of target.h over
 * test hooks and GCC/Clang __atomic builtins (scopes collapse to one process).
 * Thread-safe as far as the contract needs: ids are thread-local, the trap
 * counter is atomic. */
#define _POSIX_C_SOURCE 200809L
#include <sched.h>

#include "target.h"

_Thread_local uint32_t __ldsan_host_workgroup_id[3];
_Thread_local uint32_t __ldsan_host_workitem_id[3];
_Thread_local uint32_t __ldsan_host_lane;
_Thread_local uint64_t __ldsan_host_lds0;
_Thread_local uint64_t __ldsan_host_implicitarg;
uint32_t __ldsan_host_trap_count;
uintptr_t __ldsan_host_shadow_offset;

uint32_t __ldsan_workgroup_id_x(void) { return __ldsan_host_workgroup_id[0]; }
uint32_t __ldsan_workgroup_id_y(void) { return __ldsan_host_workgroup_id[1]; }
uint32_t __ldsan_workgroup_id_z(void) { return __ldsan_host_workgroup_id[2]; }
uint32_t __ldsan_workitem_id_x(void) { return __ldsan_host_workitem_id[0]; }
uint32_t __ldsan_workitem_id_y(void) { return __ldsan_host_workitem_id[1]; }
uint32_t __ldsan_workitem_id_z(void) { return __ldsan_host_workitem_id[2]; }
uint32_t __ldsan_lane_id(void) { return __ldsan_host_lane; }
uint64_t __ldsan_implicitarg_ptr(void) { return __ldsan_host_implicitarg; }
uint64_t __ldsan_lds0_read(void) { return __ldsan_host_lds0; }

/* Counts instead of stopping, so a test can check that a report trapped. */
void __ldsan_target_trap(void) { __atomic_fetch_add(&__ldsan_host_trap_count, 1u, __ATOMIC_SEQ_CST); }

uint8_t *__ldsan_shadow_of(uint64_t addr) {
  return (uint8_t *)((uintptr_t)(addr >> 3) + __ldsan_host_shadow_offset);
}

void __ldsan_target_backoff(uint32_t attempt) {
  (void)attempt;
  sched_yield();
}

uint32_t __ldsan_atomic_add_u32(uint32_t *p, uint32_t v, int scope) {
  (void)scope;
  return __atomic_fetch_add(p, v, __ATOMIC_RELAXED);
}
uint64_t __ldsan_atomic_add_u64(uint64_t *p, uint64_t v, int scope) {
  (void)scope;
  return __atomic_fetch_add(p, v, __ATOMIC_RELAXED);
}
uint32_t __ldsan_atomic_cas_u32(uint32_t *p, uint32_t expected, uint32_t desired, int scope) {
  (void)scope;
  __atomic_compare_exchange_n(p, &expected, desired, 0, __ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE);
  return expected;
}
uint64_t __ldsan_atomic_cas_u64(uint64_t *p, uint64_t expected, uint64_t desired, int scope) {
  (void)scope;
  __atomic_compare_exchange_n(p, &expected, desired, 0, __ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE);
  return expected;
}
uint64_t __ldsan_atomic_or_u64(uint64_t *p, uint64_t v, int scope) {
  (void)scope;
  return __atomic_fetch_or(p, v, __ATOMIC_ACQ_REL);
}
uint64_t __ldsan_atomic_and_u64(uint64_t *p, uint64_t v, int scope) {
  (void)scope;
  return __atomic_fetch_and(p, v, __ATOMIC_ACQ_REL);
}
uint32_t __ldsan_load_acquire_u32(const uint32_t *p, int scope) {
  (void)scope;
  return __atomic_load_n(p, __ATOMIC_ACQUIRE);
}
uint64_t __ldsan_load_acquire_u64(const uint64_t *p, int scope) {
  (void)scope;
  return __atomic_load_n(p, __ATOMIC_ACQUIRE);
}
void __ldsan_store_release_u32(uint32_t *p, uint32_t v, int scope) {
  (void)scope;
  __atomic_store_n(p, v, __ATOMIC_RELEASE);
}
void __ldsan_store_release_u64(uint64_t *p, uint64_t v, int scope) {
  (void)scope;
  __atomic_store_n(p, v, __ATOMIC_RELEASE);
}
