//===- WaveFences.cpp - fences that order a wave's LDS accesses -----------===//
#include "WaveFences.h"

#include "AsanShadow.h"

#include "llvm/Analysis/ValueTracking.h"
#include "llvm/IR/CFG.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/IR/IntrinsicsAMDGPU.h"

using namespace llvm;

static constexpr unsigned FlatAS = 0, LdsAS = 3;

// A fence wider than one work-item: an IR fence, or (unoptimized code of
// ROCm 5.2's headers) a call of the device library's __atomic_work_item_fence.
static bool isFence(const Instruction &I) {
  if (auto *F = dyn_cast<FenceInst>(&I))
    return F->getSyncScopeID() != SyncScope::SingleThread;
  auto *CI = dyn_cast<CallInst>(&I);
  const Function *Callee = CI ? CI->getCalledFunction() : nullptr;
  return Callee && Callee->getName() == "__atomic_work_item_fence";
}

static bool isIntrinsic(const Instruction *I, Intrinsic::ID ID) {
  auto *II = dyn_cast_or_null<IntrinsicInst>(I);
  return II && II->getIntrinsicID() == ID;
}

// Cannot touch LDS or run code that may: no memory access; a private,
// global or constant one (unoptimized code reloads the fence's arguments
// from their allocas, and ASan checks them: shadow loads, report calls); a
// lifetime marker; the unreachable after an ASan report.
static bool isQuiet(const Instruction &I) {
  if (!I.mayReadOrWriteMemory() || isIntrinsic(&I, Intrinsic::lifetime_start) ||
      isIntrinsic(&I, Intrinsic::lifetime_end) || isIntrinsic(&I, Intrinsic::amdgcn_unreachable))
    return true;
  if (auto *CB = dyn_cast<CallBase>(&I)) {
    const Function *Callee = CB->getCalledFunction();
    return Callee && Callee->getName().starts_with("__asan_");
  }
  const Value *P = getLoadStorePointerOperand(&I);
  if (!P)
    return false;
  unsigned AS = P->getType()->getPointerAddressSpace();
  if (AS == FlatAS)
    return ldsan::isShadowPointer(P) || isa<AllocaInst>(getUnderlyingObject(P));
  return AS != LdsAS;
}

// Whether every path from fence F, forward (or backward), meets an s_barrier
// before anything that is not quiet (and before the function's exit or
// entry, and F again). Gives up (no) past 64 blocks.
static bool barrierOnEveryPath(const Instruction &F, bool Forward) {
  SmallPtrSet<const BasicBlock *, 16> Seen;
  SmallVector<const Instruction *, 16> Work;
  // The path leaves BB: on along each successor (predecessor) not seen yet.
  auto Across = [&](const BasicBlock *BB) {
    if (Forward ? succ_empty(BB) : pred_empty(BB))
      return false;
    auto Next = [&](const BasicBlock *N) {
      if (Seen.insert(N).second)
        Work.push_back(Forward ? &N->front() : N->getTerminator());
    };
    if (Forward)
      for (const BasicBlock *N : successors(BB))
        Next(N);
    else
      for (const BasicBlock *N : predecessors(BB))
        Next(N);
    return Seen.size() <= 64;
  };
  if (const Instruction *Start = Forward ? F.getNextNode() : F.getPrevNode())
    Work.push_back(Start);
  else if (!Across(F.getParent()))
    return false;
  while (!Work.empty()) {
    for (const Instruction *I = Work.pop_back_val();;) {
      if (isIntrinsic(I, Intrinsic::amdgcn_s_barrier))
        break; /* this path is fine */
      if (I == &F || !isQuiet(*I))
        return false;
      const Instruction *N = Forward ? I->getNextNode() : I->getPrevNode();
      if (!N) {
        if (!Across(I->getParent()))
          return false;
        break;
      }
      I = N;
    }
  }
  return true;
}

// A fence is one side of a workgroup barrier (__syncthreads(): release
// fence, s_barrier, acquire fence; in unoptimized code with its arguments'
// loads, their ASan checks and the device library's switch over the scope
// between) when an s_barrier follows it, or precedes it, on every path with
// nothing that may touch LDS between.
static bool besideBarrier(const Instruction &I) {
  return barrierOnEveryPath(I, /*Forward=*/true) || barrierOnEveryPath(I, /*Forward=*/false);
}

// Device-library code (ROCm's ockl, ocml, oclc and the fence function
// itself): its fences are its own business (grid sync, workgroup reductions).
static bool isDeviceLibrary(const Function &F) {
  StringRef N = F.getName();
  return N.starts_with("__ockl_") || N.starts_with("__ocml_") || N.starts_with("__oclc_") ||
         N == "__atomic_work_item_fence";
}

unsigned ldsan::markWaveOrderingFences(Module &M) {
  SmallVector<Instruction *, 8> Fences;
  for (Function &F : M) {
    if (F.isDeclaration() || isDeviceLibrary(F))
      continue;
    for (Instruction &I : instructions(F))
      if (isFence(I) && !besideBarrier(I) &&
          !isIntrinsic(I.getNextNode(), Intrinsic::amdgcn_wave_barrier))
        Fences.push_back(&I);
  }
  if (Fences.empty())
    return 0;
  Function *WaveBarrier = Intrinsic::getOrInsertDeclaration(&M, Intrinsic::amdgcn_wave_barrier);
  for (Instruction *I : Fences)
    CallInst::Create(WaveBarrier, {}, "", std::next(I->getIterator()))->setDebugLoc(I->getDebugLoc());
  return Fences.size();
}
