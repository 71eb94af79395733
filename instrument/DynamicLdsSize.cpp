//===- DynamicLdsSize.cpp - the dynamic LDS size from the dispatch --------===//
#include "DynamicLdsSize.h"

#include "ldsan/entry_points.def"

#include "llvm/IR/InstIterator.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/IR/IntrinsicsAMDGPU.h"
#include "llvm/IR/Module.h"

using namespace llvm;

/// Byte offset of hidden_dynamic_lds_size in the implicit arguments (code object v5).
static constexpr int64_t HiddenDynamicLdsSize = 120;

/// Whether Ptr is the implicit-argument pointer plus HiddenDynamicLdsSize.
static bool isHiddenDynamicLdsSize(Value *Ptr, const DataLayout &DL) {
  APInt Offset(DL.getIndexTypeSizeInBits(Ptr->getType()), 0);
  Value *Base = Ptr->stripAndAccumulateConstantOffsets(DL, Offset, /*AllowNonInbounds=*/true);
  auto *II = dyn_cast<IntrinsicInst>(Base);
  return II && II->getIntrinsicID() == Intrinsic::amdgcn_implicitarg_ptr &&
         Offset == HiddenDynamicLdsSize;
}

/// Erases the `llvm.donothing() ["ExplicitUse"(@Marker)]` calls in K, then
/// Marker itself if nothing else uses it.
static void dropMarker(Function &K, GlobalVariable *Marker) {
  SmallVector<Instruction *, 2> Dead;
  for (Instruction &I : instructions(K))
    if (auto *II = dyn_cast<IntrinsicInst>(&I); II && II->getIntrinsicID() == Intrinsic::donothing)
      for (unsigned B = 0; B < II->getNumOperandBundles(); ++B)
        for (const Use &U : II->getOperandBundleAt(B).Inputs)
          if (U->stripPointerCasts() == Marker)
            Dead.push_back(II);
  for (Instruction *I : Dead)
    I->eraseFromParent();
  Marker->removeDeadConstantUsers();
  if (Marker->use_empty())
    Marker->eraseFromParent();
}

unsigned ldsan::useDispatchDynamicLdsSize(Function &K) {
  Module &M = *K.getParent();
  const DataLayout &DL = M.getDataLayout();
  SmallVector<LoadInst *, 2> Loads;
  for (Instruction &I : instructions(K))
    if (auto *LI = dyn_cast<LoadInst>(&I);
        LI && LI->getType()->isIntegerTy(32) && isHiddenDynamicLdsSize(LI->getPointerOperand(), DL))
      Loads.push_back(LI);
  if (!Loads.empty()) {
    FunctionCallee Size =
        M.getOrInsertFunction(LDSAN_DYNAMIC_LDS_SIZE_NAME, Type::getInt32Ty(M.getContext()));
    for (LoadInst *LI : Loads) {
      CallInst *Call = CallInst::Create(Size, "ldsan.dynamic_lds_size", LI->getIterator());
      Call->setDebugLoc(LI->getDebugLoc());
      LI->replaceAllUsesWith(Call);
      LI->eraseFromParent();
    }
  }
  if (GlobalVariable *Marker = M.getNamedGlobal(("llvm.amdgcn." + K.getName() + ".dynlds").str()))
    dropMarker(K, Marker);
  return Loads.size();
}
