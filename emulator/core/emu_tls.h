/* ldsan CPU emulator: the per-worker-thread state that retargeted device code
 * reads inline (work-item ids, LDS window, implicit arguments), shared by the
 * retarget tool (which emits loads at these offsets) and the core (which
 * fills it). One instance per worker OS thread, initial-exec TLS, symbol
 * __ldsan_emu_tls. All fibers of a workgroup run on one worker thread and
 * never migrate, so a fiber may cache the TLS address across a barrier; the
 * scheduler stores `item` before every switch, so every fiber reads its own
 * ids. Work-item loops store `item` before every call a work-item's region
 * makes (the region's own code reads its ids directly). Changing a field means
 * changing both sides: the offsets are asserted. */
#ifndef LDSAN_EMU_TLS_H
#define LDSAN_EMU_TLS_H

#include <stdint.h>

#define LDSAN_EMU_TLS_SYMBOL "__ldsan_emu_tls"

/* What the fiber of one work-item exposes to device code (prefix of the
 * core's private fiber struct). */
typedef struct ldsan_emu_item_ids {
  uint32_t id[3];   /* workitem.id.{x,y,z} */
  uint32_t lane;    /* linear id % 64: lane in the wave */
} ldsan_emu_item_ids;

typedef struct ldsan_emu_tls_state {
  uint8_t *lds_base;            /* this worker's LDS window: LDS offset 0 */
  uint64_t lds_size;            /* bytes valid in the window (static + dynamic) */
  ldsan_emu_item_ids *item;     /* the running work-item */
  uint32_t group_id[3];         /* workgroup.id.{x,y,z} */
  uint32_t lds_kernel_id;       /* llvm.amdgcn.lds.kernel.id, set by the kernel trampoline */
  void *implicitarg;            /* COV5 implicit-argument block of the dispatch (256 bytes) */
  void *dispatch;               /* hsa_kernel_dispatch_packet-shaped block (64 bytes) */
  uint32_t static_lds_size;     /* llvm.amdgcn.groupstaticsize */
  uint32_t reserved;
} ldsan_emu_tls_state;

#define LDSAN_EMU_TLS_LDS_BASE 0
#define LDSAN_EMU_TLS_LDS_SIZE 8
#define LDSAN_EMU_TLS_ITEM 16
#define LDSAN_EMU_TLS_GROUP_ID 24
#define LDSAN_EMU_TLS_LDS_KERNEL_ID 36
#define LDSAN_EMU_TLS_IMPLICITARG 40
#define LDSAN_EMU_TLS_DISPATCH 48
#define LDSAN_EMU_TLS_STATIC_LDS 56
#define LDSAN_EMU_TLS_SIZE 64
#define LDSAN_EMU_ITEM_LANE 12

#ifndef __cplusplus
#include <stddef.h>
_Static_assert(offsetof(ldsan_emu_tls_state, lds_size) == LDSAN_EMU_TLS_LDS_SIZE, "tls");
_Static_assert(offsetof(ldsan_emu_tls_state, item) == LDSAN_EMU_TLS_ITEM, "tls");
_Static_assert(offsetof(ldsan_emu_tls_state, group_id) == LDSAN_EMU_TLS_GROUP_ID, "tls");
_Static_assert(offsetof(ldsan_emu_tls_state, lds_kernel_id) == LDSAN_EMU_TLS_LDS_KERNEL_ID, "tls");
_Static_assert(offsetof(ldsan_emu_tls_state, implicitarg) == LDSAN_EMU_TLS_IMPLICITARG, "tls");
_Static_assert(offsetof(ldsan_emu_tls_state, dispatch) == LDSAN_EMU_TLS_DISPATCH, "tls");
_Static_assert(offsetof(ldsan_emu_tls_state, static_lds_size) == LDSAN_EMU_TLS_STATIC_LDS, "tls");
_Static_assert(sizeof(ldsan_emu_tls_state) == LDSAN_EMU_TLS_SIZE, "tls");
_Static_assert(offsetof(ldsan_emu_item_ids, lane) == LDSAN_EMU_ITEM_LANE, "tls");
#endif

#endif /* LDSAN_EMU_TLS_H */
