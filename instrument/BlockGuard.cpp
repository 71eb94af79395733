//===- BlockGuard.cpp - a workgroup without its LDS block stops -----------===//
//
// The lowered prologue, as amdgpu-sw-lower-lds emits it (LLVM 22):
//
//   WId:    if (work-item id == 0,0,0) goto Malloc else goto Merge
//   Malloc: %b = call __ldsan_kernel_enter(size, desc)
//           store %b -> @llvm.amdgcn.sw.lds.<kernel>   (the LDS slot)
//           poison the redzones of the block ...
//           goto Merge
//   Merge:  phi ...; s_barrier; <kernel body>
//
// becomes
//
//   Malloc:  %b = call __ldsan_kernel_enter(size, desc)
//            if (%b == 0) goto NoBlock else goto Rest
//   NoBlock: store null -> slot; goto Merge
//   Rest:    store %b -> slot; poison ...; goto Merge
//   Merge:   phi ...; fence release; s_barrier; fence acquire
//            if (load slot == null) return      (every work-item alike)
//   Body:    <kernel body>
//
// and the epilogue's barrier before __ldsan_kernel_exit gets the same fences.
// The pass emits a bare s_barrier, and gfx90a/gfx942 barriers do not wait for
// memory: without a workgroup-scope release/acquire pair, work-item 0's header
// and shadow writes may not be visible to the other waves when they pass the
// prologue barrier, and another wave's last store into the block may land
// after work-item 0 handed the block's chunk to the next workgroup. The pair
// is what __syncthreads() emits. The exit barrier is also marked
// (LDSAN_EXIT_BARRIER_MD): once the release after it is inlined, the CPU
// emulator has no other way to tell it from the body's barriers.
//
//===----------------------------------------------------------------------===//
#include "BlockGuard.h"
#include "CallsTo.h"

#include "ldsan/entry_points.def"

#include "llvm/IR/Constants.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/IR/IntrinsicsAMDGPU.h"
#include "llvm/IR/MDBuilder.h"
#include "llvm/Transforms/Utils/BasicBlockUtils.h"

using namespace llvm;
using ldsan::callsTo;

/// The first store of work-item 0's block into an LDS global after Enter.
static StoreInst *findSlotStore(CallInst *Enter, GlobalVariable *&Slot) {
  BasicBlock *BB = Enter->getParent();
  for (auto It = std::next(Enter->getIterator()); It != BB->end(); ++It)
    if (auto *SI = dyn_cast<StoreInst>(&*It))
      if (auto *GV = dyn_cast<GlobalVariable>(SI->getPointerOperand()->stripPointerCasts());
          GV && GV->getAddressSpace() == 3) {
        Slot = GV;
        return SI;
      }
  return nullptr;
}

/// The workgroup barrier that publishes the block (the first one in BB).
static CallInst *findBarrier(BasicBlock &BB) {
  for (Instruction &I : BB)
    if (auto *II = dyn_cast<IntrinsicInst>(&I))
      if (II->getIntrinsicID() == Intrinsic::amdgcn_s_barrier)
        return II;
  return nullptr;
}

/// Wraps Barrier in the workgroup-scope release/acquire fences of __syncthreads().
static void fenceBarrier(CallInst *Barrier) {
  LLVMContext &Ctx = Barrier->getContext();
  SyncScope::ID Workgroup = Ctx.getOrInsertSyncScopeID("workgroup");
  IRBuilder<> B(Barrier);
  B.CreateFence(AtomicOrdering::Release, Workgroup);
  B.SetInsertPoint(Barrier->getNextNode());
  B.CreateFence(AtomicOrdering::Acquire, Workgroup);
}

/// The barrier right before the (only) call of the kernel exit: in the block
/// that branches to the call's block.
static CallInst *findExitBarrier(Function &K) {
  for (CallInst *CI : callsTo(K, LDSAN_KERNEL_EXIT_NAME))
    if (BasicBlock *Pred = CI->getParent()->getSinglePredecessor())
      return findBarrier(*Pred);
  return nullptr;
}

bool ldsan::guardKernelBlock(Function &K, std::string &Why) {
  SmallVector<CallInst *, 4> Enters = callsTo(K, LDSAN_KERNEL_ENTER_NAME);
  if (Enters.size() > 1) {
    Why = "the lowered kernel calls " LDSAN_KERNEL_ENTER_NAME " twice";
    return false;
  }
  if (Enters.empty()) {
    Why = "the lowered kernel does not call " LDSAN_KERNEL_ENTER_NAME;
    return false;
  }
  CallInst *Enter = Enters[0];
  GlobalVariable *Slot = nullptr;
  StoreInst *SlotStore = findSlotStore(Enter, Slot);
  auto *ToMerge = dyn_cast<BranchInst>(Enter->getParent()->getTerminator());
  if (!SlotStore || !ToMerge || ToMerge->isConditional()) {
    Why = "the block allocation is not followed by a store to the LDS slot and a branch to the kernel body";
    return false;
  }
  BasicBlock *Merge = ToMerge->getSuccessor(0);
  CallInst *Barrier = findBarrier(*Merge);
  if (!Barrier) {
    Why = "no workgroup barrier after the block allocation";
    return false;
  }

  LLVMContext &Ctx = K.getContext();
  MDNode *Unlikely = MDBuilder(Ctx).createUnlikelyBranchWeights();
  Type *SlotTy = SlotStore->getValueOperand()->getType();
  auto *SlotPtrTy = dyn_cast<PointerType>(SlotTy);
  if (!SlotPtrTy) {
    Why = "the LDS slot does not hold a pointer";
    return false;
  }
  DebugLoc Loc = Enter->getDebugLoc();

  // Work-item 0: no block, no poisoning; the slot says so.
  BasicBlock *Alloc = Enter->getParent();
  BasicBlock *Rest = SplitBlock(Alloc, Enter->getNextNode());
  BasicBlock *NoBlock = BasicBlock::Create(Ctx, "ldsan.no_block", &K, Rest);
  IRBuilder<> B(NoBlock);
  B.SetCurrentDebugLocation(Loc);
  B.CreateStore(ConstantPointerNull::get(SlotPtrTy), Slot);
  B.CreateBr(Merge);
  for (PHINode &Phi : Merge->phis())
    Phi.addIncoming(Phi.getIncomingValueForBlock(Rest), NoBlock);
  Alloc->getTerminator()->eraseFromParent();
  B.SetInsertPoint(Alloc);
  B.CreateCondBr(B.CreateICmpEQ(Enter, ConstantInt::get(Enter->getType(), 0), "ldsan.no_block"), NoBlock,
                 Rest, Unlikely);

  CallInst *ExitBarrier = findExitBarrier(K);
  if (!ExitBarrier) {
    Why = "no workgroup barrier before the block is freed";
    return false;
  }
  fenceBarrier(ExitBarrier);
  ExitBarrier->setMetadata(LDSAN_EXIT_BARRIER_MD, MDNode::get(Ctx, {}));
  fenceBarrier(Barrier);

  // Every work-item, after the barrier: leave the kernel without a block.
  BasicBlock *Body = SplitBlock(Merge, Barrier->getNextNode()->getNextNode());
  BasicBlock *Leave = BasicBlock::Create(Ctx, "ldsan.no_block.exit", &K);
  ReturnInst::Create(Ctx, Leave)->setDebugLoc(Loc);
  Merge->getTerminator()->eraseFromParent();
  B.SetInsertPoint(Merge);
  Value *Block = B.CreateLoad(SlotTy, Slot, "ldsan.block");
  B.CreateCondBr(B.CreateIsNull(Block), Leave, Body, Unlikely);
  return true;
}
