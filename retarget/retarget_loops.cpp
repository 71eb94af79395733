// ldsan-emu-retarget: accesses of a work-item loop as affine functions of
// the work-item, and loop versioning (see retarget_loops.h).
#include "retarget_loops.h"

#include "llvm/Analysis/ScalarEvolutionExpressions.h"
#include "llvm/IR/Instructions.h"
#include "llvm/Transforms/Utils/Cloning.h"

extern "C" {
#include "ldsan/emu/emu_tls.h"
}

using namespace llvm;

namespace ldsan_rt {

AffineFinder::AffineFinder(ScalarEvolution &SE, Loop *L)
    : SE(SE), L(L), I64(Type::getInt64Ty(SE.getContext())),
      Trips(SE.getNoopOrZeroExtend(SE.getBackedgeTakenCount(L), I64)) {
  Guards.push_back({Trips, CmpInst::ICMP_ULT, SE.getConstant(I64, kMaxTrips)});
}

// |S| < kMaxStep: S times a guarded trip count is exact in 64 bits.
void AffineFinder::guardStep(const SCEV *S) {
  Guards.push_back({SE.getAddExpr(S, SE.getConstant(I64, kMaxStep)), CmpInst::ICMP_ULT,
                    SE.getConstant(I64, 2 * kMaxStep)});
}

Range AffineFinder::whole(const Affine &A) {
  const SCEV *D = SE.getMulExpr(A.Step, Trips);
  return {SE.getAddExpr(A.Lo, SE.getSMinExpr(D, SE.getZero(I64))),
          SE.getAddExpr(A.W, SE.getAbsExpr(D, /*IsNSW=*/false))};
}

void AffineFinder::boundItemIds(Value *I, ArrayRef<Value *> S) {
  Ids = I;
  Sizes.assign(S.begin(), S.end());
}

// U as a work-item id loaded from the ids array: field d of element i is at
// Ids + i * LDSAN_EMU_ITEM_IDS_SIZE + 4 * d, and L's index is i.
bool AffineFinder::itemId(const SCEVUnknown *U, Affine &A) {
  auto *Ld = dyn_cast<LoadInst>(U->getValue());
  if (!Ids || !Ld || !L->contains(Ld) || !Ld->getType()->isIntegerTy(32) || !Ld->isSimple()) return false;
  const SCEV *Off = SE.getMinusSCEV(SE.getSCEV(Ld->getPointerOperand()), SE.getSCEV(Ids));
  auto *AR = dyn_cast<SCEVAddRecExpr>(Off);
  if (!AR || AR->getLoop() != L || !AR->isAffine()) return false;
  auto *Step = dyn_cast<SCEVConstant>(AR->getStepRecurrence(SE));
  auto *Start = dyn_cast<SCEVConstant>(AR->getStart());
  if (!Step || !Start || Step->getAPInt() != LDSAN_EMU_ITEM_IDS_SIZE || Start->getAPInt().isNegative()) return false;
  uint64_t Field = Start->getAPInt().getZExtValue() % LDSAN_EMU_ITEM_IDS_SIZE;
  if (Field % 4 || Field / 4 >= Sizes.size()) return false;
  const SCEV *Size = SE.getNoopOrZeroExtend(SE.getSCEV(Sizes[Field / 4]), I64);
  if (!SE.isLoopInvariant(Size, L)) return false;
  const SCEV *Zero = SE.getZero(I64);
  // Size >= 1 (a workgroup has a work-item in each dimension): W is exact.
  Guards.push_back({Size, CmpInst::ICMP_UGE, SE.getOne(I64)});
  Guards.push_back({Size, CmpInst::ICMP_ULE, SE.getConstant(I64, kMaxTrips)});
  A = {Zero, SE.getMinusSCEV(Size, SE.getOne(I64)), Zero};
  Bounded = true;
  return true;
}

bool AffineFinder::of(const SCEV *X, Affine &A) {
  if (!X->getType()->isIntegerTy() || X->getType()->getIntegerBitWidth() > 64) return false;
  const SCEV *Zero = SE.getZero(I64);
  if (SE.isLoopInvariant(X, L)) {
    A = {ext(X), Zero, Zero};
    return true;
  }
  if (auto *Sum = dyn_cast<SCEVAddExpr>(X)) {
    A = {Zero, Zero, Zero};
    for (const SCEV *Op : Sum->operands()) {
      Affine O;
      if (!of(Op, O)) return false;
      A = {SE.getAddExpr(A.Lo, O.Lo), SE.getAddExpr(A.W, O.W), SE.getAddExpr(A.Step, O.Step)};
    }
    return true;
  }
  if (auto *M = dyn_cast<SCEVMulExpr>(X)) {
    if (M->getNumOperands() != 2) return false;
    auto *C = dyn_cast<SCEVConstant>(M->getOperand(0));
    Affine O;
    if (!C || !of(M->getOperand(1), O)) return false;
    int64_t K = C->getAPInt().getSExtValue();
    if (K > kMaxScale || K < -kMaxScale) return false;
    const SCEV *KS = SE.getConstant(I64, K, true);
    if (K >= 0)
      A = {SE.getMulExpr(KS, O.Lo), SE.getMulExpr(KS, O.W), SE.getMulExpr(KS, O.Step)};
    else
      A = {SE.getMulExpr(KS, SE.getAddExpr(O.Lo, O.W)), SE.getMulExpr(SE.getConstant(I64, -K, true), O.W),
           SE.getMulExpr(KS, O.Step)};
    return true;
  }
  if (auto *AR = dyn_cast<SCEVAddRecExpr>(X)) {
    const Loop *In = AR->getLoop();
    if (!AR->isAffine() || !L->contains(In)) return false;
    const SCEV *Step = AR->getStepRecurrence(SE);
    if (!SE.isLoopInvariant(Step, L)) return false;
    Affine Start;
    if (!of(AR->getStart(), Start)) return false;
    const SCEV *S = ext(Step);
    guardStep(S);
    if (In == L) { // one step per work-item
      A = {Start.Lo, Start.W, SE.getAddExpr(Start.Step, S)};
      return true;
    }
    // An inner loop: every work-item's values spread by the same S * T.
    const SCEV *T = SE.getBackedgeTakenCount(In);
    if (isa<SCEVCouldNotCompute>(T) || !SE.isLoopInvariant(T, L) || T->getType()->getIntegerBitWidth() > 64)
      return false;
    T = SE.getNoopOrZeroExtend(T, I64);
    Guards.push_back({T, CmpInst::ICMP_ULT, SE.getConstant(I64, kMaxTrips)});
    const SCEV *D = SE.getMulExpr(S, T);
    A = {SE.getAddExpr(Start.Lo, SE.getSMinExpr(D, Zero)), SE.getAddExpr(Start.W, SE.getAbsExpr(D, false)),
         Start.Step};
    return true;
  }
  if (auto *U = dyn_cast<SCEVUnknown>(X)) return itemId(U, A);
  if (auto *E = dyn_cast<SCEVIntegralCastExpr>(X)) {
    bool Signed = isa<SCEVSignExtendExpr>(E);
    if (!Signed && !isa<SCEVZeroExtendExpr>(E)) return false;
    unsigned Bits = E->getOperand()->getType()->getIntegerBitWidth();
    if (Bits > 32 || !of(E->getOperand(), A)) return false;
    // Every value of the operand, taken with a sign extension of each
    // part, stays in the operand type's range: the extension adds nothing.
    int64_t Min = Signed ? -(int64_t(1) << (Bits - 1)) : 0;
    int64_t Max = Signed ? (int64_t(1) << (Bits - 1)) - 1 : int64_t((uint64_t(1) << Bits) - 1);
    Range R = whole(A);
    Guards.push_back({R.Lo, CmpInst::ICMP_SGE, SE.getConstant(I64, Min, true)});
    Guards.push_back({SE.getAddExpr(R.Lo, R.W), CmpInst::ICMP_SLE, SE.getConstant(I64, Max, true)});
    return true;
  }
  return false;
}

Loop *versionLoopOn(Loop *L, BasicBlock *Decide, Value *Cond, const Twine &Suffix, LoopInfo &LI, DominatorTree &DT,
                    ValueToValueMapTy &VMap) {
  BasicBlock *LoopPH = L->getLoopPreheader();
  SmallVector<BasicBlock *, 8> ExitBlocks;
  L->getUniqueExitBlocks(ExitBlocks);
  SmallVector<BasicBlock *, 32> NewBlocks;
  Loop *Copy = cloneLoopWithPreheader(LoopPH, Decide, L, VMap, Suffix, &LI, &DT, NewBlocks);
  remapInstructionsInBlocks(NewBlocks, VMap);
  Instruction *T = Decide->getTerminator();
  BranchInst::Create(Copy->getLoopPreheader(), LoopPH, Cond, T->getIterator());
  T->eraseFromParent();
  // L is in LCSSA form: its values leave it only through the exits' PHIs.
  for (BasicBlock *E : ExitBlocks)
    for (PHINode &Phi : E->phis()) {
      unsigned N = Phi.getNumIncomingValues();
      for (unsigned i = 0; i < N; i++) {
        BasicBlock *From = Phi.getIncomingBlock(i);
        if (!L->contains(From)) continue;
        Value *V = Phi.getIncomingValue(i);
        auto It = VMap.find(V);
        Value *C = It != VMap.end() ? static_cast<Value *>(It->second) : V;
        Phi.addIncoming(C, cast<BasicBlock>(VMap[From]));
      }
    }
  return Copy;
}

} // namespace ldsan_rt
