//===- LdsAccess.h - which memory accesses may touch LDS --------*- C++ -*-===//
//
// Header-only: the LDS race/uninit checks (LdsChecks.cpp) and the LDS-only
// mode's flat bounds checks (LdsOnly.cpp) pick the same accesses.
//
//===----------------------------------------------------------------------===//
#ifndef LDSAN_INSTRUMENT_LDSACCESS_H
#define LDSAN_INSTRUMENT_LDSACCESS_H

#include "ldsan/entry_points.def"

#include "llvm/Analysis/ValueTracking.h"
#include "llvm/IR/DataLayout.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/Instructions.h"

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

/// The pointer load, store or atomic I accesses in LDS or maybe in LDS
/// (flat), and the bytes and kind of the access (LDSAN_LDS_CHECK_* bits of
/// entry_points.def), or null.
inline llvm::Value *ldsAccess(llvm::Instruction &I, const llvm::DataLayout &DL, uint32_t &Kind) {
  llvm::Value *P = nullptr;
  llvm::Type *Ty = nullptr;
  bool Atomic = false, Store = false;
  if (auto *L = llvm::dyn_cast<llvm::LoadInst>(&I))
    P = L->getPointerOperand(), Ty = L->getType(), Atomic = L->isAtomic();
  else if (auto *S = llvm::dyn_cast<llvm::StoreInst>(&I))
    P = S->getPointerOperand(), Ty = S->getValueOperand()->getType(), Atomic = S->isAtomic(), Store = true;
  else if (auto *R = llvm::dyn_cast<llvm::AtomicRMWInst>(&I))
    P = R->getPointerOperand(), Ty = R->getValOperand()->getType(), Atomic = Store = true;
  else if (auto *X = llvm::dyn_cast<llvm::AtomicCmpXchgInst>(&I))
    P = X->getPointerOperand(), Ty = X->getNewValOperand()->getType(), Atomic = Store = true;
  if (!P || !inOrMaybeLds(P))
    return nullptr;
  uint64_t Size = DL.getTypeStoreSize(Ty).getFixedValue();
  if (Size > LDSAN_LDS_CHECK_SIZE_MASK)
    Size = LDSAN_LDS_CHECK_SIZE_MASK;
  Kind = (uint32_t)Size | (Store ? LDSAN_LDS_CHECK_STORE : 0) | (Atomic ? LDSAN_LDS_CHECK_ATOMIC : 0);
  return P;
}

/// The length of memcpy/memmove/memset call MI as an i32 size field
/// (clamped to LDSAN_LDS_CHECK_SIZE_MASK), built at B.
inline llvm::Value *memOpSizeField(llvm::IRBuilder<> &B, llvm::CallInst *MI) {
  llvm::Value *Len = B.CreateZExtOrTrunc(MI->getArgOperand(2), B.getInt64Ty());
  Len = B.CreateBinaryIntrinsic(llvm::Intrinsic::umin, Len, B.getInt64(LDSAN_LDS_CHECK_SIZE_MASK));
  return B.CreateTrunc(Len, B.getInt32Ty());
}

} // namespace ldsan

#endif
