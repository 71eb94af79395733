/* ldsan emulator core: cross-lane operations of one wave (see core_wave_ops.h).
 * Definitions from the AMD Instinct CDNA3 ISA reference (DS_BPERMUTE_B32,
 * DS_PERMUTE_B32, V_READFIRSTLANE_B32, V_READLANE_B32) and LLVM's AMDGPU
 * intrinsics (llvm.amdgcn.ballot: the exec lanes whose condition is true).
 *
 * DPP (v_mov_b32_dpp, which llvm.amdgcn.update.dpp / mov.dpp select to on
 * gfx9): the AMD ISA references' microcode-format chapter, tables "DPP
 * Fields" (BC, BANK_MASK, ROW_MASK) and "DPP_CTRL Enumeration" (read in the
 * AMD Instinct CDNA4 ISA reference; the "Vega" 7nm reference has the same
 * entries, the CDNA3 one is taken to match), LLVM's SIDefines.h (namespace
 * AMDGPU::DPP, enum DppCtrl: the encodings), AMDGPUModifierSyntax.rst
 * (dpp_ctrl, row_mask, bank_mask, bound_ctrl, fi) and IntrinsicsAMDGPU.td
 * (update.dpp = v_mov_b32 dst, old then v_mov_b32_dpp dst, src: lanes the
 * DPP move does not write keep old).
 * ds_swizzle_b32: the DS_SWIZZLE_B32 entry of the same ISA references (its
 * pseudocode, and the note that reading an invalid thread gives 0) and
 * SIDefines.h (namespace AMDGPU::Swizzle, enum EncBits). */
#include "core_wave_ops.h"

#define ROW_LANES 16u  /* DPP row: ROW_MASK bit r covers lanes 16r..16r+15 */
#define BANK_LANES 4u  /* DPP bank: BANK_MASK bit b covers lanes 4b..4b+3 of every row */
#define NO_LANE (-1)   /* a lane's DPP / swizzle source does not exist */

static int in_exec(uint64_t exec, int lane) { return lane != NO_LANE && (exec >> lane & 1); }

/* The controls of an operation whose operand is an immediate: the first exec
 * lane's (as READLANE's lane operand). */
static uint32_t uniform_arg(uint64_t exec, const uint32_t *arg) { return exec ? arg[__builtin_ctzll(exec)] : 0; }

/* ---- DPP ---------------------------------------------------------------- */

/* DPP_QUAD_PERM (0x00-0xff): lane n reads lane (n & ~3) + ctrl[2(n%4)+1 : 2(n%4)]. */
static int dpp_quad_perm_source(unsigned ctrl, unsigned lane) {
  return (int)((lane & ~3u) | (ctrl >> 2 * (lane & 3u) & 3u));
}

/* DPP_ROW_SL (row_shl:1-15, 0x101-0x10f): lane n reads lane n + count;
 * DPP_ROW_SR (row_shr:1-15, 0x111-0x11f): lane n - count (shift = -count);
 * if that lane is outside n's row (16 lanes) there is no source ("use
 * bound_cntl"). */
static int dpp_row_shift_source(unsigned lane, int shift) {
  int pos = (int)(lane % ROW_LANES) + shift;
  if (pos < 0 || pos >= (int)ROW_LANES) return NO_LANE;
  return (int)(lane - lane % ROW_LANES) + pos;
}

/* DPP_ROW_RR (row_ror:1-15, 0x121-0x12f): lane n reads lane n - count of
 * its row, wrapping within the row (n + 16 - count). */
static int dpp_row_rotate_right_source(unsigned lane, unsigned count) {
  return (int)((lane - lane % ROW_LANES) + (lane % ROW_LANES + ROW_LANES - count) % ROW_LANES);
}

/* DPP_WF_SL1 / DPP_WF_SR1 (wave_shl:1 / wave_shr:1): lane n reads n + 1 /
 * n - 1; lane 63 / lane 0 has no source. DPP_WF_RL1 / DPP_WF_RR1
 * (wave_rol:1 / wave_ror:1): the same, lane 63 reading lane 0 / lane 0
 * reading lane 63. */
static int dpp_wave_shift_source(unsigned lane, int shift, int rotate) {
  int src = (int)lane + shift;
  if (src >= 0 && src < (int)LDSAN_EMU_WAVE_LANES) return src;
  return rotate ? (src + (int)LDSAN_EMU_WAVE_LANES) % (int)LDSAN_EMU_WAVE_LANES : NO_LANE;
}

/* DPP_ROW_MIRROR (0x140): lane n reads lane 15 - (n & 15) of its row;
 * DPP_ROW_HALF_MIRROR (0x141): lane 7 - (n & 7) of its half row (8 lanes). */
static int dpp_mirror_source(unsigned lane, unsigned group) {
  return (int)((lane - lane % group) + (group - 1 - lane % group));
}

/* DPP_ROW_BCAST15 (0x142), "broadcast the 15th thread of each row to the next
 * row": lane n > 15 reads lane (n & 0x30) - 1; DPP_ROW_BCAST31 (0x143),
 * "broadcast thread 31 to rows 2 and 3": lane n > 31 reads lane 31. The ISA
 * gives no source to the other lanes (row 0, resp. rows 0 and 1): they are
 * treated as out of range. Compilers mask those rows off anyway (Mesa ACO's
 * reductions use row_mask 0xa with bcast15, 0xc with bcast31). */
static int dpp_row_bcast_source(unsigned lane, unsigned last) {
  return lane > last ? (int)((lane & ~last) - 1) : NO_LANE;
}

/* DPP_ROW_SHARE (row_share:0-15, 0x150-0x15f, gfx10 and later), "share the
 * value from the specified lane with other lanes in the row", and gfx90a's
 * and gfx94x's row_newbcast:1-15 on the same encodings, "broadcast a thread
 * within a row to the whole row" (LLVM's AMDGPUModifierSyntax.rst): lane n
 * reads lane `which` of its row. DPP_ROW_XMASK (row_xmask:0-15, 0x160-0x16f,
 * gfx10 and later), "fetch from XOR(current lane id, specified lane id)":
 * lane n reads the lane of its row at (n & 15) ^ mask. Which targets have
 * which is the retarget tool's to check (retarget_intrin.c). */
static int dpp_row_share_source(unsigned lane, unsigned which) { return (int)((lane - lane % ROW_LANES) + which); }
static int dpp_row_xmask_source(unsigned lane, unsigned mask) {
  return (int)((lane - lane % ROW_LANES) + ((lane % ROW_LANES) ^ mask));
}

/* The lane whose src lane `lane` reads under dpp_ctrl `ctrl`, NO_LANE if none
 * (out of range, or no control: 0x100/0x110/0x120, the gaps in 0x131-0x13f
 * and 0x144-0x14f, and 0x170 up). */
static int dpp_source_lane(unsigned ctrl, unsigned lane) {
  unsigned count = ctrl & 0xfu;
  if (ctrl >= 0x150u && ctrl <= 0x15fu) return dpp_row_share_source(lane, count);
  if (ctrl >= 0x160u && ctrl <= 0x16fu) return dpp_row_xmask_source(lane, count);
  if (ctrl <= 0xffu) return dpp_quad_perm_source(ctrl, lane);
  if (ctrl >= 0x101u && ctrl <= 0x10fu) return dpp_row_shift_source(lane, (int)count);
  if (ctrl >= 0x111u && ctrl <= 0x11fu) return dpp_row_shift_source(lane, -(int)count);
  if (ctrl >= 0x121u && ctrl <= 0x12fu) return dpp_row_rotate_right_source(lane, count);
  switch (ctrl) {
  case 0x130: return dpp_wave_shift_source(lane, 1, 0);  /* wave_shl:1 */
  case 0x134: return dpp_wave_shift_source(lane, 1, 1);  /* wave_rol:1 */
  case 0x138: return dpp_wave_shift_source(lane, -1, 0); /* wave_shr:1 */
  case 0x13c: return dpp_wave_shift_source(lane, -1, 1); /* wave_ror:1 */
  case 0x140: return dpp_mirror_source(lane, ROW_LANES);
  case 0x141: return dpp_mirror_source(lane, ROW_LANES / 2);
  case 0x142: return dpp_row_bcast_source(lane, 15);
  case 0x143: return dpp_row_bcast_source(lane, 31);
  default: return NO_LANE;
  }
}

/* ROW_MASK / BANK_MASK "apply to the VGPR destination write only": a lane
 * whose row or bank bit is 0 is not written (keeps old). */
static int dpp_lane_written(unsigned lane, unsigned row_mask, unsigned bank_mask) {
  return (row_mask >> (lane / ROW_LANES) & 1u) && (bank_mask >> (lane % ROW_LANES / BANK_LANES) & 1u);
}

/* One lane of update.dpp. A source out of range or outside exec is invalid:
 * BC ("bounds control") = 1 writes 0, BC = 0 does not write (the lane keeps
 * old). Inactive sources follow BC as out-of-range ones do: gfx9 has no FI
 * ("fetch inactive") bit, and fi:0, gfx10's default, is documented as
 * "interaction with inactive lanes is controlled by bound_ctrl". */
static uint64_t dpp_lane(uint64_t exec, const uint64_t *val, unsigned lane, uint32_t ctl) {
  unsigned ctrl = ctl & 0x1ffu, row_mask = ctl >> 9 & 0xfu, bank_mask = ctl >> 13 & 0xfu;
  int bound_zero = ctl >> 17 & 1u, src;
  uint32_t old = (uint32_t)(val[lane] >> 32);
  if (!dpp_lane_written(lane, row_mask, bank_mask)) return old;
  src = dpp_source_lane(ctrl, lane);
  if (in_exec(exec, src)) return (uint32_t)val[src];
  return bound_zero ? 0 : old;
}

/* ---- ds_swizzle_b32 ----------------------------------------------------- */

/* The lane that lane `lane` reads under swizzle offset `offset` (the ISA's
 * pseudocode), NO_LANE for the rotate (0xc000-0xdfff) and FFT (0xe000 up)
 * modes, which are not modelled. */
static int swizzle_source_lane(unsigned offset, unsigned lane) {
  if (offset >= 0xc000u) return NO_LANE;
  if (offset & 0x8000u) /* full data sharing within each group of 4 lanes */
    return (int)((lane & ~3u) | (offset >> 2 * (lane & 3u) & 3u));
  /* limited data sharing within each group of 32 lanes */
  unsigned and_mask = offset & 0x1fu, or_mask = offset >> 5 & 0x1fu, xor_mask = offset >> 10 & 0x1fu;
  return (int)(((((lane & 0x1fu) & and_mask) | or_mask) ^ xor_mask) | (lane & 0x20u));
}

/* "thread_out[i] = thread_valid[j] ? thread_in[j] : 0": an inactive source
 * lane gives 0, as for ds_bpermute_b32. */
static uint64_t swizzle_lane(uint64_t exec, const uint64_t *val, unsigned lane, uint32_t offset) {
  int src = swizzle_source_lane(offset & 0xffffu, lane);
  return in_exec(exec, src) ? (uint32_t)val[src] : 0;
}

/* res[i] = lane_result(exec, val, i, ctl) for every exec lane i (ctl uniform). */
static void each_exec_lane(uint64_t exec, const uint64_t *val, uint32_t ctl, uint64_t *res,
                           uint64_t (*lane_result)(uint64_t, const uint64_t *, unsigned, uint32_t)) {
  for (uint64_t m = exec; m; m &= m - 1) {
    unsigned i = (unsigned)__builtin_ctzll(m);
    res[i] = lane_result(exec, val, i, ctl);
  }
}

void ldsan_emu_wave_apply(uint32_t op, uint32_t lanes, uint64_t exec, const uint64_t *val, const uint32_t *arg,
                          uint64_t *res) {
  uint64_t out = 0, m;
  uint64_t tmp[LDSAN_EMU_WAVE_LANES];
  switch (op) {
  case LDSAN_EMU_WAVE_BALLOT:
    for (m = exec; m; m &= m - 1) {
      unsigned i = (unsigned)__builtin_ctzll(m);
      if (val[i] & 1) out |= 1ull << i;
    }
    break;
  case LDSAN_EMU_WAVE_FIRSTLANE:
    out = exec ? val[__builtin_ctzll(exec)] : 0;
    break;
  case LDSAN_EMU_WAVE_READLANE: { /* the lane operand is uniform (an SGPR): the first lane's */
    unsigned src = uniform_arg(exec, arg) % lanes;
    out = exec >> src & 1 ? val[src] : 0;
    break;
  }
  case LDSAN_EMU_WAVE_BPERMUTE: /* "EXEC is applied to the source VGPR reads" */
    for (m = exec; m; m &= m - 1) {
      unsigned i = (unsigned)__builtin_ctzll(m), src = arg[i] / 4 % lanes;
      res[i] = exec >> src & 1 ? (uint32_t)val[src] : 0;
    }
    return;
  case LDSAN_EMU_WAVE_PERMUTE: /* disabled sources propagate nothing; the highest source wins */
    for (unsigned i = 0; i < lanes; i++) tmp[i] = 0;
    for (m = exec; m; m &= m - 1) {
      unsigned i = (unsigned)__builtin_ctzll(m);
      tmp[arg[i] / 4 % lanes] = (uint32_t)val[i];
    }
    for (m = exec; m; m &= m - 1) {
      unsigned i = (unsigned)__builtin_ctzll(m);
      res[i] = tmp[i];
    }
    return;
  case LDSAN_EMU_WAVE_DPP:
    each_exec_lane(exec, val, uniform_arg(exec, arg), res, dpp_lane);
    return;
  case LDSAN_EMU_WAVE_SWIZZLE:
    each_exec_lane(exec, val, uniform_arg(exec, arg), res, swizzle_lane);
    return;
  default: /* LDSAN_EMU_WAVE_SYNC */
    break;
  }
  for (m = exec; m; m &= m - 1) res[__builtin_ctzll(m)] = out;
}

uint64_t ldsan_emu_wave_alone(uint32_t op, uint32_t lanes, uint32_t lane, uint64_t val, uint32_t arg) {
  lane &= lanes - 1; /* lanes: 32 or 64 (a division here cost more than the rest of the call) */
  switch (op) { /* what ldsan's runtime code asks for in every kernel, without the arrays */
  case LDSAN_EMU_WAVE_SYNC: return 0;
  case LDSAN_EMU_WAVE_FIRSTLANE: return val;
  case LDSAN_EMU_WAVE_BALLOT: return (val & 1) << lane;
  default: break;
  }
  uint64_t v[LDSAN_EMU_WAVE_LANES], r[LDSAN_EMU_WAVE_LANES];
  uint32_t a[LDSAN_EMU_WAVE_LANES];
  v[lane] = val;
  a[lane] = arg;
  r[lane] = 0;
  ldsan_emu_wave_apply(op, lanes, 1ull << lane, v, a, r);
  return r[lane];
}
