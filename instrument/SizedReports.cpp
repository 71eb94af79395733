//===- SizedReports.cpp - real sizes for byte-checked LDS accesses --------===//
//
// The shape upstream emits for one byte check (AMDGPUAsanInstrumentation.cpp,
// instrumentAddress's unusual-size path, LLVM 22):
//
//   head:   %a = ptrtoint P            (first byte)   or
//           %a = ptrtoint (inttoptr (add (ptrtoint P), size-1))   (last byte)
//           ... shadow load, compares, ballot
//           br %any, label %asan.reportN, label %tail
//   asan.reportN: br %mine, label %crash, label %join
//   crash:  call @__asan_report_store1(i64 %a); call @llvm.amdgcn.unreachable; br %join
//   join:   br %tail
//   tail:   [the last byte's check, same shape]  then  the access to P
//
// From a report we walk forward along that path (skipping the other check and
// never entering an asan.report block) to the first memory access through P.
//
//===----------------------------------------------------------------------===//
#include "SizedReports.h"

#include "ldsan/entry_points.def"

#include "llvm/IR/Attributes.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/IntrinsicInst.h"

using namespace llvm;

namespace {

constexpr unsigned MaxSteps = 64;  // instructions walked from a report to its access

/// The pointer P whose first or last byte report argument A checks, or null.
Value *checkedPointer(Value *A) {
  auto *ToInt = dyn_cast<PtrToIntInst>(A);
  if (!ToInt)
    return nullptr;
  Value *P = ToInt->getPointerOperand();
  // Last byte: inttoptr (add (ptrtoint P), C).
  if (auto *ToPtr = dyn_cast<IntToPtrInst>(P))
    if (auto *Add = dyn_cast<BinaryOperator>(ToPtr->getOperand(0)))
      if (Add->getOpcode() == Instruction::Add && isa<ConstantInt>(Add->getOperand(1)))
        if (auto *Base = dyn_cast<PtrToIntInst>(Add->getOperand(0)))
          return Base->getPointerOperand();
  return P;
}

/// The pointer operand and stored/loaded type of a memory access, or null.
Value *accessPointer(Instruction &I, Type *&Ty) {
  if (auto *L = dyn_cast<LoadInst>(&I)) { Ty = L->getType(); return L->getPointerOperand(); }
  if (auto *S = dyn_cast<StoreInst>(&I)) { Ty = S->getValueOperand()->getType(); return S->getPointerOperand(); }
  if (auto *R = dyn_cast<AtomicRMWInst>(&I)) { Ty = R->getValOperand()->getType(); return R->getPointerOperand(); }
  if (auto *X = dyn_cast<AtomicCmpXchgInst>(&I)) { Ty = X->getCompareOperand()->getType(); return X->getPointerOperand(); }
  return nullptr;
}

/// Whether BB is a check's report block: upstream names it "asan.report...",
/// but a compile that discards value names (clang without a sanitizer: the
/// LDS-only mode) keeps no names, so it is recognized by its shape too: a
/// conditional branch to the block that calls a report function.
bool isReportBlock(BasicBlock *BB) {
  if (BB->getName().starts_with("asan.report"))
    return true;
  auto *Br = dyn_cast<BranchInst>(BB->getTerminator());
  if (!Br || !Br->isConditional())
    return false;
  for (BasicBlock *Succ : Br->successors())
    for (Instruction &I : *Succ)
      if (auto *CB = dyn_cast<CallBase>(&I))
        if (Function *F = CB->getCalledFunction();
            F && (F->getName().starts_with("__asan_report_") ||
                  F->getName().starts_with(LDSAN_REPORT_SIZED_PREFIX))) // a check resized already
          return true;
  return false;
}

/// The access through P that the report call R guards, or null.
Instruction *guardedAccess(CallInst *R, Value *P, Type *&Ty) {
  Instruction *I = R->getNextNode();
  for (unsigned Steps = 0; I && Steps < MaxSteps; ++Steps) {
    if (Value *Ptr = accessPointer(*I, Ty)) {
      if (Ptr == P)
        return I;
      I = I->getNextNode();  // the shadow load of the other check
      continue;
    }
    if (auto *CB = dyn_cast<CallBase>(I)) {
      // Only the checks' own intrinsics lie between a report and its access.
      if (!isa<IntrinsicInst>(CB))
        return nullptr;
      I = I->getNextNode();
      continue;
    }
    if (auto *Br = dyn_cast<BranchInst>(I)) {
      BasicBlock *Next = Br->getSuccessor(0);
      if (Br->isConditional()) {
        // Into the path that does not report (the other check passed).
        bool Report0 = isReportBlock(Br->getSuccessor(0));
        bool Report1 = isReportBlock(Br->getSuccessor(1));
        if (Report0 == Report1)
          return nullptr;
        Next = Br->getSuccessor(Report0 ? 1 : 0);
      }
      I = &Next->front();
      continue;
    }
    if (I->isTerminator())
      return nullptr;
    I = I->getNextNode();
  }
  return nullptr;
}

} // namespace

unsigned ldsan::sizeByteReports(Module &M) {
  const DataLayout &DL = M.getDataLayout();
  Type *I64 = Type::getInt64Ty(M.getContext());
  unsigned Rewritten = 0;
  for (const char *Op : {"load", "store"})
    for (const char *Tail : {"", "_noabort"}) {
      Function *Byte = M.getFunction(std::string("__asan_report_") + Op + "1" + Tail);
      if (!Byte)
        continue;
      FunctionCallee Sized = M.getOrInsertFunction(
          std::string(LDSAN_REPORT_SIZED_PREFIX) + Op + LDSAN_REPORT_SIZED_SUFFIX + Tail,
          FunctionType::get(Type::getVoidTy(M.getContext()), {I64, I64}, false));
      SmallVector<CallInst *, 16> Calls;
      for (User *U : Byte->users())
        if (auto *CI = dyn_cast<CallInst>(U); CI && CI->getCalledFunction() == Byte)
          Calls.push_back(CI);
      for (CallInst *CI : Calls) {
        Value *P = checkedPointer(CI->getArgOperand(0));
        Type *Ty = nullptr;
        Instruction *Access = P ? guardedAccess(CI, P, Ty) : nullptr;
        if (!Access)
          continue;
        uint64_t Size = DL.getTypeStoreSize(Ty).getFixedValue();
        if (Size <= 1)
          continue;  // a real 1-byte access
        auto *Start = new PtrToIntInst(P, I64, "ldsan.access", CI->getIterator());
        CallInst *New = CallInst::Create(Sized, {Start, ConstantInt::get(I64, Size)}, "", CI->getIterator());
        New->setDebugLoc(CI->getDebugLoc());
        New->setAttributes(AttributeList::get(M.getContext(), CI->getAttributes().getFnAttrs(), AttributeSet(), {}));
        New->setCannotMerge();  // as upstream's report calls: one call per check
        CI->eraseFromParent();
        ++Rewritten;
      }
    }
  return Rewritten;
}
