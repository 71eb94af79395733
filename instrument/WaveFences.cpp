//===- WaveFences.cpp - fences that order a wave's LDS accesses -----------===//
#include "WaveFences.h"

#include "llvm/IR/InstIterator.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/IR/IntrinsicsAMDGPU.h"

using namespace llvm;

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

// A fence is one side of a workgroup barrier (__syncthreads(): release
// fence, s_barrier, acquire fence) when the instruction before or after it
// is the s_barrier.
static bool besideBarrier(const Instruction &I) {
  return isIntrinsic(I.getPrevNode(), Intrinsic::amdgcn_s_barrier) ||
         isIntrinsic(I.getNextNode(), Intrinsic::amdgcn_s_barrier);
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
  for (Instruction *I : Fences) {
    Function *WaveBarrier = Intrinsic::getOrInsertDeclaration(&M, Intrinsic::amdgcn_wave_barrier);
    CallInst::Create(WaveBarrier, {}, "", std::next(I->getIterator()))->setDebugLoc(I->getDebugLoc());
  }
  return Fences.size();
}
