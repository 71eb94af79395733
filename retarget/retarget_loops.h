// ldsan-emu-retarget: what the passes that decide once per work-item loop
// share (retarget_shadow_ranges.cpp: ASan's shadow checks;
// retarget_lds_disjoint.cpp: the LDS checks' comparisons): the addresses of
// the loop's accesses as affine functions of the work-item, and loop
// versioning (a copy of the loop, entered when a condition computed before
// it holds).
//
// For a top-level loop L over the work-items and an i64 (or narrower,
// extended) expression X of the loop's code, Affine says: the first
// work-item's values are Lo + d, 0 <= d <= W (over its inner loops), and the
// i-th work-item's are the first's + i * Step. Steps and trip counts are
// bounded by guards the caller checks at run time (Guards), so that every
// product is exact in 64 bits, and 32-bit parts under a sign or zero
// extension are guarded to stay in their type's range over the whole loop, so
// that the extension of each value equals the value computed in 64 bits (add
// and mul commute with truncation).
//
// With boundItemIds, a work-item's id (a load of its ids, as the loops of a
// workgroup of more than one dimension read them) is taken as a bound: any
// value of [0, size - 1] for every work-item (Step 0, W the size - 1). An
// Affine made of one then says only where the values lie, not which
// work-item takes which: a caller that needs the latter must find W 0 or
// the windows apart (retarget_lds_disjoint.cpp: a write whose window is wider
// than its step says no).
#ifndef LDSAN_EMU_RETARGET_LOOPS_H
#define LDSAN_EMU_RETARGET_LOOPS_H

#include "llvm/ADT/SmallVector.h"
#include "llvm/Analysis/LoopInfo.h"
#include "llvm/Analysis/ScalarEvolution.h"
#include "llvm/IR/Dominators.h"
#include "llvm/IR/InstrTypes.h"
#include "llvm/IR/Instructions.h"
#include "llvm/Transforms/Utils/ValueMapper.h"

namespace ldsan_rt {

constexpr int64_t kMaxStep = int64_t(1) << 20;     // |step| of a recurrence
constexpr uint64_t kMaxTrips = uint64_t(1) << 20; // backedges of a loop
constexpr int64_t kMaxScale = int64_t(1) << 16;    // |constant factor|

// The values an i64 expression takes over the loop: Lo + d, 0 <= d <= W
// (mod 2^64); W is exact.
struct Range {
  const llvm::SCEV *Lo, *W;
};

// The first work-item's values (Lo, W as in Range) and the step between
// consecutive work-items.
struct Affine {
  const llvm::SCEV *Lo, *W, *Step;
};

// A condition the caller checks at run time before trusting a result.
struct Guard {
  const llvm::SCEV *A;
  llvm::CmpInst::Predicate P;
  const llvm::SCEV *B;
};

class AffineFinder {
public:
  // L: the work-item loop; its backedge-taken count must be computable.
  AffineFinder(llvm::ScalarEvolution &SE, llvm::Loop *L);
  llvm::SmallVector<Guard, 8> Guards;

  // X as an affine function of the work-item; false (Guards possibly
  // extended: drop what was added) if it is not one this class can bound.
  bool of(const llvm::SCEV *X, Affine &A);
  // The values over the whole loop.
  Range whole(const Affine &A);
  // Loads of field D (0..2) of the ids of L's work-items (Ids: the group
  // function's array, L's index its element) are in [0, Sizes[D] - 1]
  // (Sizes: i64 values before L, the workgroup's size in each dimension).
  void boundItemIds(llvm::Value *Ids, llvm::ArrayRef<llvm::Value *> Sizes);
  // Set when an id was taken as a bound (never cleared here).
  bool Bounded = false;

private:
  llvm::Value *Ids = nullptr;
  llvm::SmallVector<llvm::Value *, 3> Sizes;
  bool itemId(const llvm::SCEVUnknown *U, Affine &A);
  llvm::ScalarEvolution &SE;
  llvm::Loop *L;
  llvm::Type *I64;
  const llvm::SCEV *Trips; // L's backedges, i64
  const llvm::SCEV *ext(const llvm::SCEV *X) { return SE.getNoopOrSignExtend(X, I64); }
  void guardStep(const llvm::SCEV *S);
};

// Loop versioning: L (in LCSSA form) gets a copy, entered instead of L when
// Cond holds; Decide is the block before L's preheader (its only
// predecessor, ending in a branch to it) and computes Cond. Returns the
// copy (VMap: L's values to the copy's). DT is not kept up to date.
llvm::Loop *versionLoopOn(llvm::Loop *L, llvm::BasicBlock *Decide, llvm::Value *Cond, const llvm::Twine &Suffix,
                          llvm::LoopInfo &LI, llvm::DominatorTree &DT, llvm::ValueToValueMapTy &VMap);

// The store of the work-item pointer into the TLS block right before Call
// (the loops store it before every call a region makes), or null.
llvm::StoreInst *tlsItemStore(llvm::CallBase *Call);

// retarget_lds_disjoint.cpp: in a checked group function, versions work-item
// loop L (with a preheader, in LCSSA form) into a copy that skips the LDS
// checks' comparisons, entered when its accesses turn out disjoint at run
// time. Nulls: L's tests of the LDS block pointer (loaded outside L) against
// null, the same for every work-item. Returns the copy, or null (nothing
// changed); Bare: whether the copy keeps nothing of its accesses (the core
// keeps its writes).
llvm::Loop *decideLdsDisjoint(llvm::Loop *L, llvm::ScalarEvolution &SE, llvm::LoopInfo &LI, llvm::DominatorTree &DT,
                              llvm::ArrayRef<llvm::ICmpInst *> Nulls, bool &Bare);

} // namespace ldsan_rt

#endif
