// ldsan-emu-retarget: work-item loops (retarget_wiloop.cpp), the regions.
// The scratch copy of the kernel is split so that each barrier (and, in
// lockstep, each cross-lane stop, whose operands are parked in the frame)
// starts a block; region 0 starts at the entry, region j right after stop j.
// A kernel with more regions than the core's masks hold gets its exit
// regions numbered first. The LDS checks' barrier pc notes get a slot per
// barrier. Then each region's blocks are found, and which regions run more
// than once per work-item (a barrier on a cycle).
#include "llvm/IR/CFG.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/Transforms/Utils/BasicBlockUtils.h"

#include "retarget_wiloop.h"

using namespace llvm;

namespace ldsan_rt {

// Fixed-size allocas outside the entry block (unoptimized inlined code)
// move to it, as LLVM's inliner does for static ones.
void Former::hoistAllocas() {
  SmallVector<AllocaInst *, 8> late;
  for (BasicBlock &bb : *w_)
    if (&bb != &w_->getEntryBlock())
      for (Instruction &i : bb)
        if (auto *a = dyn_cast<AllocaInst>(&i)) late.push_back(a);
  for (AllocaInst *a : late) a->moveBefore(w_->getEntryBlock().getFirstNonPHIOrDbgOrAlloca());
}

void Former::splitAtBarriers() {
  SmallVector<std::pair<CallInst *, bool>, 16> calls;
  for (Instruction &i : instructions(*w_))
    if (auto *ci = dyn_cast<CallInst>(&i)) {
      Sync s = syncOf(ci->getCalledFunction());
      if (s == Sync::Barrier || s == Sync::ExitBarrier || (lockstep_ && isWaveStop(i)))
        calls.push_back({ci, s == Sync::ExitBarrier});
    }
  entries_.push_back(&w_->getEntryBlock());
  isExit_.push_back(false);
  isWave_.push_back(false);
  barrierSlots_.push_back(nullptr);
  for (auto [ci, exit] : calls) {
    if (isWaveCallee(ci->getCalledFunction())) {
      splitAtWaveStop(ci);
      continue;
    }
    isWave_.push_back(false);
    CallInst *note = barrierNote(ci);
    BasicBlock *nb = ci->getParent()->splitBasicBlock(ci->getIterator(), "barrier");
    ci->eraseFromParent();
    regionOf_[nb] = (unsigned)entries_.size();
    entries_.push_back(nb);
    isExit_.push_back(exit);
    barrierSlots_.push_back(note ? noteOnce(note) : nullptr);
  }
  if (entries_.size() > kMaskRegions) numberExitsFirst();
}

// Renumbers the regions so that those after a kernel-exit barrier come
// right after region 0, inside the core's mask (the others keep their
// order). Only kernels without cross-lane stops get here: those number
// their parked records' sites as they go.
void Former::numberExitsFirst() {
  SmallVector<unsigned, 64> order{0};
  for (unsigned k = 1; k < entries_.size(); ++k)
    if (isExit_[k]) order.push_back(k);
  for (unsigned k = 1; k < entries_.size(); ++k)
    if (!isExit_[k]) order.push_back(k);
  SmallVector<BasicBlock *, 16> entries;
  SmallVector<bool, 16> isExit, isWave;
  SmallVector<Value *, 16> slots;
  for (unsigned k : order) {
    entries.push_back(entries_[k]);
    isExit.push_back(isExit_[k]);
    isWave.push_back(isWave_[k]);
    slots.push_back(barrierSlots_[k]);
  }
  entries_ = std::move(entries);
  isExit_ = std::move(isExit);
  isWave_ = std::move(isWave);
  barrierSlots_ = std::move(slots);
  for (unsigned k = 1; k < entries_.size(); ++k) regionOf_[entries_[k]] = k;
}

// A cross-lane stop starts region j: the work-item parks its operands in
// its frame (the record of emu.h, LDSAN_EMU_PARK_*: site = j, depth = 0)
// and stops; its wave executes the operation
// (core_sched.c) and region j starts by loading its result from the record.
void Former::splitAtWaveStop(CallInst *ci) {
  LLVMContext &ctx = m_.getContext();
  Type *i32 = Type::getInt32Ty(ctx), *i64 = Type::getInt64Ty(ctx);
  if (!park_) {
    park_ = new AllocaInst(ArrayType::get(i64, LDSAN_EMU_PARK_SIZE / 8), dl_.getAllocaAddrSpace(), nullptr, Align(8), "wave.park",
                           w_->getEntryBlock().getFirstNonPHIOrDbgOrAlloca());
  }
  unsigned j = (unsigned)entries_.size();
  bool op = ci->getCalledFunction()->getName() == LDSAN_EMU_WAVE_OP_FN;
  IRBuilder<> b(ci);
  auto field = [&](unsigned byte) { return b.CreateConstInBoundsGEP1_64(b.getInt8Ty(), park_, byte); };
  b.CreateAlignedStore(op ? ci->getArgOperand(0) : ConstantInt::get(i32, LDSAN_EMU_WAVE_SYNC),
                       field(LDSAN_EMU_PARK_OP), Align(8));
  b.CreateAlignedStore(op ? ci->getArgOperand(2) : ConstantInt::get(i32, 0), field(LDSAN_EMU_PARK_ARG), Align(4));
  b.CreateAlignedStore(op ? ci->getArgOperand(1) : ConstantInt::get(i64, 0), field(LDSAN_EMU_PARK_VAL), Align(8));
  b.CreateAlignedStore(ci->getArgOperand(ci->arg_size() - 1), field(LDSAN_EMU_PARK_RANK), Align(8));
  b.CreateAlignedStore(ConstantInt::get(i64, j), field(LDSAN_EMU_PARK_SITE), Align(8));
  b.CreateAlignedStore(ConstantInt::get(i64, 0), field(LDSAN_EMU_PARK_DEPTH), Align(8));
  BasicBlock *nb = ci->getParent()->splitBasicBlock(ci->getIterator(), "wave");
  if (!ci->use_empty()) {
    IRBuilder<> rb(ci);
    LoadInst *r = rb.CreateAlignedLoad(i64, rb.CreateConstInBoundsGEP1_64(rb.getInt8Ty(), park_, LDSAN_EMU_PARK_RES), Align(8),
                                       "wave.result");
    ci->replaceAllUsesWith(r);
  }
  ci->eraseFromParent();
  regionOf_[nb] = j;
  entries_.push_back(nb);
  isExit_.push_back(false);
  isWave_.push_back(true);
  barrierSlots_.push_back(nullptr);
}

// The LDS checks' note of barrier ci's pc (rt_lds_checks: a call of
// __ldsan_emu_lds_barrier_note(slot) before it, in its block), or null.
CallInst *Former::barrierNote(CallInst *ci) {
  for (Instruction *i = ci->getPrevNode(); i; i = i->getPrevNode())
    if (auto *c = dyn_cast<CallInst>(i)) {
      Function *callee = c->getCalledFunction();
      return callee && callee->getName() == "__ldsan_emu_lds_barrier_note" ? c : nullptr;
    }
  return nullptr;
}

// A barrier's pc is the same for every work-item: the loops note it in a
// slot of its own (one per barrier of the inlined kernel: a barrier in a
// function called from two places is two barriers here), only while the
// slot is empty (the core reads the slot of the region a work-item waits
// at, ldsan_emu_kernel.group_checked_barrier_pcs). Returns the slot.
GlobalVariable *Former::noteOnce(CallInst *note) {
  Type *i64 = Type::getInt64Ty(m_.getContext());
  auto *slot = new GlobalVariable(m_, i64, false, GlobalValue::InternalLinkage, ConstantInt::get(i64, 0),
                                  LDSAN_EMU_BARRIER_PC_SLOT, nullptr, GlobalValue::NotThreadLocal, 0u);
  note->setArgOperand(0, slot);
  IRBuilder<> b(note);
  LoadInst *pc = b.CreateAlignedLoad(i64, slot, Align(8), "barrier.pc");
  pc->setAtomic(AtomicOrdering::Monotonic);
  Instruction *then = SplitBlockAndInsertIfThen(b.CreateIsNull(pc), note->getIterator(), false);
  note->moveBefore(then->getIterator());
  return slot;
}

// The slots of the regions' barriers as a constant array (region 0 and
// barriers without one: null), or null if no barrier has one.
GlobalVariable *Former::barrierSlotTable(const Twine &name) {
  auto *ptrTy = PointerType::get(m_.getContext(), 0);
  SmallVector<Constant *, 16> slots;
  bool any = false;
  for (Value *v : barrierSlots_) {
    any |= v != nullptr;
    slots.push_back(v ? cast<Constant>(v) : ConstantPointerNull::get(ptrTy));
  }
  if (!any) return nullptr;
  auto *ty = ArrayType::get(ptrTy, slots.size());
  return new GlobalVariable(m_, ty, true, GlobalValue::InternalLinkage, ConstantArray::get(ty, slots), name, nullptr,
                            GlobalValue::NotThreadLocal, 0u);
}

// The blocks of each region (from its entry to the next stops) and the
// regions each block is in; which regions run more than once per work-item.
void Former::findRegions() {
  regionBlocks_.resize(entries_.size());
  for (unsigned k = 0; k < entries_.size(); ++k) {
    SmallVector<BasicBlock *, 32> work{entries_[k]};
    SmallPtrSet<BasicBlock *, 32> seen{entries_[k]};
    while (!work.empty()) {
      BasicBlock *b = work.pop_back_val();
      regionBlocks_[k].push_back(b);
      BitVector &in = blockRegions_[b];
      if (in.size() <= k) in.resize(entries_.size());
      in.set(k);
      for (BasicBlock *s : successors(b))
        if (!regionOf_.count(s) && seen.insert(s).second) work.push_back(s);
    }
  }
  // A region runs more than once per work-item if its barrier is on a cycle.
  reexec_.assign(entries_.size(), false);
  for (unsigned k = 1; k < entries_.size(); ++k) {
    SmallVector<BasicBlock *, 32> work(succ_begin(entries_[k]), succ_end(entries_[k]));
    SmallPtrSet<BasicBlock *, 32> seen;
    while (!work.empty() && !reexec_[k]) {
      BasicBlock *b = work.pop_back_val();
      if (b == entries_[k]) reexec_[k] = true;
      else if (seen.insert(b).second) work.append(succ_begin(b), succ_end(b));
    }
  }
}

// The regions block b is in (null: none).
const BitVector *Former::regionsOf(BasicBlock *b) const {
  auto it = blockRegions_.find(b);
  return it == blockRegions_.end() ? nullptr : &it->second;
}
bool Former::inRegion(BasicBlock *b, unsigned k) const {
  const BitVector *r = regionsOf(b);
  return r && k < r->size() && r->test(k);
}

} // namespace ldsan_rt
