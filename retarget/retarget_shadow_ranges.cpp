// ldsan-emu-retarget: ASan shadow checks hoisted out of work-item loops.
//
// Every access a sanitized kernel makes loads its shadow byte(s) first
// (`load iN, inttoptr((addr >> 3) + 0x7fff8000)`) and reports when the value
// says the bytes are not addressable. In a group function's loop over the
// work-items of a region (retarget_wiloop.cpp) the addresses of most
// accesses are affine in the loop index (buf[threadIdx.x + s], in[blockIdx.x
// * 256 + threadIdx.x]), so the bytes all the work-items will touch form one
// interval per access that can be computed before the loop. This pass
// versions such loops (loop versioning, as LLVM's LoopVersioning does for
// memory dependences): before the loop, each hoistable access's interval is
// checked once against the shadow; when none has a poisoned
// byte, a copy of the loop runs in which those shadow loads are the constant
// 0 -- which is exactly what they would load, so the copy's checks fold away
// and nothing a report could say is lost. Otherwise (a bug, or an interval
// this pass cannot bound safely) the original loop runs with every check,
// and the reports are the same as without this pass.
//
// What makes the constant exact:
// - the interval: the address's SCEV is an affine function of the loop's
//   (and its inner loops') induction variables with loop-invariant steps and
//   trip counts; [Lo, Lo + W] is computed with W exact (steps and trip counts
//   are bounded at run time so nothing overflows; an interval that wraps
//   around is not clean; retarget_loops.h);
// - the shadow does not change while the loop runs: the loop may call only
//   the report functions (ASan's, ldsan's sized ones), the LDS-only mode's
//   flat-access check (it checks and reports) and the LDS checks'
//   tracker and barrier note (none poisons), intrinsics that write no memory
//   and inline asm with no memory clobber, and may not contain stores of
//   ldsan's runtime (which poisons).
// LDS-only images (ldsan-cc -fsanitize=lds) keep their LDS shadow at
// (addr >> 3) + an offset the host writes into the device state
// (device/own_shadow.c, inlined: a load of the state's shadow_offset, or a
// select of it and the built-in pool's); the work-item loops hoist that
// load (retarget_wiloop.cpp: the state does not change during a dispatch),
// and their shadow loads are versioned the same way, each interval checked
// by __ldsan_emu_own_shadow_clean against the state's pool and that offset
// (emulator/core/core_shadow_range.c).
// Also hoisted, under the same conditions: loads of the LDS block pointer
// from the LDS window (kernels lowered by amdgpu-sw-lower-lds keep only that
// pointer there, written by work-item 0 in the prologue); without it the
// block's addresses are not affine in the index. A loop with a store into
// the window keeps these loads.
//
// Only the work-item loops of group functions are versioned (top-level loops
// of __ldsan_emu_group*), and only when the fast copy runs for at least
// kMinItems iterations: the interval checks cost about what a few
// iterations' checks do. The work-item loops of a checked group function
// (the LDS checks' copy) first go to retarget_lds_disjoint.cpp, which may
// version them for their own checks; then each copy is versioned here.
#include <cstddef>
#include <cstring>

#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/Analysis/AssumptionCache.h"
#include "llvm/Analysis/LoopInfo.h"
#include "llvm/Analysis/ScalarEvolution.h"
#include "llvm/Analysis/ScalarEvolutionExpressions.h"
#include "llvm/Analysis/TargetLibraryInfo.h"
#include "llvm/Analysis/ValueTracking.h"
#include "llvm/IR/Dominators.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/InlineAsm.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/IR/Module.h"
#include "llvm/IR/PatternMatch.h"
#include "llvm/TargetParser/Triple.h"
#include "llvm/Transforms/Utils/BasicBlockUtils.h"
#include "llvm/Transforms/Utils/Cloning.h"
#include "llvm/Transforms/Utils/LoopSimplify.h"
#include "llvm/Transforms/Utils/LoopUtils.h"
#include "llvm/Transforms/Utils/ScalarEvolutionExpander.h"
#include "llvm/Transforms/Utils/ValueMapper.h"

extern "C" {
#include "ldsan/abi.h"
#include "ldsan/entry_points.def"
#include "ldsan/emu/emu_tls.h"
#include "retarget.h"
}
#include "retarget_loops.h"

using namespace llvm;
using namespace llvm::PatternMatch;
using namespace ldsan_rt;

namespace {

constexpr uint64_t kMinItems = 16;

// The device state's field at Field bytes, loaded through a constant
// address (the runtime's constant-address-space view of the state reaches it
// through ptrtoint/inttoptr).
bool isDeviceStateLoad(Value *V, uint64_t Field) {
  auto *LI = dyn_cast<LoadInst>(V);
  if (!LI || !LI->isSimple()) return false;
  auto *C = dyn_cast<Constant>(LI->getPointerOperand());
  const DataLayout &DL = LI->getModule()->getDataLayout();
  uint64_t Off = 0;
  for (int Depth = 0; C && Depth < 8; Depth++) {
    APInt O(DL.getIndexTypeSizeInBits(C->getType()), 0);
    C = cast<Constant>(C->stripAndAccumulateConstantOffsets(DL, O, /*AllowNonInbounds=*/true));
    Off += O.getZExtValue();
    if (auto *G = dyn_cast<GlobalVariable>(C)) return G->getName() == LDSAN_DEVICE_STATE_SYMBOL && Off == Field;
    auto *CE = dyn_cast<ConstantExpr>(C);
    if (!CE || !(CE->getOpcode() == Instruction::IntToPtr || CE->getOpcode() == Instruction::PtrToInt)) return false;
    C = CE->getOperand(0);
  }
  return false;
}

// A value computed from constants alone (the built-in pool's shadow offset,
// built from two symbols' addresses).
bool isLinkTimeConstant(Value *V, int Depth = 0) {
  if (isa<Constant>(V)) return true;
  auto *I = dyn_cast<Instruction>(V);
  if (!I || Depth > 4 || !(isa<CastInst>(I) || (isa<BinaryOperator>(I) && !I->isIntDivRem()))) return false;
  return all_of(I->operands(), [&](Use &U) { return isLinkTimeConstant(U.get(), Depth + 1); });
}

// An LDS-only image's shadow offset (device/own_shadow.c
// __ldsan_own_shadow_offset, inlined): the device state's shadow_offset, or
// a select between it and the built-in pool's constant one.
bool isOwnShadowOffset(Value *V) {
  constexpr uint64_t Field = offsetof(ldsan_device_state, shadow_offset);
  if (isDeviceStateLoad(V, Field)) return true;
  auto *Sel = dyn_cast<SelectInst>(V);
  if (!Sel) return false;
  bool Loaded = false;
  for (Value *Arm : {Sel->getTrueValue(), Sel->getFalseValue()}) {
    if (isDeviceStateLoad(Arm, Field)) Loaded = true;
    else if (!isLinkTimeConstant(Arm)) return false;
  }
  return Loaded;
}

// A shadow load: its address operand is (A >> 3) + offset, the offset ASan's
// (Off null) or an LDS-only image's own (Off that value).
struct ShadowLoad {
  LoadInst *Load;
  Value *Addr; // A, i64
  Value *Off;  // null: ASan's shadow
};

bool matchShadowLoad(LoadInst *LI, ShadowLoad &Out) {
  if (!LI->getType()->isIntegerTy() || LI->isVolatile()) return false;
  Value *Shadow, *A, *Off;
  if (!match(LI->getPointerOperand(), m_IntToPtr(m_Value(Shadow)))) return false;
  if (!match(Shadow, m_Add(m_LShr(m_Value(A), m_SpecificInt(LDSAN_SHADOW_SCALE)), m_Value(Off))) &&
      !match(Shadow, m_DisjointOr(m_LShr(m_Value(A), m_SpecificInt(LDSAN_SHADOW_SCALE)), m_Value(Off))))
    return false;
  if (!A->getType()->isIntegerTy(64)) return false;
  if (auto *C = dyn_cast<ConstantInt>(Off)) {
    if (C->getValue() != LDSAN_SHADOW_OFFSET) return false;
    Out = {LI, A, nullptr};
    return true;
  }
  if (!isOwnShadowOffset(Off)) return false;
  Out = {LI, A, Off};
  return true;
}

bool isLdsanRuntime(const Instruction &I) { return I.getMetadata(LDSAN_RUNTIME_MD) != nullptr; }

// Whether the loop leaves ASan's shadow alone (see the file comment).
bool leavesShadowAlone(Loop *L) {
  for (BasicBlock *BB : L->blocks())
    for (Instruction &I : *BB) {
      if (I.mayWriteToMemory() && isLdsanRuntime(I)) return false;
      auto *CB = dyn_cast<CallBase>(&I);
      if (!CB) continue;
      if (auto *IA = dyn_cast<InlineAsm>(CB->getCalledOperand())) {
        if (IA->getConstraintString().find("memory") != std::string::npos ||
            IA->getConstraintString().find('*') != std::string::npos)
          return false;
        continue;
      }
      Function *Callee = CB->getCalledFunction();
      if (!Callee) return false;
      if (Callee->isIntrinsic()) {
        if (isa<DbgInfoIntrinsic>(CB) || isa<AssumeInst>(CB) || CB->isLifetimeStartOrEnd() ||
            !CB->mayWriteToMemory())
          continue;
        return false;
      }
      StringRef N = Callee->getName();
      if (N.starts_with("__asan_report_") || N.starts_with("__ldsan_report_") || N.starts_with("__ldsan_emu_lds_track") ||
          N == "__ldsan_emu_lds_barrier_note" || N == LDSAN_FLAT_LDS_ACCESS_NAME)
        continue;
      return false;
    }
  return true;
}

// The TLS field holding the worker's LDS window.
bool isWindowBase(Value *V) {
  auto *LI = dyn_cast<LoadInst>(V);
  if (!LI) return false;
  auto *G = dyn_cast<GlobalVariable>(LI->getPointerOperand()->stripPointerCasts());
  static_assert(LDSAN_EMU_TLS_LDS_BASE == 0, "the LDS window is the TLS block's first field");
  return G && G->getName() == "__ldsan_emu_tls" && LI->getPointerOperand() == G;
}

// Whether amdgpu-sw-lower-lds lowered the module: its LDS window then holds
// only the block pointer.
bool swLowered(const Module &M) {
  for (const GlobalVariable &G : M.globals())
    if (G.getName().starts_with("llvm.amdgcn.sw.lds.")) return true;
  return false;
}

// L's tests (== or != null) of the block pointer, loaded outside L (hoisted,
// now or for an earlier copy of L): every work-item asks after the
// prologue's barrier whether the workgroup got a block (ldsan.no_block), and
// the answer is the same for all of them.
SmallVector<ICmpInst *, 4> blockNullTests(Loop *L) {
  SmallVector<ICmpInst *, 4> Out;
  for (BasicBlock *BB : L->blocks())
    for (Instruction &I : *BB)
      if (auto *C = dyn_cast<ICmpInst>(&I); C && C->isEquality() && isa<ConstantPointerNull>(C->getOperand(1)))
        if (auto *LI = dyn_cast<LoadInst>(C->getOperand(0));
            LI && !L->contains(LI) && LI->isSimple() && isWindowBase(LI->getPointerOperand()))
          Out.push_back(C);
  return Out;
}

// Hoists the block pointer's loads from the LDS window to the preheader (in
// a module swLowered).
bool hoistBlockPointer(Loop *L) {
  BasicBlock *PH = L->getLoopPreheader();
  if (!PH) return false;
  SmallVector<LoadInst *, 8> Loads;
  for (BasicBlock *BB : L->blocks())
    for (Instruction &I : *BB) {
      if (auto *SI = dyn_cast<StoreInst>(&I)) {
        if (isWindowBase(getUnderlyingObject(SI->getPointerOperand()))) return false;
      } else if (auto *RMW = dyn_cast<AtomicRMWInst>(&I)) {
        if (isWindowBase(getUnderlyingObject(RMW->getPointerOperand()))) return false;
      } else if (auto *CX = dyn_cast<AtomicCmpXchgInst>(&I)) {
        if (isWindowBase(getUnderlyingObject(CX->getPointerOperand()))) return false;
      } else if (auto *LI = dyn_cast<LoadInst>(&I)) {
        if (LI->isSimple() && LI->getType()->isPointerTy() && isWindowBase(LI->getPointerOperand()) &&
            L->isLoopInvariant(LI->getPointerOperand()))
          Loads.push_back(LI);
      }
    }
  for (LoadInst *LI : Loads) LI->moveBefore(PH->getTerminator()->getIterator());
  return !Loads.empty();
}

struct Hoisted {
  ShadowLoad SL;
  Range R;
  unsigned Width; // bytes of shadow loaded
};

// An extension (i32 to i64) in a hoisted access's address, affine in the
// work-item with one value per work-item: in the fast copy it becomes Lo +
// Step * i, computed in 64 bits, which the guards make equal to it.
struct Widened {
  CastInst *Ext;
  Affine A;
};

// The extensions that the addresses of Hs's accesses are computed from, in
// L's own blocks (not its inner loops'), affine as above; their guards join
// AF's.
SmallVector<Widened, 8> widenedExtensions(Loop *L, LoopInfo &LI, ScalarEvolution &SE, AffineFinder &AF,
                                          ArrayRef<Hoisted> Hs) {
  SmallVector<Widened, 8> Out;
  SmallPtrSet<Value *, 32> Seen;
  SmallVector<Value *, 32> Work;
  for (const Hoisted &H : Hs) Work.push_back(H.SL.Addr);
  while (!Work.empty() && Seen.size() < 256) {
    auto *I = dyn_cast<Instruction>(Work.pop_back_val());
    if (!I || !Seen.insert(I).second || LI.getLoopFor(I->getParent()) != L || isa<PHINode>(I)) continue;
    auto *E = dyn_cast<CastInst>(I);
    if (E && (isa<SExtInst>(E) || isa<ZExtInst>(E)) && E->getType()->isIntegerTy(64) &&
        E->getSrcTy()->getIntegerBitWidth() <= 32) {
      Affine A;
      size_t G = AF.Guards.size();
      if (AF.of(SE.getSCEV(E), A) && A.W->isZero()) {
        Out.push_back({E, A});
        continue;
      }
      AF.Guards.resize(G);
    }
    for (Use &U : I->operands()) Work.push_back(U.get());
  }
  return Out;
}

// The shadow loads in L (Own: one of them is of ldsan's own shadow).
SmallVector<ShadowLoad, 16> shadowLoads(Loop *L, bool &Own) {
  SmallVector<ShadowLoad, 16> Loads;
  for (BasicBlock *BB : L->blocks())
    for (Instruction &I : *BB) {
      ShadowLoad SL;
      if (auto *Ld = dyn_cast<LoadInst>(&I); Ld && matchShadowLoad(Ld, SL)) {
        Loads.push_back(SL);
        Own |= SL.Off != nullptr;
      }
    }
  return Loads;
}

// The loads of Loads whose addresses are affine in L's work-item (AF's
// guards bound them), with their intervals over the whole loop.
SmallVector<Hoisted, 16> hoistable(Loop *L, ScalarEvolution &SE, AffineFinder &AF, ArrayRef<ShadowLoad> Loads) {
  SmallVector<Hoisted, 16> Hs;
  for (const ShadowLoad &SL : Loads) {
    if (SL.Off && !L->isLoopInvariant(SL.Off)) continue; // (its load names the state: State below)
    Affine A;
    size_t G = AF.Guards.size();
    if (!AF.of(SE.getSCEV(SL.Addr), A)) {
      AF.Guards.resize(G);
      continue;
    }
    Hs.push_back({SL, AF.whole(A), unsigned(SL.Load->getType()->getIntegerBitWidth() / 8)});
  }
  return Hs;
}

// Nothing expanded may trap (a division by a value that can be 0).
bool safeToExpand(SCEVExpander &Exp, const SCEV *Trips, ArrayRef<Widened> Ws, ArrayRef<Guard> Guards,
                  ArrayRef<Hoisted> Hs) {
  bool Safe = Exp.isSafeToExpand(Trips);
  for (const Widened &W : Ws) Safe = Safe && Exp.isSafeToExpand(W.A.Lo) && Exp.isSafeToExpand(W.A.Step);
  for (const Guard &G : Guards) Safe = Safe && Exp.isSafeToExpand(G.A) && Exp.isSafeToExpand(G.B);
  for (const Hoisted &H : Hs) Safe = Safe && Exp.isSafeToExpand(H.R.Lo) && Exp.isSafeToExpand(H.R.W);
  return Safe;
}

// Before At: whether the loop runs long enough, its block pointers are not
// null and the guards hold; WLoStep: each widened extension's Lo and Step.
Value *entryConditions(ScalarEvolution &SE, SCEVExpander &Exp, Instruction *At, Type *I64, const SCEV *Trips,
                       ArrayRef<ICmpInst *> NullTests, ArrayRef<Guard> Guards, ArrayRef<Widened> Ws,
                       SmallVectorImpl<std::pair<Value *, Value *>> &WLoStep) {
  IRBuilder<> B(At);
  auto expand = [&](const SCEV *S) { return Exp.expandCodeFor(S, I64, At->getIterator()); };
  Value *Ok = B.CreateICmpUGE(expand(SE.getNoopOrZeroExtend(Trips, I64)), B.getInt64(kMinItems - 1));
  // The fast copy is entered only when the block pointers are not null, so
  // its tests of them are constants -- and the loop has no branch left that
  // keeps the vectorizer out.
  for (ICmpInst *C : NullTests) // the hoisted loads are in PH, before At
    Ok = B.CreateAnd(Ok, B.CreateIsNotNull(C->getOperand(0)));
  for (const Guard &G : Guards) {
    B.SetInsertPoint(At);
    Ok = B.CreateAnd(Ok, B.CreateICmp(G.P, expand(G.A), expand(G.B)));
  }
  for (const Widened &W : Ws) WLoStep.push_back({expand(W.A.Lo), expand(W.A.Step)});
  return Ok;
}

// Each interval is checked (emulator/core/core_shadow_range.c) only when
// everything before it held (Ok first): an unbounded interval is never looked
// at. PH (At its terminator) becomes the chain of checks, ending in a new
// block, Decide, whose phi of whether they all held this returns.
PHINode *checkIntervals(Function &F, BasicBlock *PH, Instruction *At, DominatorTree &DT, LoopInfo &LI,
                        SCEVExpander &Exp, Type *I64, SmallVectorImpl<Hoisted> &Hs, Value *Ok) {
  Module &M = *F.getParent();
  IRBuilder<> B(At);
  FunctionCallee Clean = M.getOrInsertFunction("__ldsan_emu_shadow_clean", B.getInt32Ty(), I64, I64);
  // An LDS-only image's own shadow: checked against its device state's pool.
  GlobalVariable *State = M.getNamedGlobal(LDSAN_DEVICE_STATE_SYMBOL);
  auto ownClean = [&] {
    return M.getOrInsertFunction("__ldsan_emu_own_shadow_clean", B.getInt32Ty(), I64, I64, I64, State->getType());
  };
  BasicBlock *Decide = SplitBlock(PH, PH->getTerminator(), &DT, &LI, nullptr, "shadow.decide");
  SmallVector<std::pair<BasicBlock *, Value *>, 8> Edges; // into Decide
  BasicBlock *Cur = PH;
  // The new blocks' code goes before Hole, one placeholder terminator moved
  // on from block to block, never erased while Exp expands: Exp remembers
  // each expansion by the instruction it went before, and a placeholder made
  // where an erased one was in memory would get that block's values or not
  // depending on the allocator (two runs, two codes). With one placeholder
  // a block reuses what the blocks before it (which dominate it) expanded.
  Instruction *Hole = nullptr;
  // Ends Cur with a branch on Ok to a new block (or Decide when not Ok) and
  // moves B into that block, before Hole.
  auto next = [&](const char *Name) {
    BasicBlock *N = BasicBlock::Create(F.getContext(), Name, &F, Decide);
    Instruction *Old = Cur->getTerminator();
    BranchInst::Create(N, Decide, Ok, Old->getIterator());
    if (Old != Hole) Old->eraseFromParent();
    Edges.push_back({Cur, ConstantInt::getFalse(F.getContext())});
    if (Hole) Hole->moveBefore(*N, N->end());
    else Hole = new UnreachableInst(F.getContext(), N);
    B.SetInsertPoint(Hole);
    Cur = N;
  };
  SmallVector<Hoisted *, 8> Done; // one check per interval and width
  for (Hoisted &H : Hs) {
    bool Seen = false;
    for (Hoisted *D : Done)
      if (D->R.Lo == H.R.Lo && D->R.W == H.R.W && D->Width >= H.Width && D->SL.Off == H.SL.Off) Seen = true;
    if (Seen) continue;
    Done.push_back(&H);
    next("shadow.range");
    Value *Lo = Exp.expandCodeFor(H.R.Lo, I64, Cur->getTerminator()->getIterator());
    Value *W = Exp.expandCodeFor(H.R.W, I64, Cur->getTerminator()->getIterator());
    B.SetInsertPoint(Cur->getTerminator());
    Value *First = B.CreateAnd(Lo, B.getInt64(~uint64_t(7)));
    Value *End = B.CreateAdd(B.CreateAnd(B.CreateAdd(Lo, W), B.getInt64(~uint64_t(7))), B.getInt64(8 * H.Width));
    Value *IsClean =
        H.SL.Off ? B.CreateCall(ownClean(), {First, End, H.SL.Off, State}) : B.CreateCall(Clean, {First, End});
    Ok = B.CreateICmpNE(IsClean, B.getInt32(0));
  }
  Instruction *Old = Cur->getTerminator();
  BranchInst::Create(Decide, Old->getIterator());
  Old->eraseFromParent();
  Edges.push_back({Cur, Ok});
  B.SetInsertPoint(Decide, Decide->getFirstInsertionPt());
  PHINode *Go = B.CreatePHI(B.getInt1Ty(), Edges.size(), "shadow.clean");
  for (auto &E : Edges) Go->addIncoming(E.second, E.first);
  DT.recalculate(F);
  return Go;
}

// In the fast copy (VMap: L's values to the copy's): the hoisted shadow
// loads are 0, the widened extensions Lo + Step * the work-item index, the
// block pointers' null tests constants.
void specializeCopy(Function &F, ValueToValueMapTy &VMap, ArrayRef<Hoisted> Hs, ArrayRef<Widened> Ws,
                    ArrayRef<std::pair<Value *, Value *>> WLoStep, PHINode *Index, ArrayRef<ICmpInst *> NullTests) {
  for (const Hoisted &H : Hs) {
    auto *Copy = cast<LoadInst>(VMap[H.SL.Load]);
    Copy->replaceAllUsesWith(Constant::getNullValue(Copy->getType()));
    Copy->eraseFromParent();
  }
  // The guards keep Lo + Step * i in range: no signed wrap in 64 bits.
  for (size_t k = 0; k < Ws.size(); k++) {
    auto *Copy = cast<Instruction>(VMap[Ws[k].Ext]);
    IRBuilder<> WB(Copy);
    Value *I = VMap[Index];
    Value *V = WB.CreateAdd(WLoStep[k].first, WB.CreateMul(WLoStep[k].second, I, "", false, true),
                            Copy->getName() + ".wide", false, true);
    Copy->replaceAllUsesWith(V);
    Copy->eraseFromParent();
  }
  for (ICmpInst *C : NullTests) {
    auto *Copy = cast<ICmpInst>(VMap[C]);
    Copy->replaceAllUsesWith(ConstantInt::getBool(F.getContext(), C->getPredicate() == CmpInst::ICMP_NE));
    Copy->eraseFromParent();
  }
}

// Versions L when it has hoistable shadow loads. Returns the fast copy's
// header, or null.
BasicBlock *versionLoop(Function &F, Loop *L, LoopInfo &LI, DominatorTree &DT, ScalarEvolution &SE,
                        ArrayRef<ICmpInst *> NullTests, unsigned &HoistedLoads, unsigned &AllLoads, bool &Own) {
  SmallVector<ShadowLoad, 16> Loads = shadowLoads(L, Own);
  if (Loads.empty()) return nullptr;
  AllLoads += Loads.size();
  const SCEV *Trips = SE.getBackedgeTakenCount(L);
  if (isa<SCEVCouldNotCompute>(Trips)) return nullptr;
  if (auto *C = dyn_cast<SCEVConstant>(Trips); C && C->getAPInt().ult(kMinItems - 1)) return nullptr;

  AffineFinder AF(SE, L);
  SmallVector<Hoisted, 16> Hs = hoistable(L, SE, AF, Loads);
  if (Hs.empty()) return nullptr;
  // Extensions are widened only where the copy has the work-item index.
  PHINode *Index = L->getCanonicalInductionVariable();
  SmallVector<Widened, 8> Ws;
  if (Index && Index->getType()->isIntegerTy(64)) Ws = widenedExtensions(L, LI, SE, AF, Hs);
  SCEVExpander Exp(SE, "shadow.range");
  if (!safeToExpand(Exp, Trips, Ws, AF.Guards, Hs)) return nullptr;

  BasicBlock *PH = L->getLoopPreheader();
  SplitBlock(PH, PH->getTerminator(), &DT, &LI, nullptr, "shadow.ph"); // the loop's own preheader
  Type *I64 = Type::getInt64Ty(F.getContext());
  Instruction *At = PH->getTerminator();
  SmallVector<std::pair<Value *, Value *>, 8> WLoStep;
  Value *Ok = entryConditions(SE, Exp, At, I64, Trips, NullTests, AF.Guards, Ws, WLoStep);
  PHINode *Go = checkIntervals(F, PH, At, DT, LI, Exp, I64, Hs, Ok);

  // The fast copy, entered when every interval is clean.
  ValueToValueMapTy VMap;
  Loop *Fast = versionLoopOn(L, Go->getParent(), Go, ".noshadow", LI, DT, VMap);
  specializeCopy(F, VMap, Hs, Ws, WLoStep, Index, NullTests);
  HoistedLoads += Hs.size();
  return Fast->getHeader();
}

unsigned versionFunction(Function &F, TargetLibraryInfo &TLI, bool Lowered, unsigned &Hoisted, unsigned &All,
                         unsigned &Disjoint, unsigned &Bare, bool &Own) {
  SmallPtrSet<BasicBlock *, 32> Done;
  unsigned N = 0;
  for (;;) {
    DominatorTree DT(F);
    LoopInfo LI(DT);
    AssumptionCache AC(F);
    ScalarEvolution SE(F, TLI, AC, DT, LI);
    Loop *Next = nullptr;
    for (Loop *L : LI)
      if (!Done.count(L->getHeader())) {
        Next = L;
        break;
      }
    if (!Next) return N;
    Done.insert(Next->getHeader());
    if (!leavesShadowAlone(Next)) continue;
    simplifyLoop(Next, &DT, &LI, &SE, &AC, nullptr, false);
    formLCSSARecursively(*Next, DT, &LI, &SE);
    if (Lowered && hoistBlockPointer(Next)) SE.forgetLoop(Next);
    SmallVector<ICmpInst *, 4> Nulls;
    if (Lowered) Nulls = blockNullTests(Next);
    if (!Next->getLoopPreheader() || !Next->isLCSSAForm(DT)) continue;
    // A checked loop first gets its copy that skips the LDS checks'
    // comparisons; then both are looked at again, as loops of their own.
    bool BareCopy = false;
    if (decideLdsDisjoint(Next, SE, LI, DT, Nulls, BareCopy)) {
      Disjoint++;
      Bare += BareCopy;
      Done.erase(Next->getHeader());
      continue;
    }
    if (BasicBlock *Fast = versionLoop(F, Next, LI, DT, SE, Nulls, Hoisted, All, Own)) {
      Done.insert(Fast);
      N++;
    }
  }
}

} // namespace

extern "C" unsigned rt_hoist_shadow_checks(LLVMModuleRef MRef, int Verbose) {
  Module &M = *unwrap(MRef);
  TargetLibraryInfoImpl TLII(M.getTargetTriple());
  TargetLibraryInfo TLI(TLII);
  bool Lowered = swLowered(M);
  unsigned Total = 0;
  for (Function &F : M) {
    if (F.isDeclaration() || !F.getName().starts_with("__ldsan_emu_group")) continue;
    unsigned Hoisted = 0, All = 0, Disjoint = 0, Bare = 0;
    bool Own = false;
    unsigned N = versionFunction(F, TLI, Lowered, Hoisted, All, Disjoint, Bare, Own);
    StringRef Name = F.getName();
    bool Checked = Name.consume_front("__ldsan_emu_group_checked.");
    if (!Checked) Name.consume_front("__ldsan_emu_group.");
    if (Verbose && All)
      fprintf(stderr, "ldsan-emu-retarget: kernel '%s': %s%u work-item loops check %s once per loop (%u of "
              "%u shadow checks in loops)\n", Name.str().c_str(), Checked ? "in its LDS checks' copy, " : "", N,
              Own ? "ldsan's own shadow (LDS-only)" : "ASan's shadow", Hoisted, All);
    if (Verbose && Disjoint)
      fprintf(stderr, "ldsan-emu-retarget: kernel '%s': in its LDS checks' copy, %u work-item loops skip the checks' "
              "comparisons when their accesses are disjoint (decided once per loop; %u of them bare: the core keeps "
              "their writes)\n", Name.str().c_str(), Disjoint, Bare);
    Total += N;
  }
  return Total;
}
