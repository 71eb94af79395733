// ldsan-emu-retarget: work-item loops (retarget_wiloop.cpp), the state each
// work-item keeps. Every SSA value used outside its block is demoted to an
// alloca (like reg2mem); an alloca whose contents can outlive one run of one
// region, or whose address escapes, gets a slot in the work-item's frame
// (frames + i * frame_size). The rest stay allocas of the group function,
// which SROA promotes again.
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/Support/MathExtras.h"
#include "llvm/Transforms/Utils/Local.h"

#include "retarget_wiloop.h"

using namespace llvm;

namespace ldsan_rt {
namespace {

// Whether ty holds a pointer of a non-zero address space. The module's data
// layout makes LDS pointers 4 bytes, but x86 code generation stores every
// pointer as 8 bytes, so memory holding one gets twice the room.
bool holdsNarrowPointer(Type *ty) {
  if (auto *p = dyn_cast<PointerType>(ty)) return p->getAddressSpace() != 0;
  if (auto *v = dyn_cast<VectorType>(ty)) return holdsNarrowPointer(v->getElementType());
  if (auto *a = dyn_cast<ArrayType>(ty)) return holdsNarrowPointer(a->getElementType());
  if (auto *st = dyn_cast<StructType>(ty))
    return any_of(st->elements(), [](Type *e) { return holdsNarrowPointer(e); });
  return false;
}

} // namespace

void Former::demote() {
  // PHIs first: their reloads may be used in other blocks, like any value.
  SmallVector<PHINode *, 16> phis;
  for (Instruction &i : instructions(*w_))
    if (auto *p = dyn_cast<PHINode>(&i)) phis.push_back(p);
  for (PHINode *p : phis) demoted_.insert(DemotePHIToStack(p, w_->getEntryBlock().begin()));
  SmallVector<Instruction *, 64> values;
  for (Instruction &i : instructions(*w_)) {
    if (isa<AllocaInst>(i) || uniformSet_.count(&i) || perItemSet_.count(&i) || i.getType()->isVoidTy()) continue;
    if (any_of(i.users(), [&](User *u) { return cast<Instruction>(u)->getParent() != i.getParent(); }))
      values.push_back(&i);
  }
  for (Instruction *i : values) demoted_.insert(DemoteRegToStack(*i, false, w_->getEntryBlock().begin()));
}

void Former::collectUses(Value *p, AllocaUse &u) {
  for (User *user : p->users()) {
    auto *i = cast<Instruction>(user);
    if (const BitVector *r = regionsOf(i->getParent())) u.regions |= *r;
    if (isa<LoadInst>(i)) continue;
    if (auto *s = dyn_cast<StoreInst>(i)) {
      if (s->getValueOperand() == p) u.escapes = true;
      continue;
    }
    if (isa<GetElementPtrInst>(i) || isa<BitCastInst>(i) || isa<AddrSpaceCastInst>(i)) {
      collectUses(i, u);
      continue;
    }
    if (isa<ICmpInst>(i)) continue;
    if (auto *ii = dyn_cast<IntrinsicInst>(i))
      if (ii->isLifetimeStartOrEnd() || isa<MemIntrinsic>(ii)) continue;
    u.escapes = true; // calls, ptrtoint, selects, atomics on the pointer...
  }
}

// For a demoted value used only in region k: does every load of it in k
// follow a store of it in the same run of k (so nothing must survive)?
bool Former::storedBeforeLoaded(AllocaInst *a, unsigned k) {
  DenseMap<BasicBlock *, bool> in, out;
  SmallPtrSet<BasicBlock *, 32> members(regionBlocks_[k].begin(), regionBlocks_[k].end());
  auto stores = [&](BasicBlock *b) {
    for (Instruction &i : *b)
      if (auto *s = dyn_cast<StoreInst>(&i))
        if (s->getPointerOperand() == a) return true;
    return false;
  };
  for (BasicBlock *b : regionBlocks_[k]) in[b] = out[b] = true;
  bool changed = true;
  while (changed) {
    changed = false;
    for (BasicBlock *b : regionBlocks_[k]) {
      bool v = b != entries_[k];
      if (v)
        for (BasicBlock *p : predecessors(b))
          if (members.count(p)) v = v && out[p];
      bool o = v || stores(b);
      if (v != in[b] || o != out[b]) changed = true;
      in[b] = v;
      out[b] = o;
    }
  }
  for (BasicBlock *b : regionBlocks_[k]) {
    bool have = in[b];
    for (Instruction &i : *b) {
      if (auto *s = dyn_cast<StoreInst>(&i); s && s->getPointerOperand() == a) have = true;
      if (auto *l = dyn_cast<LoadInst>(&i); l && l->getPointerOperand() == a && !have) return false;
    }
  }
  return true;
}

bool Former::layoutFrame() {
  uint64_t size = 0, align = 16;
  for (Instruction &i : w_->getEntryBlock()) {
    auto *a = dyn_cast<AllocaInst>(&i);
    if (!a) continue;
    AllocaUse u;
    collectUses(a, u);
    bool priv = u.escapes || u.regions.count() > 1 || a == park_; // the core reads the parked record
    if (!priv && u.regions.count() == 1) {
      unsigned k = (unsigned)u.regions.find_first();
      if (reexec_[k]) priv = !(demoted_.count(a) && storedBeforeLoaded(a, k));
    }
    std::optional<TypeSize> bytes = a->getAllocationSize(dl_);
    if (!bytes || bytes->isScalable()) return reject("it has an alloca of unknown size");
    uint64_t n = bytes->getFixedValue(), al = a->getAlign().value();
    if (holdsNarrowPointer(a->getAllocatedType())) {
      n *= 2;
      al = al < 8 ? 8 : al;
    }
    if (!priv) {
      shared_.push_back({a, n, al});
      continue;
    }
    if (al > kMaxFrameAlign) return reject("it has an alloca aligned to more than 64 bytes");
    size = alignTo(size, al);
    frameOffset_[a] = size;
    size += n;
    if (al > align) align = al;
  }
  frameSize_ = (uint32_t)alignTo(size, align);
  if (alignTo(size, align) > (1u << 24)) return reject("its per-work-item state exceeds 16 MiB");
  return true;
}

} // namespace ldsan_rt
