/* ldsan CPU emulator: the cross-lane operations of a wave (64 lanes, or 32
 * on RDNA targets) as the retarget tool names them and the core executes
 * them (emulator/core/core_wave_ops.c): the entry points a retargeted lane
 * calls, the operation codes and how their operands are packed. Shared by
 * retarget/ and emulator/core/. */
#ifndef LDSAN_EMU_WAVE_OPS_H
#define LDSAN_EMU_WAVE_OPS_H

#include <stdint.h>

#define LDSAN_EMU_WAVE_LANES 64u /* the most lanes a wave has */

/* The core's entry points a retargeted lane calls at a cross-lane operation
 * (core_intrin.c: __ldsan_emu_wave_op(op, val, arg, rank) -> result) and
 * before a memory access that lanes of its wave may share
 * (__ldsan_emu_wave_mem(ptr, rank)); the retarget passes name them so. */
#define LDSAN_EMU_WAVE_OP_FN "__ldsan_emu_wave_op"
#define LDSAN_EMU_WAVE_MEM_FN "__ldsan_emu_wave_mem"

/* The operation a lane stopped at (the retarget tool passes it). */
enum ldsan_emu_wave_op {
  LDSAN_EMU_WAVE_SYNC = 0,       /* no data: wave.barrier, a memory access */
  LDSAN_EMU_WAVE_BALLOT = 1,     /* val: condition (bit 0) -> mask of exec lanes with it set */
  LDSAN_EMU_WAVE_FIRSTLANE = 2,  /* val -> val of the lowest exec lane */
  LDSAN_EMU_WAVE_READLANE = 3,   /* val, arg: lane -> val of lane arg % lanes (0 if not in exec) */
  LDSAN_EMU_WAVE_BPERMUTE = 4,   /* val: data, arg: byte address -> data of lane addr/4 % lanes (0 if not in exec) */
  LDSAN_EMU_WAVE_PERMUTE = 5,    /* val: data, arg: byte address -> lane addr/4 % lanes gets data; highest source wins; 0 if none */
  LDSAN_EMU_WAVE_DPP = 6,        /* llvm.amdgcn.update.dpp / mov.dpp (v_mov_b32_dpp, gfx9), see below */
  LDSAN_EMU_WAVE_SWIZZLE = 7,    /* llvm.amdgcn.ds.swizzle (ds_swizzle_b32), see below */
  LDSAN_EMU_WAVE_OPS
};

/* LDSAN_EMU_WAVE_SYNC's arg for a wave barrier (others: 0): it ends the
 * wave's synchronization epoch (option report_wave_sync). */
#define LDSAN_EMU_WAVE_SYNC_BARRIER 1u
/* ... and for the lockstep point before a call (0: where branches
 * reconverge): work-item loops, with the call inlined, do not stop there. */
#define LDSAN_EMU_WAVE_SYNC_CALL 2u

/* LDSAN_EMU_WAVE_DPP operands, for update.dpp(old, src, dpp_ctrl, row_mask,
 * bank_mask, bound_ctrl) on 32-bit values (mov.dpp: the same with old = 0):
 *   val[i] = (uint64_t)old_i << 32 | src_i
 *   arg[i] = dpp_ctrl | row_mask << 9 | bank_mask << 13 | (bound_ctrl ? 1 : 0) << 17
 * The controls are uniform (immediates): the first exec lane's arg is used.
 * Result: the 32-bit value of each exec lane (upper half 0). A row is 16
 * lanes (row r: lanes 16r..16r+15), a bank 4 lanes within each row (bank b:
 * lanes 4b..4b+3 of every row). A lane whose row or bank is masked off keeps
 * old; a lane whose source lane is out of range, not in exec, or whose
 * dpp_ctrl is not a gfx9 one gets 0 if bound_ctrl, else keeps old. */
#define LDSAN_EMU_DPP_ARG(dpp_ctrl, row_mask, bank_mask, bound_ctrl)                    \
  (((uint32_t)(dpp_ctrl) & 0x1ffu) | ((uint32_t)(row_mask) & 0xfu) << 9 |               \
   ((uint32_t)(bank_mask) & 0xfu) << 13 | (uint32_t)((bound_ctrl) ? 1 : 0) << 17)

/* LDSAN_EMU_WAVE_SWIZZLE operands: val[i] = src_i, arg[i] = the 16-bit
 * offset (uniform: the first exec lane's). offset[15] = 1 (below 0xc000):
 * quad permute, lane 4q+k reads lane 4q + offset[2k+1:2k]; offset[15] = 0:
 * bit masks, lane 32h+t reads lane 32h + (((t & offset[4:0]) | offset[9:5])
 * ^ offset[14:10]). A source lane not in exec gives 0. Offsets >= 0xc000
 * (the ISA's rotate and FFT modes) are not modelled: every lane gets 0. */

#endif /* LDSAN_EMU_WAVE_OPS_H */
