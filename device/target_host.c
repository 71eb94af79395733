/* ldsan target layer, host build: trivial implementations of target.h over
 * test hooks (the atomics are atomics.h, shared with the amdgcn build).
 * Thread-safe as far as the contract needs: ids are thread-local, the trap
 * counter is atomic. */
#define _POSIX_C_SOURCE 200809L
#include <sched.h>

#include "target.h"

_Thread_local uint32_t __ldsan_host_workgroup_id[3];
_Thread_local uint32_t __ldsan_host_workitem_id[3];
_Thread_local uint32_t __ldsan_host_lane;
_Thread_local uint32_t __ldsan_host_lane_count = 1;
_Thread_local uint32_t __ldsan_host_lane_rank;
_Thread_local uint64_t __ldsan_host_lds0;
_Thread_local uint64_t __ldsan_host_implicitarg;
_Thread_local uint64_t __ldsan_host_dispatch;
uint32_t __ldsan_host_trap_count;
void (*__ldsan_host_barrier)(void);
uintptr_t __ldsan_host_shadow_offset;

uint32_t __ldsan_workgroup_id_x(void) { return __ldsan_host_workgroup_id[0]; }
uint32_t __ldsan_workgroup_id_y(void) { return __ldsan_host_workgroup_id[1]; }
uint32_t __ldsan_workgroup_id_z(void) { return __ldsan_host_workgroup_id[2]; }
uint32_t __ldsan_workitem_id_x(void) { return __ldsan_host_workitem_id[0]; }
uint32_t __ldsan_workitem_id_y(void) { return __ldsan_host_workitem_id[1]; }
uint32_t __ldsan_workitem_id_z(void) { return __ldsan_host_workitem_id[2]; }
uint32_t __ldsan_lane_id(void) { return __ldsan_host_lane; }
uint32_t __ldsan_uniform_u32(uint32_t x) { return x; }
uint64_t __ldsan_uniform_u64(uint64_t x) { return x; }
uint32_t __ldsan_lane_count(void) { return __ldsan_host_lane_count; }
uint32_t __ldsan_lane_rank(void) { return __ldsan_host_lane_rank; }
int __ldsan_first_active_lane(void) { return __ldsan_host_lane_rank == 0; }
uint64_t __ldsan_target_pc(void) { return (uint64_t)(uintptr_t)__builtin_return_address(0); }
uint64_t __ldsan_implicitarg_ptr(void) { return __ldsan_host_implicitarg; }
uint64_t __ldsan_dispatch_ptr(void) { return __ldsan_host_dispatch; }
uint64_t __ldsan_lds0_read(void) { return __ldsan_host_lds0; }
uint32_t __ldsan_wave_size(void) { return 64u; }
void __ldsan_target_barrier(void) {
  if (__ldsan_host_barrier) __ldsan_host_barrier();
}

/* Counts instead of stopping, so a test can check that a report trapped. */
void __ldsan_target_trap(void) { __atomic_fetch_add(&__ldsan_host_trap_count, 1u, __ATOMIC_SEQ_CST); }

LDSAN_GLOBAL uint8_t *__ldsan_shadow_of(uint64_t addr) {
  return (uint8_t *)((uintptr_t)(addr >> 3) + __ldsan_host_shadow_offset);
}

void __ldsan_target_backoff(uint32_t attempt) {
  (void)attempt;
  sched_yield();
}
