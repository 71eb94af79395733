// ldsan-emu-retarget: can a lane read LDS that another lane of its wave
// stored, or overwrite what another lane read, with no barrier between? On a
// GPU the lanes of a wave execute each statement together, so such a load
// sees the store (the Romberg pattern: lanes 1..16 store partial sums, lane 0
// adds them up with no __syncthreads()) and such a store comes after the
// load (`v = s[t]; s[t + 1] = v;` shifts by one); the emulator's work-item
// loops and fibers run one lane after another, lowest first, so the kernel
// must run its waves in lockstep (retarget_wave.cpp) unless that order gives
// the same answer. Kernels whose lanes only touch their own slots (an LDS
// bandwidth loop swapping s[tid] and s[tid + blockDim.x]) must not: lockstep
// costs a stop per access.
//
// - A forward data flow over each function of the kernel's own code: the LDS
//   stores and loads that may have run since the last barrier. A plain LDS
//   load with such a store pending is a hazard unless the two provably touch
//   only their own lane's bytes, or can meet only when the earlier access is
//   a lower lane's (below), which the lanes' order keeps. A store with such a
//   load or store pending is one only when the two addresses show that they
//   meet out of order (outOfOrder: strided fills, 2-D tiles and the like say
//   nothing and do not count). Calls use summaries of the callee (computed
//   to a fixed point): whether it may load LDS before its first barrier,
//   leave a store pending at its return, return without a barrier, or
//   contain a hazard itself; a load across a call is never proved safe, a
//   store across one is not looked at.
// - Which pointers may point into LDS: LDS pointers (and the block pointer
//   amdgpu-sw-lower-lds loads from its LDS slot), flat pointers built from
//   them, a function's pointer parameter when some call passes such a pointer
//   (a fixed point over the call sites), and what -O0 code reloads from an
//   alloca it stored one of those in.
// - Lane-own slots: each address is taken apart into a constant plus
//   coefficients of threadIdx.x (workitem.id.x, also through a device library
//   function without arguments returning it), of blockDim.x (the workgroup
//   size in the implicit arguments: >= every threadIdx.x + 1) and of
//   lane-uniform values (kernel arguments, workgroup ids, loads of the
//   implicit arguments and of ldsan's layout table; equal when computed the
//   same way). Store and load with the same nonzero coefficient a of
//   threadIdx.x and uniform parts that differ by a constant c plus k * a *
//   blockDim.x: lanes i != j of one wave (|i - j| < 64) meet only when
//   a * (i - j + k * blockDim.x) + c falls within the two accesses' sizes,
//   which is decided by trying the few integers that can. This holds for
//   one-dimensional workgroups; a kernel that reads threadIdx.y or .z, or
//   the lane id (mbcnt), proves nothing this way.
// - Lane order: with the same coefficient Step of threadIdx.x and the same
//   uniform terms, what is left of the earlier address minus the later one
//   (a constant, and lane-varying values whose range LLVM knows, such as a
//   tree reduction's `s` shifted down from blockDim.x / 2) lies in [lo, hi];
//   lanes e > l meet only if Step * (e - l) + [lo, hi] reaches into the two
//   accesses' sizes (laneOrder).
#include <cstdlib>

#include "llvm/ADT/BitVector.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/Analysis/ValueTracking.h"
#include "llvm/IR/CFG.h"
#include "llvm/IR/ConstantRange.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/DataLayout.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/IR/IntrinsicsAMDGPU.h"
#include "llvm/IR/Module.h"
#include "llvm/IR/Operator.h"

#include "retarget_wave_lds.h"

extern "C" {
#include "instrument/AsanShadow.h"
#include "retarget.h"
}

using namespace llvm;
using ldsan::isShadowPointer;

namespace ldsan_rt {
namespace {

constexpr unsigned kWaveLanes = 64; // the widest wave: lanes i, j of one wave have |i - j| < 64
constexpr unsigned kMaxDepth = 24;  // how deep an address or value is taken apart

bool isKernel(const Function &F) { return F.getCallingConv() == CallingConv::AMDGPU_KERNEL; }

bool isLdsSlot(const Value *V) {
  auto *GV = dyn_cast<GlobalVariable>(V);
  return GV && GV->getName().starts_with("llvm.amdgcn.sw.lds.");
}

bool isIntrinsic(const Value *V, Intrinsic::ID Id) {
  auto *II = dyn_cast<IntrinsicInst>(V);
  return II && II->getIntrinsicID() == Id;
}

// The value a function without parameters returns, when it has one return.
const Value *returnedValue(const Value *V) {
  auto *CB = dyn_cast<CallBase>(V);
  const Function *F = CB ? CB->getCalledFunction() : nullptr;
  if (!F || F->isDeclaration() || F->arg_size() != 0 || F->getReturnType()->isVoidTy())
    return nullptr;
  const Value *Ret = nullptr;
  for (const BasicBlock &BB : *F)
    if (auto *R = dyn_cast<ReturnInst>(BB.getTerminator())) {
      if (Ret)
        return nullptr;
      Ret = R->getReturnValue();
    }
  return Ret;
}

const Value *stripExtensions(const Value *V) {
  while (auto *Op = dyn_cast<Operator>(V))
    if (Op->getOpcode() == Instruction::ZExt || Op->getOpcode() == Instruction::SExt ||
        Op->getOpcode() == Instruction::Trunc)
      V = Op->getOperand(0);
    else
      break;
  return V;
}

// Byte offset of P from the implicit arguments' pointer (all offsets a select
// can pick), or false.
bool implicitArgOffsets(const Value *P, const DataLayout &DL, SmallVectorImpl<int64_t> &Offsets) {
  auto *G = dyn_cast<GEPOperator>(P);
  if (!G)
    return false;
  if (!isIntrinsic(G->getPointerOperand()->stripPointerCasts(), Intrinsic::amdgcn_implicitarg_ptr))
    return false;
  APInt Const(64, 0);
  if (G->accumulateConstantOffset(DL, Const)) {
    Offsets.push_back(Const.getSExtValue());
    return true;
  }
  if (G->getNumIndices() != 1)
    return false;
  auto *Sel = dyn_cast<SelectInst>(G->getOperand(1));
  auto *A = Sel ? dyn_cast<ConstantInt>(Sel->getTrueValue()) : nullptr;
  auto *B = Sel ? dyn_cast<ConstantInt>(Sel->getFalseValue()) : nullptr;
  if (!A || !B)
    return false;
  int64_t Scale = DL.getTypeAllocSize(G->getSourceElementType()).getFixedValue();
  Offsets.push_back(A->getSExtValue() * Scale);
  Offsets.push_back(B->getSExtValue() * Scale);
  return true;
}

// blockDim.x, or something at least as large: the workgroup's x size (COV5
// hidden_group_size_x, offset 12) or its remainder for the last workgroup
// (hidden_remainder_x, 18), as the device library picks between them.
bool isLocalSizeX(const Value *V, const DataLayout &DL, unsigned Depth = 0) {
  V = stripExtensions(V);
  if (Depth > 2)
    return false;
  if (const Value *R = returnedValue(V))
    return isLocalSizeX(R, DL, Depth + 1);
  auto *L = dyn_cast<LoadInst>(V);
  SmallVector<int64_t, 2> Offsets;
  if (!L || !L->getType()->isIntegerTy(16) || !implicitArgOffsets(L->getPointerOperand(), DL, Offsets))
    return false;
  for (int64_t O : Offsets)
    if (O != 12 && O != 18)
      return false;
  return true;
}

bool isLaneIdX(const Value *V, unsigned Depth = 0) {
  V = stripExtensions(V);
  if (isIntrinsic(V, Intrinsic::amdgcn_workitem_id_x))
    return true;
  const Value *R = Depth < 2 ? returnedValue(V) : nullptr;
  return R && isLaneIdX(R, Depth + 1);
}

// The same value in every lane of a workgroup, as far as this can tell.
bool isUniform(const Value *V, unsigned Depth = 0) {
  if (Depth > kMaxDepth)
    return false;
  if (isa<Constant>(V))
    return true;
  if (auto *A = dyn_cast<Argument>(V))
    return isKernel(*A->getParent());
  if (auto *II = dyn_cast<IntrinsicInst>(V)) {
    switch (II->getIntrinsicID()) {
    case Intrinsic::amdgcn_workgroup_id_x:
    case Intrinsic::amdgcn_workgroup_id_y:
    case Intrinsic::amdgcn_workgroup_id_z:
    case Intrinsic::amdgcn_implicitarg_ptr:
    case Intrinsic::amdgcn_dispatch_ptr:
    case Intrinsic::amdgcn_kernarg_segment_ptr:
    case Intrinsic::amdgcn_readfirstlane:
      return true;
    default:
      return false;
    }
  }
  if (auto *CB = dyn_cast<CallBase>(V)) {
    const Value *R = returnedValue(CB);
    return R && isUniform(R, Depth + 1);
  }
  if (auto *L = dyn_cast<LoadInst>(V)) {
    // Constant memory (the implicit arguments), or ldsan's LDS slot and
    // layout table (set before the kernel's first barrier).
    const Value *P = L->getPointerOperand();
    const Value *Obj = getUnderlyingObject(P);
    bool Invariant = P->getType()->getPointerAddressSpace() == RT_AS_CONSTANT || isLdsSlot(Obj);
    return Invariant && !L->isVolatile() && isUniform(P, Depth + 1);
  }
  auto *I = dyn_cast<Instruction>(V);
  if (!I || isa<PHINode>(I) || I->mayReadOrWriteMemory() || I->isTerminator())
    return false;
  for (const Value *Op : I->operands())
    if (!isUniform(Op, Depth + 1))
      return false;
  return true;
}

// Two uniform values computed the same way (two loads of the same LDS slot
// or table field, two calls of the same device library function).
bool sameValue(const Value *A, const Value *B, unsigned Depth = 0) {
  if (A == B)
    return true;
  auto *IA = dyn_cast<Instruction>(A), *IB = dyn_cast<Instruction>(B);
  if (!IA || !IB || Depth > 6 || IA->getOpcode() != IB->getOpcode() || IA->getType() != IB->getType() ||
      IA->getNumOperands() != IB->getNumOperands() || !IA->isSameOperationAs(IB))
    return false;
  for (unsigned K = 0; K < IA->getNumOperands(); K++)
    if (!sameValue(IA->getOperand(K), IB->getOperand(K), Depth + 1))
      return false;
  return true;
}

// An address (or integer) as C + sum of Coef * atom. Atoms: threadIdx.x
// (Tid), blockDim.x (Size), a uniform value, or (when the caller allows it)
// another value whose range is known (Ranged: it may differ between lanes,
// so two addresses' Ranged terms never cancel).
struct Linear {
  enum Kind { Tid, Size, Uniform, Ranged };
  struct Term {
    Kind K;
    const Value *V;
    int64_t Coef;
  };
  int64_t C = 0;
  SmallVector<Term, 6> Terms;
  bool AllowRanged = false;

  void add(Kind K, const Value *V, int64_t Coef) {
    if (!Coef)
      return;
    for (Term &T : Terms)
      if (T.K == K && (K != Uniform || sameValue(T.V, V)) && (K != Ranged || T.V == V)) {
        T.Coef += Coef;
        return;
      }
    Terms.push_back({K, V, Coef});
  }
  void addAll(const Linear &O, int64_t Scale) {
    C += O.C * Scale;
    for (const Term &T : O.Terms)
      add(T.K, T.V, T.Coef * Scale);
  }
  int64_t coef(Kind K) const {
    int64_t S = 0;
    for (const Term &T : Terms)
      if (T.K == K)
        S += T.Coef;
    return S;
  }
};

// Coefficients are kept small: a product past this gives up.
constexpr int64_t kMaxCoef = int64_t(1) << 32;

bool linearize(const Value *V, const DataLayout &DL, Linear &Out, int64_t Scale, unsigned Depth = 0);

// The range of an integer that is the same whether extended with zeros or
// with its sign (known to lie in [0, 2^31)): LLVM's known bits and constant
// range (a loop's `s >>= 1` from blockDim.x / 2, a `tid & 15`).
bool valueRange(const Value *V, const DataLayout &DL, int64_t &Lo, int64_t &Hi) {
  auto *Ty = dyn_cast<IntegerType>(V->getType());
  if (!Ty || Ty->getBitWidth() > 64 || Ty->getBitWidth() < 2)
    return false;
  ConstantRange CR = computeConstantRange(V, /*ForSigned=*/true, /*UseInstrInfo=*/true);
  CR = CR.intersectWith(ConstantRange::fromKnownBits(computeKnownBits(V, DL), /*IsSigned=*/true));
  if (CR.isEmptySet() || CR.getSignedMin().isNegative() || CR.getSignedMax().getActiveBits() > 31)
    return false;
  Lo = CR.getSignedMin().getSExtValue();
  Hi = CR.getSignedMax().getSExtValue();
  return true;
}

bool linearizeTerm(const Value *V, const DataLayout &DL, Linear &Out, int64_t Scale) {
  if (std::llabs(Scale) > kMaxCoef)
    return false;
  if (isLaneIdX(V)) {
    Out.add(Linear::Tid, nullptr, Scale);
    return true;
  }
  if (isLocalSizeX(V, DL)) {
    Out.add(Linear::Size, nullptr, Scale);
    return true;
  }
  if (isUniform(V)) {
    Out.add(Linear::Uniform, V, Scale);
    return true;
  }
  int64_t Lo, Hi;
  if (!Out.AllowRanged || !valueRange(V, DL, Lo, Hi))
    return false;
  Out.add(Linear::Ranged, V, Scale);
  return true;
}

bool linearize(const Value *V, const DataLayout &DL, Linear &Out, int64_t Scale, unsigned Depth) {
  if (Depth > kMaxDepth || std::llabs(Scale) > kMaxCoef)
    return false;
  if (auto *CI = dyn_cast<ConstantInt>(V)) {
    Out.C += CI->getSExtValue() * Scale;
    return true;
  }
  if (isa<ConstantPointerNull>(V))
    return true;
  auto *Op = dyn_cast<Operator>(V);
  if (!Op || isLaneIdX(V) || isLocalSizeX(V, DL))
    return linearizeTerm(V, DL, Out, Scale);
  auto ConstOperand = [&](unsigned K, int64_t &C) {
    auto *CI = dyn_cast<ConstantInt>(Op->getOperand(K));
    if (!CI || CI->getBitWidth() > 64)
      return false;
    C = CI->getSExtValue();
    return true;
  };
  int64_t C = 0;
  switch (Op->getOpcode()) {
  case Instruction::ZExt:
  case Instruction::SExt:
  case Instruction::Trunc:
  case Instruction::PtrToInt:
  case Instruction::IntToPtr:
  case Instruction::AddrSpaceCast:
  case Instruction::BitCast:
    return linearize(Op->getOperand(0), DL, Out, Scale, Depth + 1);
  case Instruction::Add:
    return linearize(Op->getOperand(0), DL, Out, Scale, Depth + 1) &&
           linearize(Op->getOperand(1), DL, Out, Scale, Depth + 1);
  case Instruction::Or:
    if (!cast<PossiblyDisjointInst>(Op)->isDisjoint())
      break;
    return linearize(Op->getOperand(0), DL, Out, Scale, Depth + 1) &&
           linearize(Op->getOperand(1), DL, Out, Scale, Depth + 1);
  case Instruction::Sub:
    return linearize(Op->getOperand(0), DL, Out, Scale, Depth + 1) &&
           linearize(Op->getOperand(1), DL, Out, -Scale, Depth + 1);
  case Instruction::Mul:
    if (ConstOperand(1, C))
      return linearize(Op->getOperand(0), DL, Out, Scale * C, Depth + 1);
    if (ConstOperand(0, C))
      return linearize(Op->getOperand(1), DL, Out, Scale * C, Depth + 1);
    break;
  case Instruction::Shl:
    if (ConstOperand(1, C) && C >= 0 && C < 32)
      return linearize(Op->getOperand(0), DL, Out, Scale * (int64_t(1) << C), Depth + 1);
    break;
  case Instruction::GetElementPtr: {
    auto *G = cast<GEPOperator>(Op);
    unsigned Bits = DL.getIndexTypeSizeInBits(G->getType());
    SmallMapVector<Value *, APInt, 4> Vars;
    APInt Const(Bits, 0);
    if (!G->collectOffset(DL, Bits, Vars, Const))
      return false;
    Out.C += Const.getSExtValue() * Scale;
    for (auto &[Idx, Step] : Vars)
      if (!linearize(Idx, DL, Out, Scale * Step.getSExtValue(), Depth + 1))
        return false;
    return linearize(G->getPointerOperand(), DL, Out, Scale, Depth + 1);
  }
  default:
    break;
  }
  return linearizeTerm(V, DL, Out, Scale);
}

uint64_t accessSize(const Instruction &I, const DataLayout &DL) {
  Type *Ty = isa<LoadInst>(I) ? I.getType() : cast<StoreInst>(I).getValueOperand()->getType();
  return DL.getTypeStoreSize(Ty).getFixedValue();
}

const Value *pointerOf(const Instruction &I) {
  return isa<LoadInst>(I) ? cast<LoadInst>(I).getPointerOperand() : cast<StoreInst>(I).getPointerOperand();
}

// Whether store S and load L, with nothing but a barrier-free path between,
// provably touch no byte of each other from two lanes of one wave.
bool laneOwn(const Instruction &S, const Instruction &L, const DataLayout &DL) {
  Linear A, B;
  if (!linearize(pointerOf(S), DL, A, 1) || !linearize(pointerOf(L), DL, B, 1))
    return false;
  int64_t Step = A.coef(Linear::Tid);
  if (!Step || B.coef(Linear::Tid) != Step)
    return false;
  Linear D = B; // the load's address minus the store's
  D.addAll(A, -1);
  int64_t K = 0;
  for (const Linear::Term &T : D.Terms) {
    if (!T.Coef)
      continue;
    if (T.K != Linear::Size || T.Coef % Step)
      return false;
    K = T.Coef / Step;
  }
  // Lane i's load [Step*i + c, + sizeL) meets lane j's store [Step*j, + sizeS)
  // when Step * M + c lies in (-sizeL, sizeS), M = i - j + K * blockDim.x:
  // with K = 0, 0 < |M| < 64; else M != 0 (|i - j| < blockDim.x), any size.
  int64_t SizeS = accessSize(S, DL), SizeL = accessSize(L, DL), C = D.C;
  int64_t Reach = (std::llabs(C) + SizeS + SizeL) / std::llabs(Step) + 1;
  if (Reach > (int64_t(1) << 20))
    return false;
  int64_t Limit = K ? Reach : std::min<int64_t>(Reach, kWaveLanes - 1);
  for (int64_t M = -Limit; M <= Limit; M++) {
    int64_t At = Step * M + C;
    if (M && At > -SizeL && At < SizeS)
      return false;
  }
  return true;
}

// What running a wave's lanes one after another does to two accesses.
enum class LaneOrder {
  Kept,       // they meet only in the GPU's order, or never
  OutOfOrder, // lanes e > l meet: a higher lane's earlier access would come second
  Unknown,    // the addresses are not both of the form below, or their ranges may meet
};

// Whether accesses E and L, E before L in a lane's program order with no
// barrier between, can touch a common byte from lanes e > l of one wave. If
// not (Kept), running the wave's lanes one after another in ascending order
// (work-item loops and fibers both do) gives what lockstep gives: when they meet, the
// lower lane's earlier access comes first either way (the tree reduction's
// `buf[t] += buf[t + s]`, s >= 0: the load of lane t meets the store of lane
// t + s). Both addresses must be the same multiple of threadIdx.x plus the
// same uniform terms; what is left (a constant, and values of known range,
// ranges of one address minus those of the other) is R, and lanes e > l meet
// when Step * (e - l) + R falls within (-size of E, size of L).
LaneOrder laneOrder(const Instruction &E, const Instruction &L, const DataLayout &DL) {
  Linear A, B;
  A.AllowRanged = B.AllowRanged = true;
  if (!linearize(pointerOf(E), DL, A, 1) || !linearize(pointerOf(L), DL, B, 1))
    return LaneOrder::Unknown;
  int64_t Step = A.coef(Linear::Tid);
  if (!Step || B.coef(Linear::Tid) != Step)
    return LaneOrder::Unknown;
  int64_t Lo = A.C - B.C, Hi = Lo;
  Linear D; // the uniform and blockDim.x terms of A - B: they must cancel
  for (const Linear::Term &T : A.Terms)
    if (T.K == Linear::Uniform || T.K == Linear::Size)
      D.add(T.K, T.V, T.Coef);
  for (const Linear::Term &T : B.Terms)
    if (T.K == Linear::Uniform || T.K == Linear::Size)
      D.add(T.K, T.V, -T.Coef);
  for (const Linear::Term &T : D.Terms)
    if (T.Coef)
      return LaneOrder::Unknown;
  auto AddRange = [&](const Linear::Term &T, int64_t Sign) {
    int64_t VLo, VHi, Coef = T.Coef * Sign;
    if (std::llabs(Coef) > (int64_t(1) << 20) || !valueRange(T.V, DL, VLo, VHi))
      return false;
    Lo += Coef > 0 ? Coef * VLo : Coef * VHi;
    Hi += Coef > 0 ? Coef * VHi : Coef * VLo;
    return true;
  };
  for (const Linear::Term &T : A.Terms)
    if (T.K == Linear::Ranged && !AddRange(T, 1))
      return LaneOrder::Unknown;
  for (const Linear::Term &T : B.Terms)
    if (T.K == Linear::Ranged && !AddRange(T, -1))
      return LaneOrder::Unknown;
  int64_t SizeE = accessSize(E, DL), SizeL = accessSize(L, DL);
  if (Lo == Hi) { // exactly: a lane difference of 1 .. 63
    for (int64_t M = 1; M < kWaveLanes; M++) {
      int64_t At = Step * M + Lo;
      if (At > -SizeE && At < SizeL)
        return LaneOrder::OutOfOrder;
    }
    return LaneOrder::Kept;
  }
  // With ranges, lanes' values are taken as independent: a meeting found so
  // may be none (a strided loop's `i` from t in steps of blockDim.x).
  int64_t Near = std::min(Step, Step * (kWaveLanes - 1)), Far = std::max(Step, Step * (kWaveLanes - 1));
  return Far + Hi <= -SizeE || Near + Lo >= SizeL ? LaneOrder::Kept : LaneOrder::Unknown;
}

// A function's behaviour at its calls (see the banner).
struct Summary {
  bool LoadsFirst = false;    // may load LDS before its first barrier
  bool StoresLast = false;    // may return with an LDS store since its last barrier
  bool PassesThrough = false; // may return without a barrier
  const Instruction *Found = nullptr; // an access that may meet another lane's out of order inside it
  bool operator==(const Summary &O) const {
    return LoadsFirst == O.LoadsFirst && StoresLast == O.StoresLast && PassesThrough == O.PassesThrough &&
           Found == O.Found;
  }
};

class Analysis {
public:
  Analysis(ArrayRef<Function *> Own, const SmallPtrSet<const Function *, 8> &Barriers)
      : Own(Own.begin(), Own.end()), Barriers(Barriers), DL(Own.front()->getParent()->getDataLayout()) {
    for (Function *F : Own)
      OwnSet.insert(F);
    OneD = !readsOtherLaneCoordinates();
    findLdsArguments();
  }

  const Instruction *run() {
    for (bool Changed = true; Changed;) {
      Changed = false;
      for (Function *F : Own) {
        Summary S = flow(*F);
        if (!(S == Sums[F])) {
          Sums[F] = S;
          Changed = true;
        }
      }
    }
    return Sums[Own.front()].Found;
  }

private:
  SmallVector<Function *, 16> Own;
  SmallPtrSet<const Function *, 16> OwnSet;
  const SmallPtrSet<const Function *, 8> &Barriers;
  const DataLayout &DL;
  bool OneD = true;
  DenseSet<const Argument *> LdsArgs;
  DenseMap<const Function *, Summary> Sums;
  DenseMap<const FunctionType *, bool> InertByType; // indirectIsInert's answers

  // Whether the kernel's own code reads threadIdx.y or .z or the lane id:
  // then lanes with the same threadIdx.x may differ (amdgpu-sw-lower-lds's
  // test for work-item (0,0,0), an or of the three compared with 0, does not
  // count).
  bool readsOtherLaneCoordinates() {
    auto OnlyZeroTest = [](const Instruction &I) {
      SmallVector<const Value *, 8> Work{&I};
      while (!Work.empty()) {
        const Value *V = Work.pop_back_val();
        for (const User *U : V->users()) {
          auto *BO = dyn_cast<BinaryOperator>(U);
          if (BO && BO->getOpcode() == Instruction::Or) {
            Work.push_back(BO);
            continue;
          }
          auto *Cmp = dyn_cast<ICmpInst>(U);
          if (!Cmp || !Cmp->isEquality() || !match0(Cmp->getOperand(1)))
            return false;
        }
      }
      return true;
    };
    for (Function *F : Own)
      for (Instruction &I : instructions(*F)) {
        auto *II = dyn_cast<IntrinsicInst>(&I);
        if (!II || isRuntimeCode(I))
          continue;
        switch (II->getIntrinsicID()) {
        case Intrinsic::amdgcn_workitem_id_y:
        case Intrinsic::amdgcn_workitem_id_z:
          if (!OnlyZeroTest(I))
            return true;
          break;
        case Intrinsic::amdgcn_mbcnt_lo:
        case Intrinsic::amdgcn_mbcnt_hi:
          return true;
        default:
          break;
        }
      }
    // The device library's work-item id of a dimension given at run time.
    for (Function *F : Own)
      for (Instruction &I : instructions(*F))
        if (auto *CB = dyn_cast<CallBase>(&I))
          if (Function *Callee = CB->getCalledFunction())
            if (Callee->getName().starts_with("__ockl_get_local_id") ||
                Callee->getName().starts_with("__ockl_get_local_linear_id"))
              if (!isLaneIdX(CB))
                return true;
    return false;
  }
  static bool match0(const Value *V) {
    auto *C = dyn_cast<Constant>(V);
    return C && C->isNullValue();
  }

  bool mayBeLds(const Value *P, unsigned Depth = 0) const {
    if (Depth > 8 || !P->getType()->isPointerTy() || isShadowPointer(P))
      return false;
    const Value *Obj = getUnderlyingObjectAggressive(P);
    if (isLdsSlot(Obj))
      return false;
    if (Obj->getType()->isPointerTy() && Obj->getType()->getPointerAddressSpace() == RT_AS_LDS)
      return true;
    if (auto *L = dyn_cast<LoadInst>(Obj)) {
      const Value *From = L->getPointerOperand()->stripPointerCasts();
      if (From->getType()->getPointerAddressSpace() == RT_AS_LDS)
        return true; // the block pointer, loaded from amdgpu-sw-lower-lds's slot
      // -O0: a pointer reloaded from the alloca it was stored in.
      auto *AI = dyn_cast<AllocaInst>(getUnderlyingObject(From));
      SmallVector<const Value *, 4> Addrs;
      if (AI)
        Addrs.push_back(AI);
      for (size_t K = 0; K < Addrs.size() && K < 16; K++)
        for (const User *U : Addrs[K]->users())
          if (isa<AddrSpaceCastInst>(U) || isa<BitCastInst>(U))
            Addrs.push_back(U);
          else if (auto *St = dyn_cast<StoreInst>(U))
            if (St->getPointerOperand() == Addrs[K] && mayBeLds(St->getValueOperand(), Depth + 1))
              return true;
      return false;
    }
    if (auto *A = dyn_cast<Argument>(Obj))
      return LdsArgs.contains(A);
    return false;
  }

  // Pointer parameters some call of the kernel's own code passes an LDS
  // pointer in (all of an address-taken function's).
  void findLdsArguments() {
    for (Function *F : Own)
      if (!isKernel(*F) && F->hasAddressTaken())
        for (Argument &A : F->args())
          if (A.getType()->isPointerTy())
            LdsArgs.insert(&A);
    for (bool Changed = true; Changed;) {
      Changed = false;
      for (Function *F : Own)
        for (Instruction &I : instructions(*F)) {
          auto *CB = dyn_cast<CallBase>(&I);
          Function *Callee = CB ? CB->getCalledFunction() : nullptr;
          if (!Callee || !OwnSet.contains(Callee) || isKernel(*Callee))
            continue;
          for (unsigned K = 0; K < CB->arg_size() && K < Callee->arg_size(); K++)
            if (!LdsArgs.contains(Callee->getArg(K)) && mayBeLds(CB->getArgOperand(K))) {
              LdsArgs.insert(Callee->getArg(K));
              Changed = true;
            }
        }
    }
  }

  bool isLdsStore(const Instruction &I) const {
    auto *S = dyn_cast<StoreInst>(&I);
    return S && !isRuntimeCode(I) && !S->isAtomic() && mayBeLds(S->getPointerOperand());
  }
  bool isLdsLoad(const Instruction &I) const {
    auto *L = dyn_cast<LoadInst>(&I);
    return L && !isRuntimeCode(I) && !L->isAtomic() && mayBeLds(L->getPointerOperand());
  }

  // The pending state: stores and loads of F since the last barrier (by
  // index), a store made by a callee (Unknown), and no barrier since F's
  // entry (Entry).
  struct State {
    BitVector Stores, Loads;
    bool Unknown = false, Entry = false, Reached = false;
    bool merge(const State &O) {
      State Old = *this;
      if (Stores.size() < O.Stores.size())
        Stores.resize(O.Stores.size());
      if (Loads.size() < O.Loads.size())
        Loads.resize(O.Loads.size());
      Stores |= O.Stores;
      Loads |= O.Loads;
      Unknown |= O.Unknown;
      Entry |= O.Entry;
      Reached |= O.Reached;
      return Old.Stores != Stores || Old.Loads != Loads || Old.Unknown != Unknown || Old.Entry != Entry ||
             Old.Reached != Reached;
    }
    void barrier() {
      Stores.reset();
      Loads.reset();
      Unknown = Entry = false;
    }
  };

  Summary flow(Function &F) {
    DenseMap<const Instruction *, unsigned> Index;
    SmallVector<const Instruction *, 32> Stores, Loads;
    for (Instruction &I : instructions(F))
      if (isLdsStore(I)) {
        Index[&I] = Stores.size();
        Stores.push_back(&I);
      } else if (isLdsLoad(I)) {
        Index[&I] = Loads.size();
        Loads.push_back(&I);
      }
    Summary Sum;
    DenseMap<const BasicBlock *, State> In;
    State Start;
    Start.Stores.resize(Stores.size());
    Start.Loads.resize(Loads.size());
    Start.Entry = Start.Reached = true;
    In[&F.getEntryBlock()] = Start;
    SmallVector<const BasicBlock *, 32> Work{&F.getEntryBlock()};
    SmallPtrSet<const BasicBlock *, 32> Queued{&F.getEntryBlock()};
    while (!Work.empty()) {
      const BasicBlock *BB = Work.pop_back_val();
      Queued.erase(BB);
      State St = In[BB];
      for (const Instruction &I : *BB)
        step(I, St, Stores, Loads, Index, Sum);
      if (isa<ReturnInst>(BB->getTerminator())) {
        Sum.PassesThrough |= St.Entry;
        Sum.StoresLast |= St.Unknown || St.Stores.any();
      }
      for (const BasicBlock *Succ : successors(BB)) {
        State &S = In[Succ];
        if (S.Stores.size() < Stores.size())
          S.Stores.resize(Stores.size());
        if (S.Loads.size() < Loads.size())
          S.Loads.resize(Loads.size());
        if ((S.merge(St) || !S.Reached) && Queued.insert(Succ).second)
          Work.push_back(Succ);
      }
    }
    return Sum;
  }

  /// An indirect call reaches only a function whose address is taken, of
  /// the call's type: when each such function is defined, touches no LDS
  /// and calls nothing but the runtime, ASan's reports and intrinsics, the call does nothing
  /// to LDS (clean_O0.hip's table of arithmetic helpers).
  /// (Decided once per function type: step() meets the call on every pass of
  /// the fixed-point iteration.)
  bool indirectIsInert(const CallBase &CB) {
    auto [It, New] = InertByType.try_emplace(CB.getFunctionType(), false);
    if (New)
      It->second = scanInert(CB);
    return It->second;
  }

  bool scanInert(const CallBase &CB) const {
    for (const Function &F : *CB.getModule()) {
      if (!F.hasAddressTaken() || F.getFunctionType() != CB.getFunctionType())
        continue;
      if (F.isDeclaration())
        return false;
      for (const Instruction &I : instructions(F)) {
        if (isLdsLoad(I) || isLdsStore(I))
          return false;
        auto *C = dyn_cast<CallBase>(&I);
        const Function *To = C ? C->getCalledFunction() : nullptr;
        if (C && !isRuntimeCode(I) &&
            !(To && (To->isIntrinsic() || To->getName().starts_with("__asan_") || To->getName().starts_with("__ldsan_"))))
          return false;
      }
    }
    return true;
  }

  // Whether two of the kernel's LDS accesses, E before L with no barrier
  // between, may meet from two lanes of a wave in an order that running the
  // lanes one after another does not keep.
  // Whether two of the kernel's LDS accesses, E before L with no barrier
  // between, may meet from two lanes of a wave in an order that running the
  // lanes one after another does not keep. Never at a lane's own slots;
  // when the addresses say
  // nothing (not affine in threadIdx.x, a workgroup of more dimensions),
  // Unknown: a load after a store counts (the Romberg pattern needs it), a
  // store after a load or store does not (strided fills, 2-D tiles and
  // histograms would all be lockstep; code that needs the GPU's order there
  // is rare, and detect_races reports it).
  bool outOfOrder(const Instruction &E, const Instruction &L, bool Unknown) const {
    if (!OneD)
      return Unknown;
    if (laneOwn(E, L, DL))
      return false;
    LaneOrder O = laneOrder(E, L, DL);
    return O == LaneOrder::Unknown ? Unknown : O == LaneOrder::OutOfOrder;
  }

  void step(const Instruction &I, State &St, ArrayRef<const Instruction *> Stores,
            ArrayRef<const Instruction *> Loads, const DenseMap<const Instruction *, unsigned> &Index, Summary &Sum) {
    auto Pending = [&] { return St.Unknown || St.Stores.any(); };
    if (isLdsStore(I)) {
      // A store after a load (or store) of another lane: the lane that ran
      // later on a GPU must not run first here.
      for (unsigned K : St.Loads.set_bits())
        if (!Sum.Found && outOfOrder(*Loads[K], I, false))
          Sum.Found = &I;
      for (unsigned K : St.Stores.set_bits())
        if (!Sum.Found && outOfOrder(*Stores[K], I, false))
          Sum.Found = &I;
      St.Stores.set(Index.lookup(&I));
      return;
    }
    if (isLdsLoad(I)) {
      Sum.LoadsFirst |= St.Entry;
      if (!Sum.Found && St.Unknown)
        Sum.Found = &I;
      for (unsigned K : St.Stores.set_bits())
        if (!Sum.Found && outOfOrder(*Stores[K], I, true))
          Sum.Found = &I;
      St.Loads.set(Index.lookup(&I));
      return;
    }
    auto *CB = dyn_cast<CallBase>(&I);
    if (!CB || CB->isInlineAsm() || isRuntimeCode(I))
      return;
    Function *Callee = CB->getCalledFunction();
    if (Callee && Callee->getIntrinsicID() == Intrinsic::amdgcn_s_barrier) {
      St.barrier();
      return;
    }
    Summary C;
    if (!Callee) { // an indirect call: anything the kernel's own code may do
      if (indirectIsInert(*CB))
        return;
      C.LoadsFirst = C.StoresLast = C.PassesThrough = true;
    } else if (OwnSet.contains(Callee)) {
      C = Sums.lookup(Callee);
    } else {
      if (isBarrierCall(I, Barriers)) // a library function with a barrier
        St.barrier();
      return;
    }
    if (C.LoadsFirst) {
      Sum.LoadsFirst |= St.Entry;
      if (!Sum.Found && Pending())
        Sum.Found = &I;
    }
    if (!Sum.Found && C.Found)
      Sum.Found = C.Found;
    if (!C.PassesThrough)
      St.barrier();
    St.Unknown |= C.StoresLast;
  }
};

} // namespace

const Instruction *ldsLaneOrderHazard(ArrayRef<Function *> Own, const SmallPtrSet<const Function *, 8> &Barriers) {
  if (Own.empty())
    return nullptr;
  return Analysis(Own, Barriers).run();
}

} // namespace ldsan_rt
