//===- CallsTo.cpp - the direct calls of one function in another ----------===//
#include "CallsTo.h"

#include "llvm/IR/InstIterator.h"

using namespace llvm;

SmallVector<CallInst *, 4> ldsan::callsTo(Function &F, StringRef Callee) {
  SmallVector<CallInst *, 4> Calls;
  for (Instruction &I : instructions(F))
    if (auto *CI = dyn_cast<CallInst>(&I))
      if (Function *G = CI->getCalledFunction(); G && G->getName() == Callee)
        Calls.push_back(CI);
  return Calls;
}
