// ldsan-emu-retarget: work-item loops (retarget_wiloop.cpp), the
// one-dimensional loop narrowed to its active range. When a region starts
// with `if (threadIdx.x < c) ... else <barrier>`, the twin loop of a
// one-dimensional workgroup runs only over the indices the compare admits;
// small loops after it store the others' state (narrowToActiveRange).
#include <string>

#include "llvm/IR/Constants.h"
#include "llvm/IR/PatternMatch.h"

#include "retarget_wiloop.h"

using namespace llvm;
using namespace llvm::PatternMatch;

namespace ldsan_rt {

// Block b only notes a barrier's pc (noteOnce: load its slot, call
// __ldsan_emu_lds_barrier_note when empty, the TLS work-item stored before
// the call): returns the block after it and the note call, else null.
BasicBlock *Former::noteHop(BasicBlock *b, CallInst *&note) {
  auto *t = dyn_cast<BranchInst>(b->getTerminator());
  auto *pc = dyn_cast<LoadInst>(&b->front());
  if (!t || !t->isConditional() || !pc || !pc->isAtomic() || !is_contained(barrierSlots_, pc->getPointerOperand()))
    return nullptr;
  auto *isNull = dyn_cast<ICmpInst>(pc->getNextNode());
  if (!isNull || isNull->getNextNode() != t || t->getCondition() != isNull ||
      isNull->getPredicate() != ICmpInst::ICMP_EQ || isNull->getOperand(0) != pc ||
      !match(isNull->getOperand(1), m_Zero()))
    return nullptr;
  BasicBlock *then = t->getSuccessor(0), *tail = t->getSuccessor(1);
  CallInst *call = nullptr;
  for (Instruction &i : *then) {
    if (auto *st = dyn_cast<StoreInst>(&i); st && isa<Constant>(st->getPointerOperand())) continue;
    if (auto *ci = dyn_cast<CallInst>(&i); ci && !call && ci->getCalledFunction() &&
                                           ci->getCalledFunction()->getName() == "__ldsan_emu_lds_barrier_note" &&
                                           ci->getArgOperand(0) == pc->getPointerOperand()) {
      call = ci;
      continue;
    }
    auto *j = dyn_cast<BranchInst>(&i);
    if (!j || j->isConditional() || j->getSuccessor(0) != tail) return nullptr;
  }
  if (!call) return nullptr;
  note = call;
  return tail;
}

// Where block b goes straight to a stop, through blocks that only branch or
// only note the barrier's pc for the LDS checks (noteOnce; the note is then
// made before the loop: the stopped work-items skip it, note says which):
// the stop's region (kDoneStop: a return), or -1.
int Former::stopAfter(BasicBlock *b, const DenseMap<BasicBlock *, unsigned> &stubRegion, CallInst *&note) {
  for (int hops = 0; b && hops < 8; ++hops) {
    if (auto it = stubRegion.find(b); it != stubRegion.end()) return (int)it->second;
    if (BasicBlock *tail = noteHop(b, note)) {
      b = tail;
      continue;
    }
    auto *t = dyn_cast<BranchInst>(b->getTerminator());
    if (!t || t->isConditional() || &b->front() != t) return -1;
    b = t->getSuccessor(0);
  }
  return -1;
}

// Whether the region starting at `start` opens with a compare of the loop
// index idx that sends one side straight to a stop (narrowToActiveRange):
// then r says the compare, taken as an unsigned one that is true for the
// active indices, and the stop.
bool Former::matchActiveRange(Function *g, BasicBlock *start, PHINode *idx,
                              const DenseMap<BasicBlock *, unsigned> &stubRegion, ActiveRange &r) {
  auto *br = dyn_cast<BranchInst>(start->getTerminator());
  if (!br || !br->isConditional()) return false;
  for (Instruction &i : *start)
    if (&i != br && i.mayHaveSideEffects()) return false;
  auto *cmp = dyn_cast<ICmpInst>(br->getCondition());
  if (!cmp) return false;
  ICmpInst::Predicate pred = cmp->getPredicate();
  Value *bound = cmp->getOperand(1);
  if (cmp->getOperand(0) != idx) {
    if (cmp->getOperand(1) != idx) return false;
    bound = cmp->getOperand(0);
    pred = ICmpInst::getSwappedPredicate(pred);
  }
  auto *inst = dyn_cast<Instruction>(bound);
  if (!isa<Constant>(bound) && !isa<Argument>(bound) && !(inst && inst->getParent() == &g->getEntryBlock()))
    return false;
  CallInst *notes[2] = {nullptr, nullptr};
  int stopTrue = stopAfter(br->getSuccessor(0), stubRegion, notes[0]);
  int stopFalse = stopAfter(br->getSuccessor(1), stubRegion, notes[1]);
  if ((stopTrue < 0) == (stopFalse < 0)) return false;
  unsigned j = (unsigned)(stopTrue >= 0 ? stopTrue : stopFalse);
  CallInst *note = notes[stopTrue >= 0 ? 0 : 1];
  if (note && (j == kDoneStop || note->getArgOperand(0) != barrierSlots_[j])) return false; // another barrier's
  if (stopTrue >= 0) pred = ICmpInst::getInversePredicate(pred); // active while the compare is false
  // The index is below 2^31, so a signed compare is the unsigned one of the
  // bound taken as signed: [lo, hi) below is computed in 64 bits and clamped.
  bool isSigned = ICmpInst::isSigned(pred);
  if (isSigned) pred = ICmpInst::getUnsignedPredicate(pred);
  if (pred == ICmpInst::ICMP_NE) return false; // two ranges
  r.bound = bound;
  r.pred = pred;
  r.isSigned = isSigned;
  r.j = j;
  r.note = note;
  return true;
}

// The block before the loop (returned): the barrier's pc noted if the
// stopped side notes it, the active indices [r.lo32, r.hi32) clamped to n,
// the stop's bit in the mask if some work-item is outside them (r.others),
// and the loop's index and exit moved to that range.
BasicBlock *Former::enterActiveRange(Function *g, PHINode *idx, BasicBlock *head, AllocaInst *mask,
                                     const std::string &tag, ActiveRange &r) {
  LLVMContext &ctx = m_.getContext();
  Type *i32 = Type::getInt32Ty(ctx), *i64 = Type::getInt64Ty(ctx);
  Argument *n = g->getArg(2);
  BasicBlock *pre = BasicBlock::Create(ctx, tag + ".range", g, head);
  IRBuilder<> pb(pre);
  if (r.note) { // the barrier's pc, noted once as the stopped work-items' side would
    auto *slot = cast<GlobalVariable>(r.note->getArgOperand(0));
    LoadInst *pc = pb.CreateAlignedLoad(i64, slot, Align(8), "barrier.pc");
    pc->setAtomic(AtomicOrdering::Monotonic);
    BasicBlock *noteBlock = BasicBlock::Create(ctx, tag + ".note", g, head);
    BasicBlock *noted = BasicBlock::Create(ctx, tag + ".noted", g, head);
    pb.CreateCondBr(pb.CreateIsNull(pc), noteBlock, noted);
    IRBuilder<> nb(noteBlock);
    nb.Insert(r.note->clone());
    nb.CreateBr(noted);
    pb.SetInsertPoint(noted);
  }
  Value *c = r.isSigned ? pb.CreateSExt(r.bound, i64) : pb.CreateZExt(r.bound, i64);
  Value *n64 = pb.CreateZExt(n, i64), *one = ConstantInt::get(i64, 1);
  Value *zero = ConstantInt::get(i64, 0), *lo, *hi;
  switch (r.pred) { // the active indices [lo, hi), before clamping to n
  case ICmpInst::ICMP_ULT: lo = zero; hi = c; break;
  case ICmpInst::ICMP_ULE: lo = zero; hi = pb.CreateAdd(c, one); break;
  case ICmpInst::ICMP_UGT: lo = pb.CreateAdd(c, one); hi = n64; break;
  case ICmpInst::ICMP_UGE: lo = c; hi = n64; break;
  default: /* ICMP_EQ */ lo = c; hi = pb.CreateAdd(c, one); break;
  }
  lo = pb.CreateBinaryIntrinsic(Intrinsic::smin, pb.CreateBinaryIntrinsic(Intrinsic::smax, lo, zero), n64);
  hi = pb.CreateBinaryIntrinsic(Intrinsic::smin, pb.CreateBinaryIntrinsic(Intrinsic::smax, hi, lo), n64);
  r.lo32 = pb.CreateTrunc(lo, i32, "active.lo");
  r.hi32 = pb.CreateTrunc(hi, i32, "active.hi");
  r.others = pb.CreateOr(pb.CreateICmpNE(r.lo32, ConstantInt::get(i32, 0)), pb.CreateICmpULT(r.hi32, n));
  Constant *jBit = ConstantInt::get(i64, stopBit(r.j));
  pb.CreateStore(pb.CreateOr(pb.CreateLoad(i64, mask), pb.CreateSelect(r.others, jBit, ConstantInt::get(i64, 0))),
                 mask);
  BasicBlock *last = pb.GetInsertBlock();
  pb.CreateBr(head);
  idx->setIncomingValue(0, r.lo32);
  idx->setIncomingBlock(0, last);
  auto *exit = cast<BranchInst>(head->getTerminator());
  cast<ICmpInst>(exit->getCondition())->setOperand(1, r.hi32);
  return pre;
}

// After the loop: the others' state, unless everybody stopped at r.j.
void Former::fillOthers(Function *g, BasicBlock *head, AllocaInst *mask, Value *nextParity, const std::string &tag,
                        const ActiveRange &r) {
  LLVMContext &ctx = m_.getContext();
  Type *i32 = Type::getInt32Ty(ctx), *i64 = Type::getInt64Ty(ctx);
  Argument *n = g->getArg(2), *states = g->getArg(4);
  Constant *jBit = ConstantInt::get(i64, stopBit(r.j));
  auto *exit = cast<BranchInst>(head->getTerminator());
  BasicBlock *done = exit->getSuccessor(1);
  BasicBlock *after = BasicBlock::Create(ctx, tag + ".others", g, done);
  BasicBlock *fills = BasicBlock::Create(ctx, tag + ".others.fill", g, done);
  exit->setSuccessor(1, after);
  IRBuilder<> ab(after);
  // (Past the masks' bits, jBit is every such region's: the others' state is always stored.)
  Value *sameStop = r.j == kDoneStop || r.j < kMaskRegions ? ab.CreateICmpEQ(ab.CreateLoad(i64, mask), jBit)
                                                           : (Value *)ab.getFalse();
  ab.CreateCondBr(ab.CreateAnd(r.others, ab.CreateNot(sameStop)), fills, done);
  IRBuilder<> fb(fills);
  Value *st = stopState(fb, r.j, nextParity);
  auto fill = [&](Value *from, Value *to, const char *what) {
    BasicBlock *fh = BasicBlock::Create(ctx, tag + "." + what, g, done);
    BasicBlock *body = BasicBlock::Create(ctx, tag + "." + what + ".store", g, done);
    BasicBlock *next = BasicBlock::Create(ctx, tag + "." + what + ".done", g, done);
    BasicBlock *at = fb.GetInsertBlock();
    fb.CreateBr(fh);
    IRBuilder<> hb(fh);
    PHINode *i = hb.CreatePHI(i32, 2);
    i->addIncoming(from, at);
    hb.CreateCondBr(hb.CreateICmpULT(i, to), body, next);
    IRBuilder<> bb(body);
    bb.CreateStore(st, bb.CreateInBoundsGEP(i32, states, bb.CreateZExt(i, i64)));
    i->addIncoming(bb.CreateAdd(i, ConstantInt::get(i32, 1)), body);
    bb.CreateBr(fh);
    fb.SetInsertPoint(next);
  };
  fill(ConstantInt::get(i32, 0), r.lo32, "below");
  fill(r.hi32, n, "above");
  fb.CreateBr(done);
}

// The loop of a one-dimensional workgroup whose region starts with
// `if (threadIdx.x < c) ... else <barrier j>` (any compare of the index with
// a value the loop does not change, the other side going straight to the
// stop at barrier j or to a return, nothing with an effect before the
// branch): the work-items outside the taken range only stop there. The loop
// then runs over that range alone. Small loops after it store the others'
// state, unless every work-item stopped at j: then the core runs the next
// region for all of them without reading a state (LDSAN_EMU_GROUP_ALL_WAITING:
// such a pass writes each state it runs, or the first pass that stops the
// work-items at different places writes them all), or nothing more (all
// returned). Returns the new first block, or null (no such start).
BasicBlock *Former::narrowToActiveRange(Function *g, BasicBlock *start, PHINode *idx, BasicBlock *head,
                                        const DenseMap<BasicBlock *, unsigned> &stubRegion, AllocaInst *mask,
                                        Value *nextParity, const std::string &tag) {
  ActiveRange r;
  if (!matchActiveRange(g, start, idx, stubRegion, r)) return nullptr;
  BasicBlock *pre = enterActiveRange(g, idx, head, mask, tag, r);
  fillOthers(g, head, mask, nextParity, tag, r);
  return pre;
}

} // namespace ldsan_rt
