//===- EmulatorCalls.cpp - device calls the CPU emulator answers ----------===//
#include "EmulatorCalls.h"

#include "llvm/IR/DebugInfoMetadata.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/Module.h"

#include <cstdlib>
#include <cstring>

using namespace llvm;

bool ldsan::emulatorCompile() {
  const char *Env = std::getenv("LDSAN_EMULATE");
  return Env && *Env && std::strcmp(Env, "0") != 0;
}

/// The header's (and glibc's) shape: assertion, file, line, function, and
/// for __assertfail a character size after them.
static bool isAssertFail(const Function &F) {
  if (F.isDeclaration())
    return false;
  unsigned Want = F.getName() == "__assert_fail" ? 4
                  : F.getName() == "__assertfail" ? 5
                                                  : 0;
  if (!Want || F.arg_size() != Want)
    return false;
  FunctionType *T = F.getFunctionType();
  return T->getParamType(0)->isPointerTy() &&
         T->getParamType(1)->isPointerTy() &&
         T->getParamType(2)->isIntegerTy() &&
         T->getParamType(3)->isPointerTy();
}

static void giveEmulatorBody(Function &F) {
  Module &M = *F.getParent();
  LLVMContext &C = M.getContext();
  Type *Ptr = PointerType::get(C, 0);
  Type *I32 = Type::getInt32Ty(C);
  FunctionCallee Fail = M.getOrInsertFunction(
      "__ldsan_emu_assert_fail",
      FunctionType::get(Type::getVoidTy(C), {Ptr, Ptr, I32, Ptr}, false));
  if (auto *D = dyn_cast<Function>(Fail.getCallee())) {
    D->setDoesNotReturn();
    D->setDoesNotThrow();
  }
  DISubprogram *SP = F.getSubprogram();
  GlobalValue::LinkageTypes Linkage = F.getLinkage(); // weak, as the header's
  F.deleteBody(); // which also makes it external and drops its subprogram
  F.setLinkage(Linkage);
  F.setSubprogram(SP);
  IRBuilder<> B(BasicBlock::Create(C, "entry", &F));
  if (SP)
    B.SetCurrentDebugLocation(DILocation::get(C, SP->getLine(), 0, SP));
  auto Arg = [&](unsigned I, Type *T) {
    Value *V = F.getArg(I);
    if (V->getType() == T)
      return V;
    return T->isPointerTy() ? B.CreateAddrSpaceCast(V, T)
                            : B.CreateZExtOrTrunc(V, T);
  };
  CallInst *Call = B.CreateCall(
      Fail, {Arg(0, Ptr), Arg(1, Ptr), Arg(2, I32), Arg(3, Ptr)});
  Call->setDoesNotReturn();
  B.CreateUnreachable();
}

PreservedAnalyses ldsan::EmulatorCallsPass::run(Module &M,
                                                ModuleAnalysisManager &) {
  bool Changed = false;
  for (Function &F : M)
    if (isAssertFail(F)) {
      giveEmulatorBody(F);
      Changed = true;
    }
  return Changed ? PreservedAnalyses::none() : PreservedAnalyses::all();
}
