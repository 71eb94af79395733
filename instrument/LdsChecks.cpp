//===- LdsChecks.cpp - LDS race and uninitialized-read checks -------------===//
#include "LdsChecks.h"

#include "CallsTo.h"
#include "LdsAccess.h"
#include "MemOps.h"

#include "ldsan/entry_points.def"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Analysis/ValueTracking.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/IR/IntrinsicsAMDGPU.h"
#include "llvm/Support/CommandLine.h"

#include <cstdlib>

using namespace llvm;

static cl::opt<std::string> LdsChecksOpt(
    "ldsan-lds-checks", cl::init(""),
    cl::desc("ldsan: LDS checks to add (races,uninit); default: "
             "$LDSAN_LDS_CHECKS, which ldsan-cc -fsanitize-lds= sets"));


bool ldsan::ldsChecksRequested(unsigned &Mask, std::string &Why) {
  Mask = 0;
  std::string Value = LdsChecksOpt;
  if (Value.empty())
    if (const char *Env = std::getenv("LDSAN_LDS_CHECKS"))
      Value = Env;
  SmallVector<StringRef, 4> Parts;
  StringRef(Value).split(Parts, ',', -1, false);
  for (StringRef P : Parts) {
    P = P.trim();
    if (P == "races")
      Mask |= LDSAN_LDS_CHECK_RACES;
    else if (P == "uninit")
      Mask |= LDSAN_LDS_CHECK_UNINIT;
    else if (P != "none") {
      Why = "unknown LDS check '" + P.str() + "' in -fsanitize-lds=" + Value +
            " (LDSAN_LDS_CHECKS)";
      return false;
    }
  }
  return true;
}

void ldsan::addLdsAccessChecks(Module &M, unsigned Mask) {
  LLVMContext &Ctx = M.getContext();
  Type *I32 = Type::getInt32Ty(Ctx);
  FunctionCallee Check = M.getOrInsertFunction(LDSAN_LDS_CHECK_NAME, Type::getVoidTy(Ctx), I32, I32);
  FunctionCallee CheckFlat =
      M.getOrInsertFunction(LDSAN_LDS_CHECK_FLAT_NAME, Type::getVoidTy(Ctx), Type::getInt64Ty(Ctx), I32);
  FunctionCallee Barrier =
      M.getOrInsertFunction(LDSAN_LDS_CHECK_BARRIER_NAME, Type::getVoidTy(Ctx), Type::getInt64Ty(Ctx), I32);
  FunctionCallee WaveBarrier; // races only: wave barriers order nothing for uninitialized reads
  if (Mask & LDSAN_LDS_CHECK_RACES)
    WaveBarrier = M.getOrInsertFunction(LDSAN_LDS_CHECK_WAVE_BARRIER_NAME, Type::getVoidTy(Ctx));
  const DataLayout &DL = M.getDataLayout();
  for (Function &F : M) {
    if (F.isDeclaration())
      continue;
    MemScan Scan = scanMemory(F, DL, [](const MemAccess &A) { return inOrMaybeLds(A.P); });
    for (const MemAccess &A : Scan.Accesses) {
      IRBuilder<> B(A.I);
      bool Flat = A.P->getType()->getPointerAddressSpace() == FlatAS;
      Value *Where = B.CreatePtrToInt(A.P, Flat ? B.getInt64Ty() : I32);
      B.CreateCall(Flat ? CheckFlat : Check, {Where, ConstantInt::get(I32, ldsCheckKind(A) | Mask)})
          ->setDebugLoc(A.I->getDebugLoc());
    }
    // memcpy, memmove and memset (a struct copy at -O0): a read of the source
    // and a write of the destination, of the length (clamped to the field).
    for (CallBase *MI : Scan.MemOps) {
      IRBuilder<> B(MI);
      Value *Len = memOpSizeField(B, MI);
      auto checkOne = [&](Value *P, uint32_t Flags) {
        if (!inOrMaybeLds(P))
          return;
        bool Flat = P->getType()->getPointerAddressSpace() == FlatAS;
        Value *Where = B.CreatePtrToInt(P, Flat ? B.getInt64Ty() : I32);
        Value *SizeKind = B.CreateOr(Len, ConstantInt::get(I32, Flags | Mask));
        B.CreateCall(Flat ? CheckFlat : Check, {Where, SizeKind})->setDebugLoc(MI->getDebugLoc());
      };
      if (MI->getArgOperand(1)->getType()->isPointerTy())  /* memcpy, memmove: the source */
        checkOne(MI->getArgOperand(1), 0);
      checkOne(MI->getArgOperand(0), LDSAN_LDS_CHECK_STORE);
    }
    // The barrier's pc (s_getpc beside it, at its line): barrier divergence
    // is two waves past one barrier with different pcs.
    for (IntrinsicInst *CI : Scan.Barriers) {
      IRBuilder<> B(CI->getNextNode());
      B.SetCurrentDebugLocation(CI->getDebugLoc());
      Value *Pc = B.CreateIntrinsic(B.getInt64Ty(), Intrinsic::amdgcn_s_getpc, ArrayRef<Value *>{});
      B.CreateCall(Barrier, {Pc, ConstantInt::get(I32, Mask)});
    }
    // A wave barrier orders its wave's LDS accesses before and after it
    // (the race checks count the wave's wave barriers per barrier epoch).
    if (Mask & LDSAN_LDS_CHECK_RACES)
      for (IntrinsicInst *CI : Scan.WaveBarriers)
        CallInst::Create(WaveBarrier, {}, "", std::next(CI->getIterator()))->setDebugLoc(CI->getDebugLoc());
  }
}

bool ldsan::addLdsChecksPrologue(Function &K, unsigned Mask, std::string &Why) {
  Module &M = *K.getParent();
  SmallVector<CallInst *, 4> Enters = callsTo(K, LDSAN_KERNEL_ENTER_NAME);
  SmallVector<CallInst *, 4> Waves = callsTo(K, LDSAN_KERNEL_ENTER_WAVE_NAME);
  if (Enters.size() != 1 || Waves.size() != 1) {
    Why = "the lowered kernel's prologue does not call " LDSAN_KERNEL_ENTER_NAME " and " LDSAN_KERNEL_ENTER_WAVE_NAME
          " once each";
    return false;
  }
  FunctionCallee Checked = M.getOrInsertFunction(LDSAN_KERNEL_ENTER_CHECKED_NAME, Enters[0]->getFunctionType());
  Enters[0]->setCalledFunction(Checked);
  FunctionCallee Setup = M.getOrInsertFunction(
      LDSAN_LDS_CHECKS_ENTER_NAME,
      FunctionType::get(Type::getVoidTy(M.getContext()), {Type::getInt64Ty(M.getContext())}, false));
  CallInst *Wave = Waves[0];
  CallInst *Call = CallInst::Create(Setup, {Wave->getArgOperand(0)});
  Call->insertAfter(Wave->getIterator());
  Call->setDebugLoc(Wave->getDebugLoc());

  // After the exit barrier (BlockGuard.h), which every work-item reaches:
  // barrier divergence at the kernel's last barrier.
  CallInst *Exit = nullptr;
  for (Instruction &I : instructions(K))
    if (auto *CI = dyn_cast<CallInst>(&I); CI && CI->getMetadata(LDSAN_EXIT_BARRIER_MD))
      Exit = CI;
  if (!Exit) {
    Why = "the lowered kernel has no exit barrier marked by the block guard";
    return false;
  }
  Instruction *After = Exit->getNextNode();
  if (isa<FenceInst>(After)) /* the acquire that follows it */
    After = After->getNextNode();
  Type *I32 = Type::getInt32Ty(M.getContext());
  FunctionCallee AtExit = M.getOrInsertFunction(LDSAN_LDS_CHECK_EXIT_NAME, Type::getVoidTy(M.getContext()), I32);
  CallInst *Check = CallInst::Create(AtExit, {ConstantInt::get(I32, Mask)}, "", After->getIterator());
  Check->setDebugLoc(Exit->getDebugLoc());
  return true;
}
