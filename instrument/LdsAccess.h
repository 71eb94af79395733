//===- LdsAccess.h - which memory accesses may touch LDS --------*- C++ -*-===//
//
// Header-only: which memory accesses may touch LDS, and the one scanner of a
// function's accesses that the LDS race/uninit checks (LdsChecks.cpp), the
// LDS-only mode's flat bounds checks (LdsOnly.cpp) and the CPU emulator's
// LDS tracking (retarget/retarget_wave.cpp) share.
//
//===----------------------------------------------------------------------===//
#ifndef LDSAN_INSTRUMENT_LDSACCESS_H
#define LDSAN_INSTRUMENT_LDSACCESS_H

#include "ldsan/entry_points.def"

#include "llvm/Analysis/ValueTracking.h"
#include "llvm/IR/DataLayout.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/IR/IntrinsicsAMDGPU.h"

#include "MemOps.h"

namespace ldsan {

inline constexpr unsigned LdsAS = 3;
inline constexpr unsigned FlatAS = 0;

/// Whether flat pointer P may point into LDS: not when it comes from an
/// alloca or from a pointer of another address space than LDS (a global, a
/// constant, a private pointer). At -O0 most LDS accesses are flat (through
/// an addrspacecast of the variable), and pointers passed around are flat.
inline bool mayBeLds(llvm::Value *P) {
  const llvm::Value *U = llvm::getUnderlyingObject(P);
  if (llvm::isa<llvm::AllocaInst>(U))
    return false;
  if (auto *GV = llvm::dyn_cast<llvm::GlobalValue>(U))
    return GV->getAddressSpace() == LdsAS;
  unsigned AS = U->getType()->isPointerTy() ? U->getType()->getPointerAddressSpace() : FlatAS;
  return AS == LdsAS || AS == FlatAS;
}

/// Whether pointer P is in LDS (address space 3) or flat and maybe in LDS.
inline bool inOrMaybeLds(llvm::Value *P) {
  unsigned AS = P->getType()->getPointerAddressSpace();
  return AS == LdsAS || (AS == FlatAS && mayBeLds(P));
}

/// One memory access of a kernel's code: a load, store or atomic, its
/// pointer, the bytes it touches, whether it writes and whether it is atomic.
struct MemAccess {
  llvm::Instruction *I = nullptr;
  llvm::Value *P = nullptr;
  uint64_t Size = 0;
  bool Store = false, Atomic = false;
};

/// Whether I is a load, store or atomic (filling A), not a call.
inline bool decodeMemAccess(llvm::Instruction &I, const llvm::DataLayout &DL, MemAccess &A) {
  llvm::Type *Ty = nullptr;
  A = MemAccess{};
  A.I = &I;
  if (auto *L = llvm::dyn_cast<llvm::LoadInst>(&I))
    A.P = L->getPointerOperand(), Ty = L->getType(), A.Atomic = L->isAtomic();
  else if (auto *S = llvm::dyn_cast<llvm::StoreInst>(&I))
    A.P = S->getPointerOperand(), Ty = S->getValueOperand()->getType(), A.Atomic = S->isAtomic(), A.Store = true;
  else if (auto *R = llvm::dyn_cast<llvm::AtomicRMWInst>(&I))
    A.P = R->getPointerOperand(), Ty = R->getValOperand()->getType(), A.Atomic = A.Store = true;
  else if (auto *X = llvm::dyn_cast<llvm::AtomicCmpXchgInst>(&I))
    A.P = X->getPointerOperand(), Ty = X->getNewValOperand()->getType(), A.Atomic = A.Store = true;
  else
    return false;
  A.Size = DL.getTypeStoreSize(Ty).getFixedValue();
  return true;
}

/// What one function's code does to memory that a check instruments.
struct MemScan {
  llvm::SmallVector<MemAccess, 32> Accesses;        // those Keep accepted
  llvm::SmallVector<llvm::CallBase *, 8> MemOps;    // memcpy, memmove, memset (MemOps.h)
  llvm::SmallVector<llvm::IntrinsicInst *, 8> Barriers, WaveBarriers; // s_barrier, wave.barrier
};

/// The one scanner of the LDS checks: the GPU's race and uninitialized-read
/// checks (LdsChecks.cpp), the LDS-only mode's flat bounds checks
/// (LdsOnly.cpp) and the CPU emulator's tracking (retarget/retarget_wave.cpp,
/// rt_lds_checks) each pick the accesses their pointer filter keeps:
/// Keep(const MemAccess &) -> bool. Every memcpy/memmove/memset call and
/// barrier is listed; the caller filters their pointers.
template <typename KeepFn>
MemScan scanMemory(llvm::Function &F, const llvm::DataLayout &DL, KeepFn Keep) {
  MemScan S;
  for (llvm::Instruction &I : llvm::instructions(F)) {
    MemAccess A;
    if (isMemOp(I))
      S.MemOps.push_back(llvm::cast<llvm::CallBase>(&I));
    else if (decodeMemAccess(I, DL, A)) {
      if (Keep(A))
        S.Accesses.push_back(A);
    } else if (auto *II = llvm::dyn_cast<llvm::IntrinsicInst>(&I)) {
      if (II->getIntrinsicID() == llvm::Intrinsic::amdgcn_s_barrier)
        S.Barriers.push_back(II);
      else if (II->getIntrinsicID() == llvm::Intrinsic::amdgcn_wave_barrier)
        S.WaveBarriers.push_back(II);
    }
  }
  return S;
}

/// The LDS checks' size-and-kind word of access A (entry_points.def: the
/// bytes, clamped to LDSAN_LDS_CHECK_SIZE_MASK, and LDSAN_LDS_CHECK_* bits).
inline uint32_t ldsCheckKind(const MemAccess &A) {
  uint64_t Size = A.Size > LDSAN_LDS_CHECK_SIZE_MASK ? LDSAN_LDS_CHECK_SIZE_MASK : A.Size;
  return (uint32_t)Size | (A.Store ? LDSAN_LDS_CHECK_STORE : 0) | (A.Atomic ? LDSAN_LDS_CHECK_ATOMIC : 0);
}

/// The length of memcpy/memmove/memset call MI as an i32 size field
/// (clamped to LDSAN_LDS_CHECK_SIZE_MASK), built at B.
inline llvm::Value *memOpSizeField(llvm::IRBuilder<> &B, llvm::CallBase *MI) {
  llvm::Value *Len = B.CreateZExtOrTrunc(MI->getArgOperand(2), B.getInt64Ty());
  Len = B.CreateBinaryIntrinsic(llvm::Intrinsic::umin, Len, B.getInt64(LDSAN_LDS_CHECK_SIZE_MASK));
  return B.CreateTrunc(Len, B.getInt32Ty());
}

} // namespace ldsan

#endif
