// ldsan-emu-retarget: whether a lane of a kernel can read LDS that another
// lane of its wave stored, or overwrite what it read, with no barrier between
// (retarget_wave_lds.cpp), the reason a kernel with no cross-lane operation still runs its waves in
// lockstep (retarget_wave.cpp). Shared with retarget_wave.cpp: what counts as
// the kernel's own code and as a barrier.
#ifndef LDSAN_EMU_RETARGET_WAVE_LDS_H
#define LDSAN_EMU_RETARGET_WAVE_LDS_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/IR/Function.h"
#include "llvm/IR/Instruction.h"

namespace ldsan_rt {

// retarget_code_kind.cpp: an instruction of ldsan's runtime (LDSAN_RUNTIME_MD), not the kernel's own code.
bool isRuntimeCode(const llvm::Instruction &I);
// A workgroup barrier, or a call of one of the functions in Barriers.
bool isBarrierCall(const llvm::Instruction &I, const llvm::SmallPtrSet<const llvm::Function *, 8> &Barriers);

// The first plain LDS access of the kernel's own code (Own: the kernel first,
// then the functions it reaches) that can meet an access of another lane of
// its wave made before it with no barrier between, in an order that running
// the lanes one after another (ascending) would not keep -- a load of what a
// higher lane stored, a store over what a higher lane loaded or stored; an
// access before it in program order, in its function or in one it calls or
// is called from -- or null. Accesses at the same lane's own slots (the same
// multiple of threadIdx.x, plus the same uniform offset give or take
// multiples of blockDim.x that keep the lanes apart), and those that can only
// meet an earlier access of a lower lane, do not count; a store counts only
// when its address and the earlier access's show the meeting (affine in
// threadIdx.x, one-dimensional workgroups), a load also when they say nothing.
const llvm::Instruction *ldsLaneOrderHazard(llvm::ArrayRef<llvm::Function *> Own,
                                            const llvm::SmallPtrSet<const llvm::Function *, 8> &Barriers);

} // namespace ldsan_rt

#endif
