/* ldsan-emu-retarget: the cross-lane operations left in a group function,
 * lowered in place for a lane alone.
 *
 * A group function runs its work-items in loops, one after another; the core
 * then executes every __ldsan_emu_wave_op call for the calling lane alone,
 * exec = that lane (core_sched.c, ldsan_emu_wave_arrive: w->lockstep is 0
 * whenever loops run; core_wave_ops.c, ldsan_emu_wave_alone). The calls left
 * are ldsan's own runtime code (a lockstep kernel's own operations became
 * stops, retarget_wiloop_regions.cpp) and points that are not stops; a
 * workgroup's prologue and epilogue make ~20 of them, each a call through the
 * core's TLS state. Here each becomes what the core computes for exec = 1 <<
 * lane:
 *   SYNC                 nothing (0)
 *   FIRSTLANE            val
 *   BALLOT               (val & 1) << lane
 *   READLANE             lane == arg % lanes ? val : 0
 *   BPERMUTE, PERMUTE    lane == arg / 4 % lanes ? (uint32_t)val : 0
 * DPP and SWIZZLE stay calls (their source lanes need the tables of
 * core_wave_ops.c). */
#include <string.h>

#include "ldsan/emu/wave_ops.h"
#include "retarget.h"

/* The value call ci (op `op`) gives a lane alone, built before ci; NULL if
 * the op stays a call. */
static LLVMValueRef alone_value(rt_ctx *c, LLVMValueRef ci, uint64_t op) {
  LLVMValueRef val = LLVMGetOperand(ci, 1), arg = LLVMGetOperand(ci, 2);
  LLVMValueRef zero = LLVMConstInt(c->i64, 0, 0), lanes_mask = LLVMConstInt(c->i32, c->wave_size - 1, 0);
  switch (op) {
  case LDSAN_EMU_WAVE_SYNC:
    return zero;
  case LDSAN_EMU_WAVE_FIRSTLANE:
    return val;
  case LDSAN_EMU_WAVE_BALLOT: {
    LLVMValueRef lane = LLVMBuildZExt(c->b, rt_lane(c), c->i64, "");
    return LLVMBuildShl(c->b, LLVMBuildAnd(c->b, val, LLVMConstInt(c->i64, 1, 0), ""), lane, "emu.ballot");
  }
  case LDSAN_EMU_WAVE_READLANE:
  case LDSAN_EMU_WAVE_BPERMUTE:
  case LDSAN_EMU_WAVE_PERMUTE: {
    int by_address = op != LDSAN_EMU_WAVE_READLANE;
    LLVMValueRef src = by_address ? LLVMBuildLShr(c->b, arg, LLVMConstInt(c->i32, 2, 0), "") : arg;
    src = LLVMBuildAnd(c->b, src, lanes_mask, "");
    LLVMValueRef mine = LLVMBuildICmp(c->b, LLVMIntEQ, src, rt_lane(c), "");
    LLVMValueRef data = by_address ? LLVMBuildAnd(c->b, val, LLVMConstInt(c->i64, 0xffffffffull, 0), "") : val;
    return LLVMBuildSelect(c->b, mine, data, zero, "emu.lane.read");
  }
  default:
    return NULL;
  }
}

unsigned rt_wave_alone(rt_ctx *c, LLVMValueRef group) {
  unsigned lowered = 0;
  for (LLVMBasicBlockRef bb = LLVMGetFirstBasicBlock(group); bb; bb = LLVMGetNextBasicBlock(bb)) {
    LLVMValueRef next;
    for (LLVMValueRef i = LLVMGetFirstInstruction(bb); i; i = next) {
      next = LLVMGetNextInstruction(i);
      if (!LLVMIsACallInst(i)) continue;
      LLVMValueRef callee = LLVMGetCalledValue(i), op = LLVMGetOperand(i, 0);
      if (!LLVMIsAFunction(callee) || strcmp(rt_name(callee), LDSAN_EMU_WAVE_OP_FN) != 0 || !LLVMIsAConstantInt(op))
        continue;
      LLVMPositionBuilderBefore(c->b, i);
      LLVMValueRef v = alone_value(c, i, LLVMConstIntGetZExtValue(op));
      if (!v) continue;
      LLVMReplaceAllUsesWith(i, v);
      LLVMInstructionEraseFromParent(i);
      lowered++;
    }
  }
  return lowered;
}
