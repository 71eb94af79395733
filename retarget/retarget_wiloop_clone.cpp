// ldsan-emu-retarget: work-item loops (retarget_wiloop.cpp), a region's code
// in its loop. The region's blocks are cloned into the loop's body; a return
// or a branch to a barrier (or cross-lane stop) becomes a stop: the
// work-item's state, its bit in the result mask, the latch. Values from
// outside the region take the loop's pinned values, and the TLS work-item is
// set right before each call.
#include <string>

#include "llvm/IR/IntrinsicInst.h"
#include "llvm/Transforms/Utils/Cloning.h"

#include "retarget_wiloop.h"

using namespace llvm;

namespace ldsan_rt {

// The region's blocks cloned into the body: a return or a branch to a
// barrier becomes a stop (the work-item's state, the result mask, the
// latch), and the body ends in a branch to the region's entry.
void Former::cloneRegion(Function *g, unsigned k, AllocaInst *mask, Value *nextParity, Constant *tlsItem,
                         RegionLoop &L) {
  LLVMContext &ctx = m_.getContext();
  Type *i32 = Type::getInt32Ty(ctx), *i64 = Type::getInt64Ty(ctx);
  const std::string &tag = L.tag;
  ValueToValueMapTy &vm = L.vm;
  // Where a work-item stops: barrier j, or the end of the kernel (kDoneStop:
  // the stub of the blocks that only return; others store the state inline).
  DenseMap<unsigned, BasicBlock *> stubs;
  auto stopAt = [&](unsigned j) {
    BasicBlock *&s = stubs[j];
    if (s) return s;
    s = BasicBlock::Create(ctx, tag + (j == kDoneStop ? std::string(".to.done") : ".to.r" + std::to_string(j)), g);
    IRBuilder<> sb(s);
    sb.CreateStore(stopState(sb, j, nextParity), L.sp);
    sb.CreateStore(sb.CreateOr(sb.CreateLoad(i64, mask), ConstantInt::get(i64, stopBit(j))), mask);
    sb.CreateBr(L.latch);
    L.stubRegion[s] = j;
    return s;
  };

  SmallVector<BasicBlock *, 32> clones;
  for (BasicBlock *ob : regionBlocks_[k]) {
    BasicBlock *nb = CloneBasicBlock(ob, vm, "." + tag, g);
    vm[ob] = nb;
    clones.push_back(nb);
    for (Instruction &ni : make_early_inc_range(*nb)) {
      if (isa<AllocaInst>(ni)) { // entry-block allocas: pinned above
        ni.eraseFromParent();
        continue;
      }
      if (auto *ii = dyn_cast<IntrinsicInst>(&ni); ii && ii->isLifetimeStartOrEnd()) {
        ni.eraseFromParent();
        continue;
      }
      // A workgroup fence became a single-thread one (retarget_lds.c): it
      // orders fibers of one OS thread. Work-items of a loop run one after
      // another in program order, so it orders nothing here, and would keep
      // the optimizer from hoisting loads out of the loop.
      if (auto *fi = dyn_cast<FenceInst>(&ni); fi && fi->getSyncScopeID() == SyncScope::SingleThread) {
        ni.eraseFromParent();
        continue;
      }
      Instruction *t = nb->getTerminator();
      if (&ni != t) continue;
      if (isa<ReturnInst>(t) && &nb->front() == t) { // a block that only returns: the shared stub
        BranchInst::Create(stopAt(kDoneStop), t->getIterator());
        t->eraseFromParent();
        continue;
      }
      if (isa<ReturnInst>(t)) {
        IRBuilder<> rb(t);
        rb.CreateStore(ConstantInt::get(i32, kStateDone), L.sp);
        rb.CreateStore(rb.CreateOr(rb.CreateLoad(i64, mask), ConstantInt::get(i64, LDSAN_EMU_GROUP_DONE)), mask);
        rb.CreateBr(L.latch);
        t->eraseFromParent();
        continue;
      }
      for (unsigned s = 0; s < t->getNumSuccessors(); ++s)
        if (auto it = regionOf_.find(t->getSuccessor(s)); it != regionOf_.end())
          t->setSuccessor(s, stopAt(it->second));
    }
  }
  // Cloning mapped the region's copies of pinned values to their clones:
  // every use in the region takes the pinned value instead.
  for (auto &[from, to] : L.pinned) vm[from] = to;
  for (BasicBlock *nb : clones)
    for (Instruction &ni : *nb) RemapInstruction(&ni, vm, RF_NoModuleLevelChanges | RF_IgnoreMissingLocals);
  // Code of the region reads its ids from `item` directly; only functions
  // it calls (reports, traps, the runtime) read the TLS work-item, so it
  // is set right before each call instead of for every work-item.
  for (BasicBlock *nb : clones)
    for (Instruction &ni : *nb)
      if (auto *call = dyn_cast<CallBase>(&ni); call && !isa<IntrinsicInst>(call))
        new StoreInst(L.item, tlsItem, call->getIterator());
  BranchInst::Create(cast<BasicBlock>(vm[entries_[k]]), L.body);
}

// The state of a work-item that stopped at barrier j (the kernel-exit
// barrier's keeps parity 0; kDoneStop: returned).
Value *Former::stopState(IRBuilder<> &b, unsigned j, Value *nextParity) {
  Type *i32 = Type::getInt32Ty(m_.getContext());
  if (j == kDoneStop) return ConstantInt::get(i32, kStateDone);
  return isExit_[j] ? (Value *)ConstantInt::get(i32, j << 1) : b.CreateOr(ConstantInt::get(i32, j << 1), nextParity);
}

// The group function's result bit of a work-item that stopped at j.
uint64_t Former::stopBit(unsigned j) {
  return j == kDoneStop ? LDSAN_EMU_GROUP_DONE : ldsan_emu_region_bit(j);
}

} // namespace ldsan_rt
