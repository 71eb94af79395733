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
  uint32_t chained;             /* regions the group function went on to itself
                                   (LDSAN_EMU_GROUP_CHAIN, emu.h): each adds 1 */
  /* The LDS checks' inline path (lds_track.h): what it needs of the running
   * workgroup, set by the core before each call of a checked group function
   * (track_size 0 otherwise: every access then calls __ldsan_emu_lds_track). */
  uint8_t *track_recs;          /* the records of the workgroup's LDS block */
  uint64_t track_block;         /* the block's address */
  uint64_t track_size;          /* its bytes; 0: no inline path */
  const ldsan_emu_item_ids *track_ids; /* work-item i's ids are track_ids[i] */
  const uint32_t *track_wave_epochs;   /* per wave: its wave barriers so far */
  uint32_t track_epoch;         /* the barrier epoch of the running region */
  uint32_t track_run_start;     /* the workgroup's first epoch */
  uint32_t track_written_floor; /* detect_uninit: track_run_start, else 0 */
  uint32_t track_wave_shift;    /* log2 of the wave size */
  /* Always 0 here. The inline path takes its per-loop fast path (no record
   * read: LDSAN_EMU_TRACK_FAST_WRITES, or nothing at all:
   * LDSAN_EMU_TRACK_FAST_BARE, lds_track.h) where this field's load has been
   * replaced by the loop's own decision (retarget_lds_disjoint.cpp);
   * everywhere else it reads 0. */
  uint32_t track_fast;
  uint32_t track_reserved;
} ldsan_emu_tls_state;

#define LDSAN_EMU_TLS_LDS_BASE 0
#define LDSAN_EMU_TLS_LDS_SIZE 8
#define LDSAN_EMU_TLS_ITEM 16
#define LDSAN_EMU_TLS_GROUP_ID 24
#define LDSAN_EMU_TLS_LDS_KERNEL_ID 36
#define LDSAN_EMU_TLS_IMPLICITARG 40
#define LDSAN_EMU_TLS_DISPATCH 48
#define LDSAN_EMU_TLS_STATIC_LDS 56
#define LDSAN_EMU_TLS_CHAINED 60
#define LDSAN_EMU_TLS_TRACK_RECS 64
#define LDSAN_EMU_TLS_TRACK_BLOCK 72
#define LDSAN_EMU_TLS_TRACK_SIZE 80
#define LDSAN_EMU_TLS_TRACK_IDS 88
#define LDSAN_EMU_TLS_TRACK_WAVE_EPOCHS 96
#define LDSAN_EMU_TLS_TRACK_EPOCH 104
#define LDSAN_EMU_TLS_TRACK_RUN_START 108
#define LDSAN_EMU_TLS_TRACK_WRITTEN_FLOOR 112
#define LDSAN_EMU_TLS_TRACK_WAVE_SHIFT 116
#define LDSAN_EMU_TLS_TRACK_FAST 120
#define LDSAN_EMU_TLS_SIZE 128
#define LDSAN_EMU_ITEM_IDS_SIZE 16
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
_Static_assert(offsetof(ldsan_emu_tls_state, chained) == LDSAN_EMU_TLS_CHAINED, "tls");
_Static_assert(offsetof(ldsan_emu_tls_state, track_recs) == LDSAN_EMU_TLS_TRACK_RECS, "tls");
_Static_assert(offsetof(ldsan_emu_tls_state, track_block) == LDSAN_EMU_TLS_TRACK_BLOCK, "tls");
_Static_assert(offsetof(ldsan_emu_tls_state, track_size) == LDSAN_EMU_TLS_TRACK_SIZE, "tls");
_Static_assert(offsetof(ldsan_emu_tls_state, track_ids) == LDSAN_EMU_TLS_TRACK_IDS, "tls");
_Static_assert(offsetof(ldsan_emu_tls_state, track_wave_epochs) == LDSAN_EMU_TLS_TRACK_WAVE_EPOCHS, "tls");
_Static_assert(offsetof(ldsan_emu_tls_state, track_epoch) == LDSAN_EMU_TLS_TRACK_EPOCH, "tls");
_Static_assert(offsetof(ldsan_emu_tls_state, track_run_start) == LDSAN_EMU_TLS_TRACK_RUN_START, "tls");
_Static_assert(offsetof(ldsan_emu_tls_state, track_written_floor) == LDSAN_EMU_TLS_TRACK_WRITTEN_FLOOR, "tls");
_Static_assert(offsetof(ldsan_emu_tls_state, track_fast) == LDSAN_EMU_TLS_TRACK_FAST, "tls");
_Static_assert(offsetof(ldsan_emu_tls_state, track_wave_shift) == LDSAN_EMU_TLS_TRACK_WAVE_SHIFT, "tls");
_Static_assert(sizeof(ldsan_emu_tls_state) == LDSAN_EMU_TLS_SIZE, "tls");
_Static_assert(sizeof(ldsan_emu_item_ids) == LDSAN_EMU_ITEM_IDS_SIZE, "tls");
_Static_assert(offsetof(ldsan_emu_item_ids, lane) == LDSAN_EMU_ITEM_LANE, "tls");
#endif

#endif /* LDSAN_EMU_TLS_H */
