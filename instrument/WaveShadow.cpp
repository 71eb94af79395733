//===- WaveShadow.cpp - the wave of work-item 0 writes the block's shadow -===//
//
// After BlockGuard, the prologue and epilogue read
//
//   WId:     %c = work-item id == 0,0,0; if (%c) goto Malloc else goto Merge
//   Malloc:  %b = call __ldsan_kernel_enter(size, desc); <null check, slot store, redzones>
//   ...
//   Free:    call __ldsan_kernel_exit(%b', desc)    (reached when %c, through a phi)
//
// and become
//
//   WId:     %w = ballot(%c) != 0; if (%w) goto Malloc else goto Merge
//   Malloc:  if (%c) goto Enter else goto Wave
//   Enter:   %b1 = call __ldsan_kernel_enter(size, desc); goto Wave
//   Wave:    fence syncscope("workgroup") acq_rel
//            %b = readfirstlane(phi [%b1, Enter], [0, Malloc])
//            call __ldsan_kernel_enter_wave(%b, desc)
//            <null check, slot store, redzones: every lane, same values;
//             no redzone calls where the descriptor has the shadow image>
//   ...
//   Free:    call __ldsan_kernel_exit_wave(%b', desc)
//
// %w is the same in every lane of a wave (true in the wave of work-item 0,
// whose lane 0 it is), so the branches on it do not diverge, and the phi the
// pass made of %c for the epilogue is %w now. The pass's redzone poisoning
// after the slot store runs on the whole wave too: after enter_wave's
// unpoisoning, as it ran after enter before; poisoning is shared the same
// way. Only the wave of work-item 0 reaches Free; exit_wave does what exit
// did on work-item 0 on its lowest lane, after the wave's poisoning. On a
// CPU emulator that runs each work-item as a wave of its own,
// ballot(%c) is %c and this is the old prologue.
//
//===----------------------------------------------------------------------===//
#include "WaveShadow.h"

#include "CallsTo.h"
#include "Runtime.h"

#include "ldsan/entry_points.def"

#include "llvm/IR/Constants.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/IntrinsicsAMDGPU.h"
#include "llvm/IR/Module.h"
#include "llvm/Transforms/Utils/BasicBlockUtils.h"
#include "llvm/Transforms/Utils/Local.h"

using namespace llvm;
using ldsan::callsTo;

/// The only call of Name in K, or null.
static CallInst *onlyCall(Function &K, StringRef Name) {
  SmallVector<CallInst *, 4> Calls = callsTo(K, Name);
  return Calls.size() == 1 ? Calls[0] : nullptr;
}

/// The conditional branch that leads to BB from its only predecessor, or null.
static BranchInst *branchInto(BasicBlock *BB) {
  BasicBlock *Pred = BB->getSinglePredecessor();
  auto *Br = Pred ? dyn_cast<BranchInst>(Pred->getTerminator()) : nullptr;
  return Br && Br->isConditional() && Br->getSuccessor(0) == BB ? Br : nullptr;
}

/// Whether Cond (guarding the exit) is true exactly where ToEnter went to the
/// allocation: the same value, or the pass's phi that is false on ToEnter's
/// other edge (LLVM 22).
static bool followsEnter(Value *Cond, BranchInst *ToEnter) {
  if (Cond == ToEnter->getCondition())
    return true;
  auto *Phi = dyn_cast<PHINode>(Cond);
  if (!Phi || Phi->getBasicBlockIndex(ToEnter->getParent()) < 0)
    return false;
  auto *C = dyn_cast<ConstantInt>(Phi->getIncomingValueForBlock(ToEnter->getParent()));
  return C && C->isZero();
}

/// Replaces BB's unconditional terminator by `if (Cond) goto Then else goto Else`.
static void branchOn(BasicBlock *BB, Value *Cond, BasicBlock *Then, BasicBlock *Else) {
  Instruction *Old = BB->getTerminator();
  BranchInst *New = BranchInst::Create(Then, Else, Cond, Old->getIterator());
  New->setDebugLoc(Old->getDebugLoc());
  Old->eraseFromParent();
}

/// Deletes K's calls of the LDS pass's redzone poisoning, and what computed
/// their arguments if nothing else uses it.
static void dropRedzoneCalls(Function &K) {
  for (CallInst *CI : callsTo(K, "__asan_poison_region")) {
    SmallVector<Value *, 2> Args(CI->args());
    CI->eraseFromParent();
    for (Value *A : Args)
      RecursivelyDeleteTriviallyDeadInstructions(A);
  }
}

bool ldsan::shareBlockShadow(Function &K, bool HasShadowImage, std::string &Why) {
  CallInst *Enter = onlyCall(K, LDSAN_KERNEL_ENTER_NAME);
  CallInst *Exit = onlyCall(K, LDSAN_KERNEL_EXIT_NAME);
  BranchInst *ToEnter = Enter ? branchInto(Enter->getParent()) : nullptr;
  BranchInst *ToExit = Exit ? branchInto(Exit->getParent()) : nullptr;
  if (!ToEnter || !ToExit || !followsEnter(ToExit->getCondition(), ToEnter)) {
    Why = "the block's allocation and release are not each called once behind one work-item-0 condition";
    return false;
  }
  Module &M = *K.getParent();
  LLVMContext &Ctx = K.getContext();
  Type *I64 = Type::getInt64Ty(Ctx);
  Type *Void = Type::getVoidTy(Ctx);
  FunctionCallee EnterWave = M.getOrInsertFunction(LDSAN_KERNEL_ENTER_WAVE_NAME, FunctionType::get(Void, {I64, I64}, false));
  FunctionCallee ExitWave = M.getOrInsertFunction(LDSAN_KERNEL_EXIT_WAVE_NAME, FunctionType::get(Void, {I64, I64}, false));

  // The wave of work-item 0 takes the pass's work-item-0 branch.
  Value *IsItem0 = ToEnter->getCondition();
  IRBuilder<> B(ToEnter);
  B.SetCurrentDebugLocation(ToEnter->getDebugLoc());
  CallInst *Ballot = B.CreateIntrinsic(Intrinsic::amdgcn_ballot, {I64}, {IsItem0});
  markRuntimeCode(*Ballot);
  ToEnter->setCondition(B.CreateICmpNE(Ballot, ConstantInt::get(I64, 0), "ldsan.wave0"));

  // Prologue: enter on work-item 0, its block to every lane, the shadow by all.
  BasicBlock *Alloc = Enter->getParent();
  BasicBlock *EnterBB = SplitBlock(Alloc, Enter);
  EnterBB->setName("ldsan.enter");
  BasicBlock *Wave = SplitBlock(EnterBB, Enter->getNextNode());
  Wave->setName("ldsan.enter.wave");
  branchOn(Alloc, IsItem0, EnterBB, Wave);
  B.SetInsertPoint(Wave, Wave->getFirstInsertionPt());
  B.SetCurrentDebugLocation(Enter->getDebugLoc());
  PHINode *Got = B.CreatePHI(I64, 2, "ldsan.block.item0");
  Got->addIncoming(Enter, EnterBB);
  Got->addIncoming(ConstantInt::get(I64, 0), Alloc);
  // Work-item 0's header stores are done before its wave reads them: a
  // workgroup-scope fence (s_waitcnt on gfx9: the wave shares its L1).
  B.CreateFence(AtomicOrdering::AcquireRelease, Ctx.getOrInsertSyncScopeID("workgroup"));
  CallInst *Block = B.CreateIntrinsic(Intrinsic::amdgcn_readfirstlane, {I64}, {Got}, nullptr, "ldsan.block");
  markRuntimeCode(*Block);
  Enter->replaceUsesWithIf(Block, [&](Use &U) { return U.getUser() != Got; });
  B.CreateCall(EnterWave, {Block, Enter->getArgOperand(1)})->setDebugLoc(Enter->getDebugLoc());

  // Epilogue: the wave poisons the block and its lowest lane gives it back.
  CallInst *Wave2 = CallInst::Create(ExitWave, {Exit->getArgOperand(0), Exit->getArgOperand(1)}, "", Exit->getIterator());
  Wave2->setDebugLoc(Exit->getDebugLoc());
  Exit->eraseFromParent();
  if (HasShadowImage)
    dropRedzoneCalls(K);
  return true;
}
