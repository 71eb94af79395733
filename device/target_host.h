/* ldsan target layer, host build (unit tests only): the contract functions are
 * ordinary extern functions (target_host.c) and these hooks stand in for the
 * hardware. Ids and LDS[0] are per thread, so a test thread is a "workgroup". */
#ifndef LDSAN_DEVICE_TARGET_HOST_H
#define LDSAN_DEVICE_TARGET_HOST_H

#include <stdint.h>

extern _Thread_local uint32_t __ldsan_host_workgroup_id[3];
extern _Thread_local uint32_t __ldsan_host_workitem_id[3];
extern _Thread_local uint32_t __ldsan_host_lane;
/* The lanes sharing a shadow fill (target.h): 1 and 0 unless a test runs one
 * wave's lanes one after another, setting rank 0 .. count-1 in turn. */
extern _Thread_local uint32_t __ldsan_host_lane_count;
extern _Thread_local uint32_t __ldsan_host_lane_rank;
extern _Thread_local uint64_t __ldsan_host_lds0;        /* the 8 bytes at LDS address 0 */
extern _Thread_local uint64_t __ldsan_host_implicitarg; /* address of a fake implicit-argument buffer */
extern _Thread_local uint64_t __ldsan_host_dispatch;    /* address of a fake dispatch packet */
extern uint32_t __ldsan_host_trap_count;
/* Called by __ldsan_target_barrier (a test runs work-items as threads and
 * waits for them all); null: nothing happens. */
extern void (*__ldsan_host_barrier)(void);                /* __ldsan_target_trap calls (atomic) */
/* shadow_of(addr) = (addr >> 3) + __ldsan_host_shadow_offset: a test points it at
 * its own buffer shadowing its own arena (host ASan owns the real 0x7FFF8000). */
extern uintptr_t __ldsan_host_shadow_offset;

#endif /* LDSAN_DEVICE_TARGET_HOST_H */
