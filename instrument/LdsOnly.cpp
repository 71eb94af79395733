//===- LdsOnly.cpp - the LDS-only mode (ldsan-cc -fsanitize=lds) ----------===//
#include "LdsOnly.h"

#include "LdsAccess.h"
#include "MemOps.h"

#include "ldsan/abi.h"
#include "ldsan/entry_points.def"

#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/IR/PatternMatch.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Transforms/Utils/Cloning.h"

#include <cstdlib>
#include <cstring>

using namespace llvm;
using namespace llvm::PatternMatch;

static cl::opt<bool> LdsOnlyOpt(
    "ldsan-lds-only", cl::init(false),
    cl::desc("ldsan: instrument LDS in modules built without "
             "AddressSanitizer (default: $LDSAN_LDS_ONLY, which ldsan-cc "
             "-fsanitize=lds sets)"));

static constexpr const char *NoSanitizeFlag = "nosanitize_address";

bool ldsan::ldsOnlyRequested() {
  if (LdsOnlyOpt)
    return true;
  const char *Env = std::getenv("LDSAN_LDS_ONLY");
  return Env && *Env && std::strcmp(Env, "0") != 0;
}

void ldsan::prepareLdsOnly(Module &M, LdsOnlyMarks &Marks) {
  M.addModuleFlag(Module::Max, NoSanitizeFlag, 1);
  for (Function &F : M)
    if (!F.isDeclaration() && !F.hasFnAttribute(Attribute::SanitizeAddress)) {
      F.addFnAttr(Attribute::SanitizeAddress);
      Marks.Marked.push_back(&F);
    }
}

void ldsan::undoLdsOnly(Module &M, const LdsOnlyMarks &Marks) {
  for (Function *F : Marks.Marked)
    F->removeFnAttr(Attribute::SanitizeAddress);
  NamedMDNode *Flags = M.getModuleFlagsMetadata();
  if (!Flags)
    return;
  SmallVector<MDNode *, 8> Keep;
  for (MDNode *Flag : Flags->operands()) {
    auto *Key = Flag->getNumOperands() > 1
                    ? dyn_cast<MDString>(Flag->getOperand(1))
                    : nullptr;
    if (!Key || Key->getString() != NoSanitizeFlag)
      Keep.push_back(Flag);
  }
  Flags->clearOperands();
  for (MDNode *Flag : Keep)
    Flags->addOperand(Flag);
}

void ldsan::addFlatLdsBoundsChecks(Module &M) {
  LLVMContext &Ctx = M.getContext();
  Type *I32 = Type::getInt32Ty(Ctx), *I64 = Type::getInt64Ty(Ctx);
  FunctionCallee Check = M.getOrInsertFunction(LDSAN_FLAT_LDS_ACCESS_NAME, Type::getVoidTy(Ctx), I64, I32);
  const DataLayout &DL = M.getDataLayout();
  for (Function &F : M) {
    if (F.isDeclaration())
      continue;
    MemScan Scan = scanMemory(F, DL, [](const MemAccess &A) {
      return A.P->getType()->getPointerAddressSpace() == FlatAS && mayBeLds(A.P);
    });
    for (const MemAccess &A : Scan.Accesses) {
      IRBuilder<> B(A.I);
      B.CreateCall(Check, {B.CreatePtrToInt(A.P, I64), ConstantInt::get(I32, ldsCheckKind(A))})
          ->setDebugLoc(A.I->getDebugLoc());
    }
    for (CallBase *MI : Scan.MemOps) {
      IRBuilder<> B(MI);
      Value *Len = memOpSizeField(B, MI);
      auto checkOne = [&](Value *P, uint32_t Flags) {
        if (P->getType()->getPointerAddressSpace() != FlatAS || !mayBeLds(P))
          return;
        B.CreateCall(Check, {B.CreatePtrToInt(P, I64), B.CreateOr(Len, ConstantInt::get(I32, Flags))})
            ->setDebugLoc(MI->getDebugLoc());
      };
      if (MI->getArgOperand(1)->getType()->isPointerTy()) // memcpy, memmove: the source
        checkOne(MI->getArgOperand(1), 0);
      checkOne(MI->getArgOperand(0), LDSAN_LDS_CHECK_STORE);
    }
  }
  if (Function *Decl = M.getFunction(LDSAN_FLAT_LDS_ACCESS_NAME); Decl && Decl->use_empty())
    Decl->eraseFromParent();
}

/// Whether V is the pass's shadow address computation: (x >> 3) + ASan's offset.
static bool isAsanShadowAdd(Instruction &I) {
  return match(&I, m_Add(m_LShr(m_Value(), m_SpecificInt(LDSAN_SHADOW_SCALE)),
                         m_SpecificInt(LDSAN_SHADOW_OFFSET)));
}

/// Whether I calls one of ASan's report entry points (the pass's checks).
static bool isAsanReport(Instruction &I) {
  auto *CB = dyn_cast<CallBase>(&I);
  Function *Callee = CB ? CB->getCalledFunction() : nullptr;
  return Callee && Callee->getName().starts_with("__asan_report_");
}

bool ldsan::useOwnShadow(Module &M, std::string &Why) {
  LLVMContext &Ctx = M.getContext();
  FunctionCallee Offset = M.getOrInsertFunction(
      LDSAN_OWN_SHADOW_OFFSET_NAME, FunctionType::get(Type::getInt64Ty(Ctx), false));
  unsigned Rewritten = 0, Reports = 0;
  for (Function &F : M) {
    if (F.isDeclaration())
      continue;
    SmallVector<Instruction *, 16> Adds;
    for (Instruction &I : instructions(F)) {
      if (isAsanShadowAdd(I))
        Adds.push_back(&I);
      Reports += isAsanReport(I);
    }
    if (Adds.empty())
      continue;
    IRBuilder<> B(&*F.getEntryBlock().getFirstInsertionPt());
    CallInst *Own = B.CreateCall(Offset, {}, "ldsan.shadow.offset");
    for (Instruction *Add : Adds)
      Add->setOperand(1, Own);
    Rewritten += Adds.size();
  }
  if (Reports && !Rewritten) {
    Why = "the LDS lowering checks accesses but builds no shadow address "
          "(addr >> 3) + 0x7FFF8000 that the LDS-only mode could redirect";
    return false;
  }
  for (Function &F : M)
    F.removeFnAttr(Attribute::SanitizeAddress);
  if (Function *Decl = M.getFunction(LDSAN_OWN_SHADOW_OFFSET_NAME);
      Decl && Decl->use_empty())
    Decl->eraseFromParent();
  return true;
}

bool ldsan::inlineOwnShadowOffset(Module &M, std::string &Why) {
  Function *F = M.getFunction(LDSAN_OWN_SHADOW_OFFSET_NAME);
  if (!F)
    return true;
  if (F->isDeclaration()) {
    Why = std::string("the device runtime does not define ") +
          LDSAN_OWN_SHADOW_OFFSET_NAME + ": it is not the LDS-only runtime "
          "(ldsan-rt-lds.bc)";
    return false;
  }
  SmallVector<CallBase *, 16> Calls;
  for (User *U : F->users())
    if (auto *CB = dyn_cast<CallBase>(U); CB && CB->getCalledFunction() == F)
      Calls.push_back(CB);
  for (CallBase *CB : Calls) {
    InlineFunctionInfo IFI;
    InlineResult R = InlineFunction(*CB, IFI);
    if (!R.isSuccess()) {
      Why = std::string("cannot inline ") + LDSAN_OWN_SHADOW_OFFSET_NAME +
            " into " + CB->getFunction()->getName().str() + ": " +
            R.getFailureReason();
      return false;
    }
  }
  return true;
}
