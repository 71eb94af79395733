// ldsan-emu-retarget: the LDS checks (detect_races, detect_uninit,
// report_wave_sync) decided once per work-item loop where its accesses are
// disjoint.
//
// In a checked group function every shared-memory access has an inline path
// (retarget_lds_track.cpp) that compares the access with its words' records
// (the interval's other accesses) and keeps it there: some fifty
// instructions per access. A work-item loop that runs a region for every
// work-item of the workgroup (RT_LOOP_WHOLE_INTERVAL) is a whole barrier
// interval: no other access of the workgroup falls in it. When no byte it
// accesses is accessed by two work-items with at least one writing, no
// access of it can race, and nothing it keeps matters to later intervals
// except its writes (a later read looks for them: uninitialized or not). Most
// loops of a race-free kernel are like that: buf[t] = in[...] staging,
// buf[t] += buf[t + s] trees, tile reads.
//
// So, like retarget_shadow_ranges.cpp, this pass describes each access of
// such a loop by an affine function of the work-item (retarget_loops.h:
// the first work-item's bytes and the step between work-items; in a
// workgroup of more than one dimension a work-item's id, which the loop
// loads, as any value below the workgroup's size: tile reads such as
// As[ty][k] and Bs[k][tx] then have a span, a write that uses one is wider
// than its step, a no) and, before
// the loop, passes them to the core (__ldsan_emu_lds_disjoint,
// core_lds_disjoint.c), which says whether they are disjoint (and, with
// detect_uninit, whether the reads' words are all written already, and then
// takes note of what the loop's writes made written). Yes: a
// copy of the loop runs in which the inline paths' TLS track_fast (0 at run
// time everywhere) is a constant (lds_track.h). When every write of the loop
// is one each work-item makes, of whole words, the copy is bare
// (LDSAN_EMU_TRACK_FAST_BARE): its accesses keep nothing, the core writes
// the writes' records when it says yes (it knows each word's work-item from
// the first work-item's ids and the spans), and the copy loses its pcs,
// inline paths and barrier notes, so it can vectorize like the unchecked
// loop. Else a read only passes and a write stores its epoch, item and size
// (LDSAN_EMU_TRACK_FAST_WRITES); the optimizer then drops the
// comparisons. Either copy is entered only once the barrier's pc slots of
// the loop are filled (the first workgroup's loop fills them), so their
// loads in the copy become the values loaded before it. No (an access it cannot describe: not affine, more than
// LDSAN_EMU_DISJOINT_MAX_SPANS; a failed guard; or the core's no): the loop
// checks every access as before, with track_fast the constant 0, so every report is the
// same. The loop may call only what leaves LDS alone (the caller checks
// that, retarget_shadow_ranges.cpp's leavesShadowAlone: the report
// functions, the LDS checks' own calls); an LDS access in a call it makes
// would not be described.
#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/Analysis/ScalarEvolutionExpressions.h"
#include "llvm/IR/CFG.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/Module.h"
#include "llvm/Transforms/Utils/BasicBlockUtils.h"
#include "llvm/Transforms/Utils/LoopUtils.h"
#include "llvm/Transforms/Utils/ScalarEvolutionExpander.h"

extern "C" {
#include "ldsan/emu/emu_tls.h"
#include "ldsan/emu/lds_track.h"
#include "retarget.h"
}
#include "retarget_loops.h"

using namespace llvm;

namespace ldsan_rt {

namespace {

struct Site {
  CallBase *Call;
  Value *Ptr;
  uint32_t Size;
  bool Store;  // a write or an atomic
  bool Atomic;
  bool Every;  // every work-item of the loop makes the access (a load or store of Ptr on every iteration)
  Value *Item; // the work-item's ids, stored into the TLS block before the call; null if not
};

// Whether load LI reads the TLS track_fast field.
bool isFastField(const LoadInst *LI) {
  const DataLayout &DL = LI->getModule()->getDataLayout();
  APInt Off(64, 0);
  const Value *Base =
      LI->getPointerOperand()->stripAndAccumulateConstantOffsets(DL, Off, /*AllowNonInbounds=*/true);
  auto *G = dyn_cast<GlobalVariable>(Base);
  return G && G->getName() == LDSAN_EMU_TLS_SYMBOL && Off == LDSAN_EMU_TLS_TRACK_FAST;
}

// The loads in L of a barrier's pc slot (__ldsan_emu_lds_barrier_note's
// argument: filled once, by the first work-item to reach the barrier).
SmallVector<LoadInst *, 4> barrierSlotLoads(Loop *L) {
  SmallVector<LoadInst *, 4> Loads;
  for (BasicBlock *BB : L->blocks())
    for (Instruction &I : *BB) {
      auto *LI = dyn_cast<LoadInst>(&I);
      auto *G = LI ? dyn_cast<GlobalVariable>(LI->getPointerOperand()) : nullptr;
      if (G && LI->isAtomic() && G->getName().starts_with(LDSAN_EMU_BARRIER_PC_SLOT)) Loads.push_back(LI);
    }
  return Loads;
}

// Whether a load or store of P in L runs on every iteration of L (which
// leaves only through its latch), given that the tests in Nulls find the block pointer not
// null: no path from the header to the latch (taking only the not-null side
// of those tests) avoids every block of L's own with such an access.
bool everyIteration(Loop *L, LoopInfo &LI, ArrayRef<ICmpInst *> Nulls, Value *P) {
  BasicBlock *Latch = L->getLoopLatch();
  if (!Latch || L->getExitingBlock() != Latch) return false; // every work-item reaches the latch
  const Value *Want = P->stripPointerCasts();
  SmallPtrSet<const BasicBlock *, 8> Access;
  for (BasicBlock *BB : L->blocks()) {
    if (LI.getLoopFor(BB) != L) continue;
    for (Instruction &I : *BB)
      if (Value *Ptr = getLoadStorePointerOperand(&I); Ptr && Ptr->stripPointerCasts() == Want) Access.insert(BB);
  }
  if (Access.empty()) return false;
  SmallPtrSet<const BasicBlock *, 32> Seen;
  SmallVector<BasicBlock *, 32> Work{L->getHeader()};
  while (!Work.empty()) {
    BasicBlock *BB = Work.pop_back_val();
    if (Access.count(BB) || !L->contains(BB) || !Seen.insert(BB).second) continue;
    if (BB == Latch) return false;
    auto *Br = dyn_cast<BranchInst>(BB->getTerminator());
    auto *C = Br && Br->isConditional() ? dyn_cast<ICmpInst>(Br->getCondition()) : nullptr;
    if (C && is_contained(Nulls, C)) { // the not-null side only
      Work.push_back(Br->getSuccessor(C->getPredicate() == CmpInst::ICMP_EQ ? 1 : 0));
      continue;
    }
    for (BasicBlock *S : successors(BB))
      if (S != L->getHeader()) Work.push_back(S);
  }
  return true;
}

// The LDS checks' calls in L (both the inline paths' slow calls and the
// plain ones); false if one has a size the span cannot say.
bool collectSites(Loop *L, LoopInfo &LI, ArrayRef<ICmpInst *> Nulls, SmallVectorImpl<Site> &Sites) {
  for (BasicBlock *BB : L->blocks())
    for (Instruction &I : *BB) {
      auto *CB = dyn_cast<CallBase>(&I);
      Function *Callee = CB ? CB->getCalledFunction() : nullptr;
      if (!Callee) continue;
      StringRef N = Callee->getName();
      if (N != LDSAN_EMU_LDS_TRACK_FN && N != LDSAN_EMU_LDS_TRACK_AT_FN) continue;
      auto *SK = dyn_cast<ConstantInt>(CB->getArgOperand(1));
      if (!SK) return false;
      uint32_t V = (uint32_t)SK->getZExtValue();
      uint32_t Size = V & LDSAN_EMU_TRACK_SIZE_MASK;
      if (Size == 0 || Size > LDSAN_EMU_DISJOINT_MAX_BYTES) return false;
      bool Atomic = (V & LDSAN_EMU_TRACK_ATOMIC) != 0, Store = Atomic || (V & LDSAN_EMU_TRACK_STORE) != 0;
      StoreInst *St = tlsItemStore(CB);
      Sites.push_back({CB, CB->getArgOperand(0), Size, Store, Atomic,
                       Store && everyIteration(L, LI, Nulls, CB->getArgOperand(0)), St ? St->getValueOperand() : nullptr});
    }
  return !Sites.empty() && Sites.size() <= LDSAN_EMU_DISJOINT_MAX_SPANS;
}

// Whether L uses V (track_fast, or a value computed from it and constants
// only: the optimizer hoists the inline paths' compare of it out of the
// loop).
bool pure(Instruction *I, Value *V) {
  return (isa<CmpInst>(I) || isa<CastInst>(I) || isa<BinaryOperator>(I) || isa<SelectInst>(I)) &&
         all_of(I->operands(), [&](Use &Op) { return Op.get() == V || isa<Constant>(Op.get()); });
}

bool usesIn(Loop *L, Value *V, unsigned Depth = 0) {
  for (User *U : V->users())
    if (auto *I = dyn_cast<Instruction>(U))
      if (L->contains(I) || (Depth < 4 && pure(I, V) && usesIn(L, I, Depth + 1))) return true;
  return false;
}

// L's uses of V get New instead; a computation from V outside L that L uses
// is copied before At, computed from New.
void replaceIn(Loop *L, Value *V, Value *New, Instruction *At, unsigned Depth = 0) {
  SmallVector<Use *, 16> Uses;
  for (Use &U : V->uses()) Uses.push_back(&U);
  for (Use *U : Uses) {
    auto *I = dyn_cast<Instruction>(U->getUser());
    if (!I) continue;
    if (L->contains(I)) {
      U->set(New);
    } else if (Depth < 4 && pure(I, V) && usesIn(L, I, Depth + 1)) {
      Instruction *C = I->clone();
      C->replaceUsesOfWith(V, New);
      C->insertBefore(At->getIterator());
      replaceIn(L, I, C, At, Depth + 1);
    }
  }
}

// Instructions made before the decision that end up unused (it said no, or
// no span needed them): erased when it is done, the last made first.
struct DropUnused {
  SmallVector<Instruction *, 8> Made;
  ~DropUnused() {
    for (auto I = Made.rbegin(); I != Made.rend(); ++I)
      if ((*I)->use_empty()) (*I)->eraseFromParent();
  }
};

// track_fast, as the inline paths in L read it: what the copy makes 1.
SmallVector<LoadInst *, 4> trackFastLoads(Function &F, Loop *L) {
  SmallVector<LoadInst *, 4> FastLoads;
  for (Instruction &I : instructions(F))
    if (auto *LI = dyn_cast<LoadInst>(&I); LI && isFastField(LI) && usesIn(L, LI)) FastLoads.push_back(LI);
  return FastLoads;
}

// A workgroup of more than one dimension: its loops load each work-item's
// ids (tile[ty][k] reads): bounded by the workgroup's size, from the
// dispatch packet (workgroup_size_{x,y,z}, 16 bits each at offset 4, as
// the core fills it). Reads need no more than that (only their hull
// counts); a write so bounded is wider than its step and says no.
void boundWorkgroupIds(Function &F, BasicBlock *PH, Type *I64, AffineFinder &AF, DropUnused &Unused) {
  if (GlobalVariable *Tls = F.getParent()->getNamedGlobal(LDSAN_EMU_TLS_SYMBOL);
      Tls && F.arg_size() > 1 && F.getArg(1)->getType()->isPointerTy()) {
    IRBuilder<> SB(PH->getTerminator());
    auto *Packet = cast<Instruction>(SB.CreateLoad(
        SB.getPtrTy(), SB.CreateConstInBoundsGEP1_64(SB.getInt8Ty(), Tls, LDSAN_EMU_TLS_DISPATCH), "dispatch.packet"));
    Unused.Made.push_back(Packet);
    SmallVector<Value *, 3> Sizes;
    for (unsigned D = 0; D < 3; D++) {
      Value *Size = SB.CreateLoad(SB.getInt16Ty(), SB.CreateConstInBoundsGEP1_64(SB.getInt8Ty(), Packet, 4 + 2 * D));
      Unused.Made.push_back(cast<Instruction>(Size));
      Sizes.push_back(SB.CreateZExt(Size, I64, "workgroup.size"));
      Unused.Made.push_back(cast<Instruction>(Sizes.back()));
    }
    AF.boundItemIds(F.getArg(1), Sizes); // the group function's ids (retarget_wiloop.cpp)
  }
}

// Each site's access as an affine function of the work-item (As[K] of
// Sites[K]); false if one is not one.
bool describeSites(ArrayRef<Site> Sites, ScalarEvolution &SE, AffineFinder &AF, Type *I64,
                   SmallVectorImpl<Affine> &As) {
  for (const Site &S : Sites) {
    Affine A;
    AF.Bounded = false;
    if (!AF.of(SE.getPtrToIntExpr(SE.getSCEV(S.Ptr->stripPointerCasts()), I64), A)) return false;
    // A write through a bounded id: wider than its step wherever that id
    // varies, so the core would always say no; no copy.
    if (S.Store && AF.Bounded) return false;
    As.push_back(A);
  }
  return true;
}

// Whether nothing the steps before the loop expand may trap.
bool safeToExpand(SCEVExpander &Exp, const SCEV *Trips, ArrayRef<Guard> Guards, ArrayRef<Affine> As) {
  bool Safe = Exp.isSafeToExpand(Trips);
  for (const Guard &G : Guards) Safe = Safe && Exp.isSafeToExpand(G.A) && Exp.isSafeToExpand(G.B);
  for (const Affine &A : As) Safe = Safe && Exp.isSafeToExpand(A.Lo) && Exp.isSafeToExpand(A.W) && Exp.isSafeToExpand(A.Step);
  return Safe;
}

// Bare: every write is one each work-item makes, of whole words, and the
// loop's work-items are consecutive (the ids of the first, then + 16 bytes
// each), so the core can keep the writes' records itself. First: the
// work-items' ids' addresses, when bare.
bool bareCopy(ArrayRef<Site> Sites, ScalarEvolution &SE, AffineFinder &AF, SCEVExpander &Exp, Type *I64,
              Affine &First) {
  bool Bare = Sites[0].Item && all_of(Sites, [&](const Site &S) {
                return S.Item == Sites[0].Item && (!S.Store || (S.Every && !S.Atomic && S.Size % 4 == 0));
              });
  if (Bare) {
    size_t Kept = AF.Guards.size();
    Bare = AF.of(SE.getPtrToIntExpr(SE.getSCEV(Sites[0].Item), I64), First) && First.W->isZero() &&
           First.Step == SE.getConstant(I64, LDSAN_EMU_ITEM_IDS_SIZE) && Exp.isSafeToExpand(First.Lo);
    for (size_t K = Kept; K < AF.Guards.size(); K++) Bare = Bare && Exp.isSafeToExpand(AF.Guards[K].A) && Exp.isSafeToExpand(AF.Guards[K].B);
    if (!Bare) AF.Guards.resize(Kept);
  }
  return Bare;
}

// Before the loop (before At): the spans, stored in an alloca of F's entry
// block, which it returns.
AllocaInst *storeSpans(Function &F, Instruction *At, SCEVExpander &Exp, Type *I64, ArrayRef<Site> Sites,
                       ArrayRef<Affine> As) {
  auto expand = [&](const SCEV *S) { return Exp.expandCodeFor(S, I64, At->getIterator()); };
  IRBuilder<> EB(&*F.getEntryBlock().getFirstInsertionPt());
  AllocaInst *Spans = EB.CreateAlloca(ArrayType::get(I64, Sites.size() * (LDSAN_EMU_SPAN_SIZE / 8)), nullptr,
                                      "lds.spans");
  IRBuilder<> B(At);
  auto field = [&](unsigned K, unsigned Off) { return B.CreateConstInBoundsGEP1_64(B.getInt8Ty(), Spans, K * LDSAN_EMU_SPAN_SIZE + Off); };
  for (unsigned K = 0; K < Sites.size(); K++) {
    Value *Lo = expand(As[K].Lo), *W = expand(As[K].W), *Step = expand(As[K].Step);
    B.SetInsertPoint(At);
    B.CreateStore(Lo, field(K, LDSAN_EMU_SPAN_LO));
    B.CreateStore(W, field(K, LDSAN_EMU_SPAN_WIDTH));
    B.CreateStore(Step, field(K, LDSAN_EMU_SPAN_STEP));
    static_assert(LDSAN_EMU_SPAN_SIZE == 32, "lo, width, step, then size and store in one word");
    uint64_t Kind = (Sites[K].Store ? LDSAN_EMU_SPAN_STORE : 0) | (Sites[K].Every ? LDSAN_EMU_SPAN_EVERY : 0);
    B.CreateStore(B.getInt64(Sites[K].Size | Kind << 32), field(K, LDSAN_EMU_SPAN_ACCESS));
  }
  return Spans;
}

// Before the loop (before At): the guards and the core's answer on the
// NSpans spans; returns whether the copy may run (as far as they say).
Value *askCore(Function &F, Instruction *At, SCEVExpander &Exp, Type *I64, AllocaInst *Spans, unsigned NSpans,
               const SCEV *Trips, ArrayRef<Guard> Guards, bool Bare, const Affine &First,
               ArrayRef<ICmpInst *> Nulls) {
  auto expand = [&](const SCEV *S) { return Exp.expandCodeFor(S, I64, At->getIterator()); };
  IRBuilder<> B(At);
  Value *Ok = B.getTrue();
  Value *Items = B.CreateAdd(expand(Trips), B.getInt64(1));
  for (const Guard &G : Guards) {
    Value *A = expand(G.A), *C = expand(G.B);
    B.SetInsertPoint(At);
    Value *Holds = B.CreateICmp(G.P, A, C);
    Ok = B.CreateAnd(Ok, Holds);
  }
  Value *FirstIds = Bare ? B.CreateIntToPtr(expand(First.Lo), B.getPtrTy()) : ConstantPointerNull::get(B.getPtrTy());
  B.SetInsertPoint(At);
  FunctionCallee Disjoint = F.getParent()->getOrInsertFunction(LDSAN_EMU_LDS_DISJOINT_FN, B.getInt32Ty(), B.getPtrTy(),
                                                               B.getInt32Ty(), I64, B.getPtrTy());
  // Spans whose guards failed may be wrong, and a write of every work-item is
  // one only when the block pointer is not null: else the core sees no
  // work-items.
  Value *Sure = Ok;
  for (ICmpInst *C : Nulls) Sure = B.CreateAnd(Sure, B.CreateIsNotNull(C->getOperand(0)));
  Items = B.CreateSelect(Sure, Items, B.getInt64(0));
  Value *Answer =
      B.CreateCall(Disjoint, {B.CreateAddrSpaceCast(Spans, B.getPtrTy()), B.getInt32(NSpans), Items, FirstIds});
  return B.CreateAnd(Ok, B.CreateICmpNE(Answer, B.getInt32(0)));
}

// The barriers' pc slots, filled (else the loop fills them): Fast and that,
// loaded before At. Slots: each slot's load in L, and its value loaded so.
Value *slotsFilled(Loop *L, Instruction *At, Value *Fast, SmallVectorImpl<std::pair<LoadInst *, Value *>> &Slots) {
  IRBuilder<> B(At);
  for (LoadInst *Slot : barrierSlotLoads(L)) {
    LoadInst *Pc = B.CreateAlignedLoad(Slot->getType(), Slot->getPointerOperand(), Slot->getAlign(), "barrier.pc.filled");
    Pc->setAtomic(AtomicOrdering::Monotonic);
    Slots.push_back({Slot, Pc});
    Fast = B.CreateAnd(Fast, B.CreateIsNotNull(Pc));
  }
  return Fast;
}

// Copy (of L, VMap its values) skips the comparisons: its track_fast is the
// constant of its mode, L's 0; its pc slots' loads are the values loaded
// before it, and, bare, its calls without an inline path go.
void specialize(Loop *L, Loop *Copy, BasicBlock *PH, ValueToValueMapTy &VMap, ArrayRef<LoadInst *> FastLoads,
                ArrayRef<std::pair<LoadInst *, Value *>> Slots, ArrayRef<Site> Sites, bool Bare) {
  Type *I32 = Type::getInt32Ty(PH->getContext());
  uint32_t Mode = Bare ? LDSAN_EMU_TRACK_FAST_BARE : LDSAN_EMU_TRACK_FAST_WRITES;
  for (LoadInst *LI : FastLoads) {
    replaceIn(Copy, LI, ConstantInt::get(I32, Mode), PH->getTerminator());
    replaceIn(L, LI, ConstantInt::get(I32, 0), PH->getTerminator());
  }
  for (auto [Slot, Pc] : Slots) {
    auto *InCopy = cast<LoadInst>(VMap[Slot]);
    InCopy->replaceAllUsesWith(Pc);
    InCopy->eraseFromParent();
  }
  if (Bare) // the calls without an inline path (and their work-item stores) go too
    for (const Site &S : Sites) {
      auto *Call = dyn_cast_or_null<CallBase>(VMap.lookup(S.Call));
      if (!Call || Call->getCalledFunction()->getName() != LDSAN_EMU_LDS_TRACK_FN) continue;
      if (StoreInst *St = tlsItemStore(Call)) St->eraseFromParent();
      Call->eraseFromParent();
    }
}

} // namespace

StoreInst *tlsItemStore(CallBase *Call) {
  auto *St = dyn_cast_or_null<StoreInst>(Call->getPrevNode());
  if (!St) return nullptr;
  const DataLayout &DL = Call->getModule()->getDataLayout();
  APInt Off(64, 0);
  const Value *Base = St->getPointerOperand()->stripAndAccumulateConstantOffsets(DL, Off, /*AllowNonInbounds=*/true);
  auto *G = dyn_cast<GlobalVariable>(Base);
  return G && G->getName() == LDSAN_EMU_TLS_SYMBOL && Off == LDSAN_EMU_TLS_ITEM ? St : nullptr;
}

Loop *decideLdsDisjoint(Loop *L, ScalarEvolution &SE, LoopInfo &LI, DominatorTree &DT, ArrayRef<ICmpInst *> Nulls,
                        bool &BareCopy) {
  if (!getBooleanLoopAttribute(L, RT_LOOP_WHOLE_INTERVAL)) return nullptr;
  BasicBlock *PH = L->getLoopPreheader();
  Function &F = *PH->getParent();
  SmallVector<LoadInst *, 4> FastLoads = trackFastLoads(F, L);
  if (FastLoads.empty()) return nullptr;
  SmallVector<Site, 16> Sites;
  if (!collectSites(L, LI, Nulls, Sites)) return nullptr;
  if (isa<SCEVCouldNotCompute>(SE.getBackedgeTakenCount(L))) return nullptr;

  Type *I64 = Type::getInt64Ty(F.getContext());
  AffineFinder AF(SE, L);
  DropUnused Unused;
  boundWorkgroupIds(F, PH, I64, AF, Unused);
  SmallVector<Affine, 16> As;
  if (!describeSites(Sites, SE, AF, I64, As)) return nullptr;
  const SCEV *Trips = SE.getNoopOrZeroExtend(SE.getBackedgeTakenCount(L), I64);
  SCEVExpander Exp(SE, "lds.disjoint");
  if (!safeToExpand(Exp, Trips, AF.Guards, As)) return nullptr;
  Affine First;
  bool Bare = bareCopy(Sites, SE, AF, Exp, I64, First);

  // Before the loop: the spans, the core's answer, the guards, the pc slots.
  Instruction *At = PH->getTerminator();
  AllocaInst *Spans = storeSpans(F, At, Exp, I64, Sites, As);
  Value *Fast = askCore(F, At, Exp, I64, Spans, Sites.size(), Trips, AF.Guards, Bare, First, Nulls);
  SmallVector<std::pair<LoadInst *, Value *>, 4> Slots;
  Fast = slotsFilled(L, At, Fast, Slots);
  // The copy that skips the comparisons, and the loop that makes them.
  SplitBlock(PH, At, &DT, &LI, nullptr, "lds.disjoint.ph");
  ValueToValueMapTy VMap;
  Loop *Copy = versionLoopOn(L, PH, Fast, ".disjoint", LI, DT, VMap);
  specialize(L, Copy, PH, VMap, FastLoads, Slots, Sites, Bare);
  BareCopy = Bare;
  return Copy;
}

} // namespace ldsan_rt
