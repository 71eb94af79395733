//===- InlineBlockCalls.cpp - the runtime's block calls become kernel code -===//
#include "InlineBlockCalls.h"

#include "ldsan/entry_points.def"

#include "llvm/IR/Instructions.h"
#include "llvm/Transforms/Utils/Cloning.h"

using namespace llvm;

bool ldsan::inlineBlockCalls(Module &M, std::string &Why) {
  for (const char *Name : {LDSAN_KERNEL_ENTER_NAME, LDSAN_KERNEL_EXIT_NAME}) {
    Function *F = M.getFunction(Name);
    if (!F || F->isDeclaration())
      continue;
    SmallVector<CallBase *, 8> Calls;
    for (User *U : F->users())
      if (auto *CB = dyn_cast<CallBase>(U);
          CB && CB->getCalledFunction() == F &&
          CB->getFunction()->getCallingConv() == CallingConv::AMDGPU_KERNEL)
        Calls.push_back(CB);
    for (CallBase *CB : Calls) {
      InlineFunctionInfo IFI;
      InlineResult R = InlineFunction(*CB, IFI);
      if (!R.isSuccess()) {
        Why = std::string("cannot inline ") + Name + " into kernel " +
              CB->getFunction()->getName().str() + ": " +
              R.getFailureReason();
        return false;
      }
    }
    if (F->use_empty() && F->hasLocalLinkage())
      F->eraseFromParent();
  }
  return true;
}
