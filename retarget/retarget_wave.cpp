// ldsan-emu-retarget: lockstep waves. On a GPU the 64 lanes of a wave run
// one instruction at a time together; the emulator runs each work-item as a
// fiber and makes a wave's lanes meet where that is visible (design.md):
//
// - Classification (before lowering): a kernel runs in lockstep when code it
//   can reach -- its own, not ldsan's (LDSAN_RUNTIME_MD) nor the device
//   libraries' out-of-line functions -- uses a cross-lane intrinsic (other
//   than the ballot of ASan's own checks), a wave barrier or a volatile
//   access to shared memory, or when a plain
//   LDS load can read what another lane of its wave stored with no barrier
//   between (retarget_wave_lds.cpp: across calls too; a lane that only
//   touches its own slots needs no lockstep).
// - Lockstep points (before lowering): in those kernels an access to
//   global, flat or LDS memory of the kernel's own code that could see or
//   undo another lane's access since the last stop (memoryPoints) is preceded
//   by __ldsan_emu_wave_mem(ptr, rank): its lanes make the access only when
//   the wave's lanes are all there, so a lane reads what another lane of its
//   wave wrote one statement earlier, with no barrier, as on the GPU.
//   Accesses to a function's own allocas, ASan's shadow and constant globals
//   are not points.
//   Calls of the kernel's own functions (and the device libraries') are
//   points too, so the wave enters them together (LDSAN_EMU_WAVE_SYNC_CALL),
//   and so is the start of every block where a divergent branch reconverges
//   (its immediate post-dominator), so lanes that got there first wait for
//   the others -- where a lane can stop between the branch and the join
//   (mayStopBefore): else both sides meet at the next stop anyway.
// - Ranks (after the last optimization): each call of __ldsan_emu_wave_op or
//   __ldsan_emu_wave_mem gets as its last argument the depth of its block in
//   the post-dominator tree (times 2^20, plus how many instructions follow it
//   in the block). When the lanes of a wave wait at different sites, the core
//   lets the highest rank go first: the other lanes wait where the branches
//   join, as the hardware's exec mask makes them (a loop's lanes finish their
//   iterations before the ones that left it go on).
#include <cstdio>
#include <cstring>

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/SetVector.h"
#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/Analysis/PostDominators.h"
#include "llvm/Analysis/ValueTracking.h"
#include "llvm/IR/CFG.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/DataLayout.h"
#include "llvm/IR/Function.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/InlineAsm.h"
#include "llvm/Transforms/Utils/Cloning.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/IR/IntrinsicsAMDGPU.h"
#include "llvm/IR/Module.h"
#include "llvm/IR/Operator.h"

#include "instrument/AsanShadow.h"
#include "instrument/LdsAccess.h"
#include "instrument/MemOps.h"
extern "C" {
#include "ldsan/entry_points.def"
#include "ldsan/emu/wave_ops.h"
#include "ldsan/emu/lds_track.h"
#include "retarget.h"
}
#include "retarget_wave_lds.h"

using namespace llvm;
using ldsan::isShadowPointer;
using ldsan_rt::isBarrierCall;
using ldsan_rt::isRuntimeCode;

namespace {

constexpr unsigned kAsFlat = 0;
constexpr uint64_t kRankStep = 1ull << 20; // a block's post-dominator depth, in ranks

bool isZero(const Value *V) {
  auto *C = dyn_cast<Constant>(V);
  return C && C->isNullValue();
}

// Out-of-line functions that are not the kernel's own code.
bool isLibraryFunction(const Function &F) {
  StringRef N = F.getName();
  return N.starts_with("__ldsan_") || N.starts_with("__asan_") || N.starts_with("__ockl_") ||
         N.starts_with("__ocml_") || N.starts_with("asan.");
}

// ASan's check of an access on AMDGPU: ballot(bad) != 0 branches to a block
// that branches on `bad` again to the report. Per lane it reports exactly
// when the lane's own access is bad, so no lane needs the others.
bool isAsanCheckBallot(const IntrinsicInst &II) {
  if (II.getIntrinsicID() != Intrinsic::amdgcn_ballot || !II.hasOneUse())
    return false;
  auto *Cmp = dyn_cast<ICmpInst>(II.user_back());
  if (!Cmp || Cmp->getPredicate() != ICmpInst::ICMP_NE || !isZero(Cmp->getOperand(1)) || !Cmp->hasOneUse())
    return false;
  auto *Br = dyn_cast<BranchInst>(Cmp->user_back());
  if (!Br || !Br->isConditional())
    return false;
  auto *Inner = dyn_cast<BranchInst>(Br->getSuccessor(0)->getTerminator());
  return Inner && Inner->isConditional() && Inner->getCondition() == II.getArgOperand(0);
}

// Memory other lanes can see: not a function's own stack, not read-only data.
bool isSharedPointer(const Value *P) {
  unsigned As = P->getType()->getPointerAddressSpace();
  if (As != kAsFlat && As != RT_AS_GLOBAL && As != RT_AS_LDS)
    return false;
  const Value *Obj = getUnderlyingObjectAggressive(P);
  if (isa<AllocaInst>(Obj))
    return false;
  if (auto *GV = dyn_cast<GlobalVariable>(Obj))
    return !GV->isConstant();
  return true;
}

// Whether I, accessing memory at P, is the kernel's own code (not ldsan's
// runtime) touching memory other lanes can see (not ASan's shadow).
bool isOwnSharedAccess(Instruction &I, Value *P) {
  return !isRuntimeCode(I) && !isShadowPointer(P) && isSharedPointer(P);
}

// The pointer operand of a memory access of the kernel's own code, or null.
Value *accessedPointer(Instruction &I) {
  Value *P = nullptr;
  if (auto *L = dyn_cast<LoadInst>(&I))
    P = L->getPointerOperand();
  else if (auto *S = dyn_cast<StoreInst>(&I))
    P = S->getPointerOperand();
  else if (auto *A = dyn_cast<AtomicRMWInst>(&I))
    P = A->getPointerOperand();
  else if (auto *X = dyn_cast<AtomicCmpXchgInst>(&I))
    P = X->getPointerOperand();
  else if (auto *M = dyn_cast<MemIntrinsic>(&I))
    P = M->getDest();
  return P && isOwnSharedAccess(I, P) ? P : nullptr;
}

// A cross-lane intrinsic the core makes the wave's lanes meet at (ASan's
// per-access ballot excepted), or a workgroup barrier.
bool isCrossLane(const IntrinsicInst &II) {
  switch (II.getIntrinsicID()) {
  case Intrinsic::amdgcn_ballot:
    return !isAsanCheckBallot(II);
  case Intrinsic::amdgcn_icmp:
  case Intrinsic::amdgcn_fcmp:
  case Intrinsic::amdgcn_readfirstlane:
  case Intrinsic::amdgcn_readlane:
  case Intrinsic::amdgcn_ds_bpermute:
  case Intrinsic::amdgcn_ds_permute:
  case Intrinsic::amdgcn_ds_swizzle:
  case Intrinsic::amdgcn_update_dpp:
  case Intrinsic::amdgcn_mov_dpp:
  case Intrinsic::amdgcn_wave_barrier:
  case Intrinsic::amdgcn_s_barrier:
    return true;
  default:
    return false;
  }
}

// Why instruction I (of the kernel's own code) needs its wave in lockstep,
// or "" if it does not.
std::string lockstepUse(Instruction &I) {
  if (isRuntimeCode(I))
    return "";
  if (auto *II = dyn_cast<IntrinsicInst>(&I))
    return isCrossLane(*II) && II->getIntrinsicID() != Intrinsic::amdgcn_s_barrier
               ? II->getCalledFunction()->getName().str()
               : "";
  if (auto *L = dyn_cast<LoadInst>(&I))
    if (L->isVolatile() && accessedPointer(I))
      return "a volatile load";
  if (auto *S = dyn_cast<StoreInst>(&I))
    if (S->isVolatile() && accessedPointer(I))
      return "a volatile store";
  return "";
}

// Functions that contain a workgroup barrier or call one that does
// (__syncthreads stays a call in unoptimized code).
SmallPtrSet<const Function *, 8> barrierFunctions(Module &M) {
  SmallPtrSet<const Function *, 8> Set;
  for (bool Changed = true; Changed;) {
    Changed = false;
    for (Function &F : M) {
      if (Set.contains(&F))
        continue;
      for (Instruction &I : instructions(F))
        if (isBarrierCall(I, Set)) {
          Set.insert(&F);
          Changed = true;
          break;
        }
    }
  }
  return Set;
}

// A branch of ASan's check of one access (the ballot's, or the one after it
// that picks the failing lanes): lanes diverge there only to report.
bool isAsanCheckBranch(const Instruction *T) {
  auto *Br = dyn_cast<BranchInst>(T);
  if (!Br || !Br->isConditional())
    return false;
  auto IsCheck = [](const BranchInst *B) {
    auto *Cmp = dyn_cast<ICmpInst>(B->getCondition());
    auto *II = Cmp ? dyn_cast<IntrinsicInst>(Cmp->getOperand(0)) : nullptr;
    return II && isAsanCheckBallot(*II);
  };
  if (IsCheck(Br))
    return true;
  const BasicBlock *Pred = Br->getParent()->getSinglePredecessor();
  auto *PredBr = Pred ? dyn_cast<BranchInst>(Pred->getTerminator()) : nullptr;
  return PredBr && PredBr->isConditional() && IsCheck(PredBr) && PredBr->getSuccessor(0) == Br->getParent();
}

// The kernel's own functions: K and what it calls, not through library
// functions; an indirect call may reach any function whose address is taken.
SmallVector<Function *, 16> ownCode(Function *K) {
  SmallVector<Function *, 16> Work{K};
  SmallPtrSet<Function *, 16> Seen{K};
  bool Indirect = false;
  auto Add = [&](Function *F) {
    if (F && !F->isDeclaration() && !isLibraryFunction(*F) && Seen.insert(F).second)
      Work.push_back(F);
  };
  for (size_t I = 0; I < Work.size(); I++) {
    for (Instruction &In : instructions(*Work[I]))
      if (auto *CB = dyn_cast<CallBase>(&In)) {
        Add(CB->getCalledFunction());
        Indirect |= !CB->getCalledFunction() && !CB->isInlineAsm();
      }
    if (Indirect && I + 1 == Work.size()) {
      Indirect = false;
      for (Function &F : *K->getParent())
        if (F.hasAddressTaken())
          Add(&F);
    }
  }
  return Work;
}

// A call the wave enters together (a point before it): lanes that skipped a
// branch wait at the call for the others, not inside it (where they would
// be deeper in their stacks, and go first). Calls of the kernel's own and
// the device libraries' functions; not ASan's reports nor ldsan's runtime.
bool isWaveEntry(Instruction &I) {
  auto *CB = dyn_cast<CallBase>(&I);
  if (!CB || CB->isInlineAsm() || isRuntimeCode(I))
    return false;
  Function *Callee = CB->getCalledFunction();
  return !Callee || (!Callee->isDeclaration() && !Callee->getName().starts_with("__asan_") &&
                     !Callee->getName().starts_with("__ldsan_"));
}

// After which instructions the wave's lanes are known to be together: the
// cross-lane intrinsics (the core makes them meet) and barriers.
bool isMeeting(const Instruction &I) {
  auto *II = dyn_cast<IntrinsicInst>(&I);
  return II && isCrossLane(*II);
}

// The shared-memory accesses of F that need a point before them. Between
// two points the lanes of a wave run one after another; that gives the
// lockstep answer as long as no lane's access there can see or undo
// another's: loads only, or one store. So a load needs a point when a store
// may have run since the last point, a store (or an atomic, a memory
// intrinsic) when any access may have. A forward data flow over F's blocks;
// joins and calls are points (joins reset the state, after a call anything
// may have run).
SmallVector<std::pair<Instruction *, Value *>, 64> memoryPoints(Function &F,
                                                                const SmallSetVector<BasicBlock *, 16> &Joins) {
  enum : unsigned { Loaded = 1, Stored = 2 };
  DenseMap<BasicBlock *, unsigned> In, Out;
  SmallVector<std::pair<Instruction *, Value *>, 64> Points;
  // Runs block BB from its in-state; records its points if Record.
  auto Run = [&](BasicBlock &BB, unsigned State, bool Record) {
    if (Joins.contains(&BB))
      State = 0;
    for (Instruction &I : BB) {
      if (isMeeting(I)) {
        State = 0;
        continue;
      }
      if (isWaveEntry(I)) {
        State = Loaded | Stored;
        continue;
      }
      Value *P = accessedPointer(I);
      if (!P)
        continue;
      unsigned Kind = isa<LoadInst>(I) ? Loaded : Stored;
      if (isa<AtomicRMWInst>(I) || isa<AtomicCmpXchgInst>(I) || isa<MemIntrinsic>(I))
        Kind = Loaded | Stored;
      bool Need = Kind == Loaded ? (State & Stored) != 0 : State != 0;
      if (Need) {
        if (Record)
          Points.push_back({&I, P});
        State = 0;
      }
      State |= Kind;
    }
    return State;
  };
  // In-states only grow (4 values each), so this ends.
  for (bool Changed = true; Changed;) {
    Changed = false;
    for (BasicBlock &BB : F) {
      unsigned State = In.lookup(&BB);
      for (BasicBlock *Pred : predecessors(&BB))
        State |= Out.lookup(Pred);
      unsigned O = Run(BB, State, false);
      if (!Out.count(&BB) || Out[&BB] != O || In[&BB] != State)
        Changed = true;
      In[&BB] = State;
      Out[&BB] = O;
    }
  }
  for (BasicBlock &BB : F)
    Run(BB, In[&BB], true);
  return Points;
}

// Whether a lane of the kernel's own code may stop (a cross-lane operation,
// a call it enters with its wave, a shared-memory access that may be a
// point) in a block reachable from BB's successors before Join (null: the
// function's end).
bool mayStopBefore(BasicBlock &BB, BasicBlock *Join) {
  auto Stops = [](Instruction &I) {
    if (isRuntimeCode(I))
      return false;
    if (auto *II = dyn_cast<IntrinsicInst>(&I))
      if (isCrossLane(*II) && II->getIntrinsicID() != Intrinsic::amdgcn_s_barrier)
        return true;
    return isWaveEntry(I) || accessedPointer(I) != nullptr;
  };
  SmallVector<BasicBlock *, 16> Work(succ_begin(&BB), succ_end(&BB));
  SmallPtrSet<BasicBlock *, 32> Seen;
  while (!Work.empty()) {
    BasicBlock *B = Work.pop_back_val();
    if (B == Join || !Seen.insert(B).second)
      continue;
    if (any_of(*B, Stops))
      return true;
    Work.append(succ_begin(B), succ_end(B));
  }
  return false;
}

} // namespace

extern "C" void rt_wave_prepare(rt_ctx *C) {
  Module &M = *unwrap(C->mod);
  SmallVector<CallInst *, 16> Asm, Exec;
  for (Function &F : M)
    for (Instruction &I : instructions(F)) {
      auto *CI = dyn_cast<CallInst>(&I);
      if (!CI)
        continue;
      if (auto *IA = dyn_cast<InlineAsm>(CI->getCalledOperand())) {
        // "; ockl ballot hoisting hack $0" with "=v,0": a comment whose
        // output is its input (the device libraries' barrier to hoisting).
        StringRef Text = IA->getAsmString().ltrim();
        if (Text.starts_with(";") && IA->getConstraintString() == "=v,0" && CI->arg_size() == 1 &&
            CI->getType() == CI->getArgOperand(0)->getType())
          Asm.push_back(CI);
      } else if (CI->getIntrinsicID() == Intrinsic::read_register) {
        auto *MD = dyn_cast<MetadataAsValue>(CI->getArgOperand(0));
        auto *Node = MD ? dyn_cast<MDNode>(MD->getMetadata()) : nullptr;
        auto *Name = Node && Node->getNumOperands() ? dyn_cast<MDString>(Node->getOperand(0)) : nullptr;
        if (Name && (Name->getString() == "exec" || Name->getString() == "exec_lo") && CI->getType()->isIntegerTy())
          Exec.push_back(CI);
      }
    }
  for (CallInst *CI : Asm) {
    CI->replaceAllUsesWith(CI->getArgOperand(0));
    CI->eraseFromParent();
  }
  for (CallInst *CI : Exec) { // the exec mask: the lanes executing here
    IRBuilder<> B(CI);
    CallInst *Ballot = B.CreateIntrinsic(Intrinsic::amdgcn_ballot, {CI->getType()}, {B.getTrue()});
    Ballot->copyMetadata(*CI);
    CI->replaceAllUsesWith(Ballot);
    CI->eraseFromParent();
  }
}

extern "C" int rt_wave_is_asan_check(LLVMValueRef Call) {
  auto *II = dyn_cast<IntrinsicInst>(unwrap(Call));
  return II && isAsanCheckBallot(*II);
}

extern "C" void rt_wave_classify(rt_ctx *C) {
  SmallPtrSet<const Function *, 8> Barriers = barrierFunctions(*unwrap(C->mod));
  for (unsigned K = 0; K < C->kernel_count; K++) {
    rt_kernel &Kn = C->kernels[K];
    SmallVector<Function *, 16> Own = ownCode(unwrap<Function>(Kn.fn));
    for (Function *F : Own) {
      for (Instruction &I : instructions(*F)) {
        std::string Why = lockstepUse(I);
        if (Why.empty())
          continue;
        Kn.lockstep = 1;
        snprintf(Kn.lockstep_why, sizeof Kn.lockstep_why, "%s in '%s'", Why.c_str(), F->getName().str().c_str());
        break;
      }
      if (Kn.lockstep)
        break;
    }
    if (Kn.lockstep)
      continue;
    // A lane may read LDS another lane of its wave stored, or overwrite what
    // it read, out of the lanes' order (retarget_wave_lds.cpp).
    if (const Instruction *At = ldsan_rt::ldsLaneOrderHazard(Own, Barriers)) {
      Kn.lockstep = 1;
      std::string Where = "'" + At->getFunction()->getName().str() + "'";
      if (DebugLoc DL = At->getDebugLoc())
        Where += " (line " + std::to_string(DL.getLine()) + ")";
      const char *What = isa<CallBase>(At)  ? "a call that loads LDS that can follow an LDS store of another lane"
                         : isa<StoreInst>(At) ? "an LDS store that can follow an LDS load or store of another lane"
                                              : "an LDS load that can follow an LDS store of another lane";
      snprintf(Kn.lockstep_why, sizeof Kn.lockstep_why, "%s with no barrier between in %s", What, Where.c_str());
    }
  }
}

extern "C" void rt_wave_points(rt_ctx *C) {
  SmallPtrSet<Function *, 32> Done;
  Module &M = *unwrap(C->mod);
  LLVMContext &Ctx = M.getContext();
  Type *I32 = Type::getInt32Ty(Ctx), *I64 = Type::getInt64Ty(Ctx);
  PointerType *Flat = PointerType::get(Ctx, kAsFlat);
  FunctionCallee Mem = M.getOrInsertFunction(LDSAN_EMU_WAVE_MEM_FN, Type::getVoidTy(Ctx), Flat, I64);
  FunctionCallee Op = M.getOrInsertFunction(LDSAN_EMU_WAVE_OP_FN, I64, I32, I64, I32, I64);
  for (FunctionCallee Fn : {Mem, Op})
    if (auto *F = dyn_cast<Function>(Fn.getCallee()))
      F->addFnAttr(Attribute::Convergent);
  uint64_t Placeholder = 0;
  // Distinct placeholders keep the optimizer from merging two points.
  auto Point = [&](Instruction *I, ArrayRef<Value *> Args, FunctionCallee Fn) {
    SmallVector<Value *, 4> A(Args.begin(), Args.end());
    A.push_back(ConstantInt::get(I64, (1ull << 40) + ++Placeholder));
    CallInst *Call = CallInst::Create(Fn, A, "", I->getIterator());
    Call->setDebugLoc(I->getDebugLoc());
  };
  for (unsigned K = 0; K < C->kernel_count; K++) {
    if (!C->kernels[K].lockstep)
      continue;
    for (Function *F : ownCode(unwrap<Function>(C->kernels[K].fn))) {
      if (!Done.insert(F).second)
        continue;
      // Where the lanes of a divergent branch reconverge (its immediate
      // post-dominator), the lanes that get there first wait for the
      // others, as the exec mask makes them on the GPU: without it they
      // would run ahead into the next cross-lane operation alone.
      // Only where a lane can stop between the branch and the join: else
      // the lanes of both sides run through to the next stop after the join
      // and meet there anyway (the branches of ldsan's own prologue and
      // epilogue, which call only the runtime, get no point).
      PostDominatorTree PDT(*F);
      SmallSetVector<BasicBlock *, 16> Joins; // as found: their points' placeholders are numbered so
      for (BasicBlock &BB : *F) {
        Instruction *T = BB.getTerminator();
        if (!T || T->getNumSuccessors() < 2 || isAsanCheckBranch(T))
          continue;
        DomTreeNode *N = PDT.getNode(&BB);
        BasicBlock *Join = N && N->getIDom() ? N->getIDom()->getBlock() : nullptr;
        if (Join && !Joins.contains(Join) && mayStopBefore(BB, Join))
          Joins.insert(Join);
      }
      SmallVector<std::pair<Instruction *, uint32_t>, 16> Calls;
      for (BasicBlock *Join : Joins)
        Calls.push_back({&*Join->getFirstInsertionPt(), 0});
      for (Instruction &I : instructions(*F))
        if (isWaveEntry(I))
          Calls.push_back({&I, LDSAN_EMU_WAVE_SYNC_CALL});
      for (auto [I, P] : memoryPoints(*F, Joins)) {
        Value *Fp = P;
        if (P->getType()->getPointerAddressSpace() != kAsFlat)
          Fp = new AddrSpaceCastInst(P, Flat, "", I->getIterator());
        Point(I, {Fp}, Mem);
      }
      for (auto [I, Arg] : Calls)
        Point(I, {ConstantInt::get(I32, LDSAN_EMU_WAVE_SYNC), ConstantInt::get(I64, 0), ConstantInt::get(I32, Arg)}, Op);
    }
  }
}

extern "C" void rt_wave_rank_function(LLVMValueRef FnRef) {
  Function &F = *unwrap<Function>(FnRef);
  Module &M = *F.getParent();
  Function *Op = M.getFunction(LDSAN_EMU_WAVE_OP_FN), *Mem = M.getFunction(LDSAN_EMU_WAVE_MEM_FN);
  PostDominatorTree PDT(F);
  for (BasicBlock &BB : F) {
    DomTreeNode *N = PDT.getNode(&BB);
    uint64_t Depth = N ? N->getLevel() : 0, After = 0;
    for (auto It = BB.rbegin(); It != BB.rend(); ++It, ++After) {
      auto *CB = dyn_cast<CallBase>(&*It);
      if (!CB || !CB->getCalledFunction() || (CB->getCalledFunction() != Op && CB->getCalledFunction() != Mem))
        continue;
      uint64_t Rank = Depth * kRankStep + (After < kRankStep ? After : kRankStep - 1);
      unsigned Last = CB->arg_size() - 1;
      CB->setArgOperand(Last, ConstantInt::get(CB->getArgOperand(Last)->getType(), Rank));
    }
  }
}

extern "C" void rt_wave_rank(LLVMModuleRef MRef) {
  Module &M = *unwrap(MRef);
  Function *Op = M.getFunction(LDSAN_EMU_WAVE_OP_FN), *Mem = M.getFunction(LDSAN_EMU_WAVE_MEM_FN);
  SmallPtrSet<Function *, 32> Users;
  for (Function *Callee : {Op, Mem})
    if (Callee)
      for (User *U : Callee->users())
        if (auto *CB = dyn_cast<CallBase>(U))
          Users.insert(CB->getFunction());
  for (Function *F : Users)
    rt_wave_rank_function(wrap(F));
}

// The LDS checks of the core (core_lds_check.c: report_wave_sync,
// detect_races, detect_uninit) run a checked copy of each kernel: its own
// code (the kernel and the functions it reaches, cloned, calls between them
// redirected) with a call of __ldsan_emu_lds_track(ptr, size | store << 31 |
// atomic << 30) before every memory access that may touch shared memory (not
// its own allocas, ASan's shadow, global variables or what a global or flat
// kernel argument points to: the host's memory). The core keeps what falls
// in the workgroup's LDS block. The kernel itself stays as it was: the checks
// cost nothing when off. Runs after the lockstep points (the copy has them).

extern "C" void rt_lds_checks(rt_ctx *C) {
  Module &M = *unwrap(C->mod);
  LLVMContext &Ctx = M.getContext();
  Type *I32 = Type::getInt32Ty(Ctx);
  PointerType *Flat = PointerType::get(Ctx, kAsFlat);
  FunctionCallee Track = M.getOrInsertFunction(LDSAN_EMU_LDS_TRACK_FN, Type::getVoidTy(Ctx), Flat, I32);
  FunctionCallee Note =
      M.getOrInsertFunction("__ldsan_emu_lds_barrier_note", Type::getVoidTy(Ctx), PointerType::get(Ctx, 0));
  // Each call site is one barrier's pc: never merged into another's.
  cast<Function>(Note.getCallee())->addFnAttr(Attribute::NoMerge);
  const DataLayout &DL = M.getDataLayout();
  DenseMap<Function *, Function *> Checked; // original -> its checked copy, shared by kernels
  for (unsigned K = 0; K < C->kernel_count; K++) {
    SmallVector<Function *, 16> Own = ownCode(unwrap<Function>(C->kernels[K].fn));
    SmallVector<Function *, 16> Made;
    for (Function *F : Own) {
      if (Checked.count(F))
        continue;
      ValueToValueMapTy VMap;
      Function *Copy = CloneFunction(F, VMap);
      Copy->setName(F->getName() + RT_CHECKED_SUFFIX);
      Copy->setLinkage(GlobalValue::InternalLinkage);
      Checked[F] = Copy;
      Made.push_back(Copy);
    }
    Function *KernelCopy = Checked[unwrap<Function>(C->kernels[K].fn)];
    for (Function *Copy : Made) {
      // Whether memory at P may be in a workgroup's LDS block. Not what a
      // global or flat kernel argument points to: the host's (the LDS
      // lowering takes blocks from its pool); an LDS pointer argument may be.
      // Nor a global variable: __device__ data, amdgpu-sw-lower-lds's layout
      // table, or the LDS variable in which it keeps the block pointer (the
      // real LDS window, not the block). Tracking the table would also make it
      // look written, so every value loaded from it would be kept per
      // work-item in the frame (retarget_wiloop.cpp).
      auto mayBeInBlock = [&](Value *P) {
        Value *Base = getUnderlyingObject(P);
        auto *Arg = dyn_cast<Argument>(Base);
        bool HostArg = Arg && Copy == KernelCopy && Arg->getType()->getPointerAddressSpace() != RT_AS_LDS;
        return !HostArg && !isa<GlobalVariable>(Base);
      };
      for (Instruction &I : instructions(*Copy))
        if (auto *CB = dyn_cast<CallBase>(&I))
          if (Function *Callee = CB->getCalledFunction(); Callee && Checked.count(Callee))
            CB->setCalledFunction(Checked[Callee]);
      // The accesses of the kernel's own code (not ldsan's runtime, not
      // ASan's shadow) that may be in the block; the scanner is the GPU
      // checks' (instrument/LdsAccess.h).
      ldsan::MemScan Scan = ldsan::scanMemory(*Copy, DL, [&](const ldsan::MemAccess &A) {
        return isOwnSharedAccess(*A.I, A.P) && mayBeInBlock(A.P);
      });
      // Each barrier notes its pc for the barrier-divergence check first
      // (work-item loops keep no barrier call to take it from: they give
      // each barrier, once inlined, a slot to note it in once,
      // retarget_wiloop.cpp; fibers pass none). Not the kernel-exit barrier.
      for (IntrinsicInst *II : Scan.Barriers)
        if (!II->getMetadata(LDSAN_EXIT_BARRIER_MD))
          CallInst::Create(Note, {ConstantPointerNull::get(PointerType::get(Ctx, 0))}, "", II->getIterator())
              ->setDebugLoc(II->getDebugLoc());
      // memcpy, memmove, memset (struct copies at -O0; ASan makes them
      // __asan_* calls, runtime code the tracking does not see): the source
      // read and the destination written, of the length.
      for (CallBase *CB : Scan.MemOps) {
        IRBuilder<> B(CB);
        Value *Len = B.CreateZExtOrTrunc(CB->getArgOperand(2), B.getInt64Ty());
        Len = B.CreateTrunc(B.CreateBinaryIntrinsic(Intrinsic::umin, Len, B.getInt64(0x3fffffffu)), I32);
        auto track = [&](Value *P, uint32_t Store) {
          if (!mayBeInBlock(P)) return;
          Value *Fp = P->getType()->getPointerAddressSpace() == kAsFlat ? P : B.CreateAddrSpaceCast(P, Flat);
          B.CreateCall(Track, {Fp, B.CreateOr(Len, ConstantInt::get(I32, Store))})->setDebugLoc(CB->getDebugLoc());
        };
        if (CB->getArgOperand(1)->getType()->isPointerTy())
          track(CB->getArgOperand(1), 0);
        track(CB->getArgOperand(0), 1u << 31);
      }
      for (const ldsan::MemAccess &A : Scan.Accesses) {
        IRBuilder<> B(A.I);
        Value *Fp = A.P->getType()->getPointerAddressSpace() == kAsFlat ? A.P : B.CreateAddrSpaceCast(A.P, Flat);
        uint32_t Arg = (uint32_t)(A.Size & 0x3fffffffu) | (A.Store ? LDSAN_EMU_TRACK_STORE : 0) |
                       (A.Atomic ? LDSAN_EMU_TRACK_ATOMIC : 0);
        B.CreateCall(Track, {Fp, ConstantInt::get(I32, Arg)})->setDebugLoc(A.I->getDebugLoc());
      }
    }
    C->kernels[K].checked_fn = wrap(Checked[unwrap<Function>(C->kernels[K].fn)]);
  }
}
