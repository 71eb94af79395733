//===- InlineBlockCalls.cpp - the runtime's block calls become kernel code -===//
#include "InlineBlockCalls.h"

#include "ldsan/entry_points.def"

#include "llvm/IR/DebugInfoMetadata.h"
#include "llvm/IR/Instructions.h"
#include "llvm/Transforms/Utils/Cloning.h"

using namespace llvm;

bool ldsan::inlineBlockCalls(Module &M, std::string &Why) {
  for (const char *Name : {LDSAN_KERNEL_ENTER_NAME, LDSAN_KERNEL_ENTER_CHECKED_NAME, LDSAN_KERNEL_EXIT_NAME,
                           LDSAN_KERNEL_ENTER_WAVE_NAME, LDSAN_KERNEL_EXIT_WAVE_NAME}) {
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
      // The inlined runtime has no debug info: its code takes the call's
      // location, which the LDS lowering copied from the kernel's first
      // instruction (often a threadIdx helper in a HIP header). A report from
      // there (block too large, store full, bad free) names the kernel's own
      // line instead.
      if (DISubprogram *SP = CB->getFunction()->getSubprogram())
        CB->setDebugLoc(DILocation::get(CB->getContext(), SP->getScopeLine() ? SP->getScopeLine() : SP->getLine(),
                                        0, SP));
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
