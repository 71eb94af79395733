//===- FlatLdsCasts.cpp - LDS accesses through a cast flat pointer --------===//
#include "FlatLdsCasts.h"

#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/Operator.h"
#include "llvm/Transforms/Utils/Local.h"

#include <string>

using namespace llvm;

static constexpr unsigned FlatAS = 0, LdsAS = 3;
static constexpr unsigned MaxGeps = 8;

/// Whether LDS pointer P is a flat-to-LDS cast, or a GEP (chain) of one.
static bool castFromFlat(Value *P, unsigned Depth = 0) {
  if (auto *C = dyn_cast<AddrSpaceCastOperator>(P))
    return C->getSrcAddressSpace() == FlatAS && C->getDestAddressSpace() == LdsAS;
  if (auto *G = dyn_cast<GEPOperator>(P))
    return Depth < MaxGeps && castFromFlat(G->getPointerOperand(), Depth + 1);
  return false;
}

/// P (castFromFlat) as the flat pointer it was cast from, its GEPs redone in
/// flat at B's position.
static Value *flatPointer(Value *P, IRBuilder<> &B) {
  if (auto *C = dyn_cast<AddrSpaceCastOperator>(P))
    return C->getPointerOperand();
  auto *G = cast<GEPOperator>(P);
  Value *Base = flatPointer(G->getPointerOperand(), B);
  SmallVector<Value *, 4> Idx(G->indices());
  return B.CreateGEP(G->getSourceElementType(), Base, Idx, "", G->getNoWrapFlags());
}

/// The pointer operand index of a load, store or atomic, and what it accesses.
static bool memoryAccess(Instruction &I, unsigned &Op, Type *&Ty, bool &Write) {
  if (auto *L = dyn_cast<LoadInst>(&I))
    return Op = LoadInst::getPointerOperandIndex(), Ty = L->getType(), Write = false, true;
  if (auto *S = dyn_cast<StoreInst>(&I))
    return Op = StoreInst::getPointerOperandIndex(), Ty = S->getValueOperand()->getType(), Write = true, true;
  if (auto *R = dyn_cast<AtomicRMWInst>(&I))
    return Op = AtomicRMWInst::getPointerOperandIndex(), Ty = R->getValOperand()->getType(), Write = true, true;
  if (auto *X = dyn_cast<AtomicCmpXchgInst>(&I))
    return Op = AtomicCmpXchgInst::getPointerOperandIndex(), Ty = X->getNewValOperand()->getType(), Write = true,
           true;
  return false;
}

unsigned ldsan::undoFlatToLdsCasts(Module &M, bool Asan) {
  LLVMContext &Ctx = M.getContext();
  Type *I64 = Type::getInt64Ty(Ctx), *Void = Type::getVoidTy(Ctx);
  const DataLayout &DL = M.getDataLayout();
  // The module's ASan checks recover (-fsanitize-recover=address) if its
  // reports are the _noabort ones.
  bool NoAbort = false;
  for (const Function &F : M)
    NoAbort |= F.getName().starts_with("__asan_report_") && F.getName().ends_with("_noabort");
  unsigned Changed = 0;
  for (Function &F : M) {
    if (F.isDeclaration())
      continue;
    SmallVector<Instruction *, 8> Accesses;
    for (Instruction &I : instructions(F)) {
      unsigned Op;
      Type *Ty;
      bool Write;
      if (memoryAccess(I, Op, Ty, Write) && I.getOperand(Op)->getType()->getPointerAddressSpace() == LdsAS &&
          castFromFlat(I.getOperand(Op)))
        Accesses.push_back(&I);
    }
    bool Check = Asan && F.hasFnAttribute(Attribute::SanitizeAddress);
    for (Instruction *I : Accesses) {
      unsigned Op;
      Type *Ty;
      bool Write;
      memoryAccess(*I, Op, Ty, Write);
      IRBuilder<> B(I);
      B.SetCurrentDebugLocation(I->getDebugLoc());
      Value *Old = I->getOperand(Op);
      Value *P = flatPointer(Old, B);
      I->setOperand(Op, P);
      I->setMetadata(LLVMContext::MD_noalias_addrspace, nullptr);
      if (Check) {
        uint64_t Size = DL.getTypeStoreSize(Ty).getFixedValue();
        bool Sized = Size == 1 || Size == 2 || Size == 4 || Size == 8 || Size == 16;
        std::string Name = std::string("__asan_") + (Write ? "store" : "load") +
                           (Sized ? std::to_string(Size) : std::string("N")) + (NoAbort ? "_noabort" : "");
        Value *Addr = B.CreatePtrToInt(P, I64);
        if (Sized)
          B.CreateCall(M.getOrInsertFunction(Name, Void, I64), {Addr});
        else
          B.CreateCall(M.getOrInsertFunction(Name, Void, I64, I64), {Addr, ConstantInt::get(I64, Size)});
      }
      RecursivelyDeleteTriviallyDeadInstructions(Old);
      ++Changed;
    }
  }
  return Changed;
}
