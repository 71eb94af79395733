// ldsan-emu-retarget: work-item loops (retarget_wiloop.cpp), the group
// function: its parameters, the uniform values computed once, the switch on
// the region to run, and each region's loops -- one that checks every
// work-item's state, one for when all of them wait there, and its twin for
// one-dimensional workgroups -- made of a skeleton (makeLoop), the values
// the region takes from outside it (pinOutsideValues) and the region's code
// (cloneRegion, retarget_wiloop_clone.cpp).
#include <string>

#include "llvm/Analysis/InstructionSimplify.h"
#include "llvm/IR/Constants.h"

#include "retarget_wiloop.h"

using namespace llvm;

namespace ldsan_rt {
namespace {

// The per-worker TLS block the core fills (emu_tls.h).
GlobalVariable *tlsGlobal(Module &m) {
  if (GlobalVariable *g = m.getNamedGlobal(LDSAN_EMU_TLS_SYMBOL)) return g;
  Type *ty = ArrayType::get(Type::getInt8Ty(m.getContext()), LDSAN_EMU_TLS_SIZE);
  auto *g = new GlobalVariable(m, ty, false, GlobalValue::ExternalLinkage, nullptr, LDSAN_EMU_TLS_SYMBOL, nullptr,
                               GlobalValue::InitialExecTLSModel);
  return g;
}

} // namespace

Function *Former::build(StringRef name) {
  LLVMContext &ctx = m_.getContext();
  Type *i8 = Type::getInt8Ty(ctx), *i32 = Type::getInt32Ty(ctx), *i64 = Type::getInt64Ty(ctx);
  Type *ptr = PointerType::get(ctx, 0);
  FunctionType *fty = FunctionType::get(i64, {ptr, ptr, i32, ptr, ptr, i32, i32}, false);
  Function *g = Function::Create(fty, GlobalValue::InternalLinkage, name, m_);
  g->addFnAttr(Attribute::NoUnwind);
  // The emulator's own arrays: the kernel's code has no pointer into them
  // (the core reads ids, and states only between calls).
  g->addParamAttr(1, Attribute::NoAlias);
  g->addParamAttr(4, Attribute::NoAlias);
  Argument *args = g->getArg(0), *ids = g->getArg(1), *n = g->getArg(2), *frames = g->getArg(3),
           *states = g->getArg(4), *region = g->getArg(5), *parity = g->getArg(6);
  args->setName("args");
  ids->setName("ids");
  n->setName("n");
  frames->setName("frames");
  states->setName("states");
  region->setName("region");
  parity->setName("parity");

  BasicBlock *entry = BasicBlock::Create(ctx, "entry", g);
  IRBuilder<> b(entry);
  ValueToValueMapTy base;
  base[w_->getArg(0)] = args;
  for (const SharedAlloca &s : shared_) {
    AllocaInst *c = b.CreateAlloca(ArrayType::get(i8, s.bytes), s.a->getAddressSpace(), nullptr, s.a->getName());
    c->setAlignment(Align(s.align));
    base[s.a] = c;
  }
  for (Instruction *u : uniform_) {
    Instruction *c = u->clone();
    c->setName(u->getName());
    b.Insert(c);
    RemapInstruction(c, base, RF_NoModuleLevelChanges | RF_IgnoreMissingLocals);
    base[u] = c;
  }
  AllocaInst *mask = b.CreateAlloca(i64, nullptr, "stopped.at");
  b.CreateStore(ConstantInt::get(i64, 0), mask);
  Value *par = b.CreateAnd(parity, ConstantInt::get(i32, 1), "par");
  Value *all = b.CreateICmpNE(b.CreateAnd(parity, ConstantInt::get(i32, LDSAN_EMU_GROUP_ALL_WAITING)), ConstantInt::get(i32, 0), "all");
  Value *nextParity = b.CreateXor(par, ConstantInt::get(i32, 1), "next.parity");
  Value *oneD = b.CreateICmpNE(b.CreateAnd(parity, ConstantInt::get(i32, LDSAN_EMU_GROUP_ONE_D)), ConstantInt::get(i32, 0), "one.d");
  // Per-item values computed from workitem.id.{x,y,z}, for regionReads.
  // Lockstep kernels (a region per LDS access: many, short) get no twins.
  // Large kernels (RT_LARGE_KERNEL) get no third copy of a region: the twin
  // takes the place of the all-waiting loop, and workgroups of more than
  // one dimension run the loop that checks each state.
  bool twins = !lockstep_;
  bool large = f_.getInstructionCount() > RT_LARGE_KERNEL;
  SmallPtrSet<Value *, 16> fromIds;
  for (Instruction *p : perItem_)
    if (idField(p) >= 0 || llvm::any_of(p->operands(), [&](Use &u) { return fromIds.count(u.get()) != 0; }))
      fromIds.insert(p);
  BasicBlock *done = BasicBlock::Create(ctx, "done", g);
  SwitchInst *sw = b.CreateSwitch(region, done, (unsigned)entries_.size());
  IRBuilder<> db(done);
  db.CreateRet(db.CreateLoad(i64, mask));

  Constant *tlsItem = ConstantExpr::getInBoundsGetElementPtr(i8, tlsGlobal(m_), ConstantInt::get(i64, LDSAN_EMU_TLS_ITEM));
  for (unsigned k = 0; k < entries_.size(); ++k) {
    // Two loops per region: one checks each work-item's state, the other
    // (the core knows every work-item waits here) does not. The second has
    // a twin for one-dimensional workgroups that takes the ids from the
    // loop index: a condition on threadIdx.x becomes one on the index,
    // whose range the twin can be narrowed to (narrowToActiveRange).
    BasicBlock *pick = BasicBlock::Create(ctx, "r" + std::to_string(k), g);
    sw->addCase(ConstantInt::get(cast<IntegerType>(i32), k), pick);
    bool readsIds = twins && regionReads(k, fromIds);
    BasicBlock *some = buildRegionLoop(g, k, false, false, pick, done, mask, par, nextParity, tlsItem, base);
    if (readsIds && large) {
      BasicBlock *line = buildRegionLoop(g, k, true, true, pick, done, mask, par, nextParity, tlsItem, base);
      IRBuilder<> pb(pick);
      pb.CreateCondBr(pb.CreateAnd(all, oneD), line, some);
      continue;
    }
    BasicBlock *allPick = readsIds ? BasicBlock::Create(ctx, "r" + std::to_string(k) + ".all.pick", g) : pick;
    BasicBlock *everyone = buildRegionLoop(g, k, true, false, allPick, done, mask, par, nextParity, tlsItem, base);
    IRBuilder<> pb(pick);
    if (readsIds) {
      BasicBlock *line = buildRegionLoop(g, k, true, true, allPick, done, mask, par, nextParity, tlsItem, base);
      pb.CreateCondBr(all, allPick, some);
      IRBuilder<> ab(allPick);
      ab.CreateCondBr(oneD, line, everyone);
    } else {
      pb.CreateCondBr(all, everyone, some);
    }
  }
  return g;
}

// Whether the code of region k uses one of `values`.
bool Former::regionReads(unsigned k, const SmallPtrSetImpl<Value *> &values) {
  for (BasicBlock *bb : regionBlocks_[k])
    for (Instruction &i : *bb)
      for (Use &u : i.operands())
        if (values.count(u.get())) return true;
  return false;
}

// The loop running region k for the work-items waiting at it (all of
// them without looking when `everyone`); returns its first block.
BasicBlock *Former::buildRegionLoop(Function *g, unsigned k, bool everyone, bool oneD, BasicBlock *from,
                                    BasicBlock *done, AllocaInst *mask, Value *par, Value *nextParity,
                                    Constant *tlsItem, ValueToValueMapTy &base) {
  RegionLoop L;
  L.tag = "r" + std::to_string(k) + (everyone ? ".all" : "") + (oneD ? ".1d" : "");
  makeLoop(g, k, everyone, from, done, par, L);
  pinOutsideValues(g, oneD, base, L);
  cloneRegion(g, k, mask, nextParity, tlsItem, L);
  if (oneD)
    if (BasicBlock *pre = narrowToActiveRange(g, cast<BasicBlock>(L.vm[entries_[k]]), L.idx, L.head, L.stubRegion,
                                              mask, nextParity, L.tag))
      return pre;
  return L.head;
}

// The loop's skeleton: head (the index, the exit to `done`), the test of
// the work-item's state (none when `everyone`), the body's first block and
// the latch.
void Former::makeLoop(Function *g, unsigned k, bool everyone, BasicBlock *from, BasicBlock *done, Value *par,
                      RegionLoop &L) {
  LLVMContext &ctx = m_.getContext();
  Type *i32 = Type::getInt32Ty(ctx), *i64 = Type::getInt64Ty(ctx);
  Argument *n = g->getArg(2), *states = g->getArg(4);
  L.head = BasicBlock::Create(ctx, L.tag + ".head", g);
  BasicBlock *check = BasicBlock::Create(ctx, L.tag + ".check", g);
  L.body = BasicBlock::Create(ctx, L.tag + ".item", g);
  L.latch = BasicBlock::Create(ctx, L.tag + ".next", g);

  IRBuilder<> hb(L.head);
  L.idx = hb.CreatePHI(i32, 2, "wi");
  L.idx->addIncoming(ConstantInt::get(i32, 0), from);
  hb.CreateCondBr(hb.CreateICmpULT(L.idx, n), check, done);
  IRBuilder<> lb(L.latch); // (complete before the region's code is simplified: no index is taken for 0)
  L.idx->addIncoming(lb.CreateAdd(L.idx, ConstantInt::get(i32, 1), "wi.next"), L.latch);
  BranchInst *back = lb.CreateBr(L.head);
  // The whole barrier interval of every work-item: its accesses are all
  // the interval's (retarget_lds_disjoint.cpp). Not so in lockstep, where
  // a cross-lane stop also ends a region.
  if (everyone && !lockstep_) {
    MDNode *tag = MDNode::get(ctx, MDString::get(ctx, RT_LOOP_WHOLE_INTERVAL));
    MDNode *id = MDNode::getDistinct(ctx, {nullptr, tag});
    id->replaceOperandWith(0, id);
    back->setMetadata(LLVMContext::MD_loop, id);
  }

  IRBuilder<> cb(check);
  L.idx64 = cb.CreateZExt(L.idx, i64);
  L.sp = cb.CreateInBoundsGEP(i32, states, L.idx64, "state.slot");
  if (everyone) {
    cb.CreateBr(L.body);
  } else {
    Value *want = cb.CreateOr(ConstantInt::get(i32, k << 1), par);
    cb.CreateCondBr(cb.CreateICmpEQ(cb.CreateLoad(i32, L.sp, "state"), want), L.body, L.latch);
  }
}

// Values the region's code takes from outside it: the group function's
// (arguments, shared allocas, uniform values), the work-item's frame
// slots, and values recomputed in the body for each work-item.
void Former::pinOutsideValues(Function *g, bool oneD, ValueToValueMapTy &base, RegionLoop &L) {
  LLVMContext &ctx = m_.getContext();
  Type *i8 = Type::getInt8Ty(ctx), *i32 = Type::getInt32Ty(ctx), *i64 = Type::getInt64Ty(ctx);
  Argument *ids = g->getArg(1), *frames = g->getArg(3);
  IRBuilder<> bb(L.body);
  Value *frame = bb.CreateInBoundsGEP(i8, frames, bb.CreateMul(L.idx64, ConstantInt::get(i64, frameSize_)), "frame");
  for (auto kv : base) L.pin(const_cast<Value *>(kv.first), kv.second);
  for (auto &[a, off] : frameOffset_) { // same type as the alloca: private pointers stay in addrspace 5
    Value *slot = bb.CreateInBoundsGEP(i8, frame, ConstantInt::get(i64, off), a->getName());
    L.pin(a, bb.CreatePointerBitCastOrAddrSpaceCast(slot, a->getType()));
  }
  L.item = bb.CreateInBoundsGEP(i8, ids, bb.CreateMul(L.idx64, ConstantInt::get(i64, sizeof(ldsan_emu_item_ids))));
  for (Instruction *p : perItem_) {
    if (isa<LoadInst>(p) && itemPtrSet_.count(p)) { // a load of the TLS work-item pointer
      L.pin(p, L.item);
      continue;
    }
    if (int field = oneD ? idField(p) : -1; field >= 0) { // ids of a one-dimensional workgroup: {i, 0, 0}
      L.pin(p, field == 0 ? (Value *)L.idx : ConstantInt::get(i32, 0));
      continue;
    }
    Instruction *c = p->clone();
    c->setName(p->getName());
    bb.Insert(c);
    RemapInstruction(c, L.vm, RF_NoModuleLevelChanges | RF_IgnoreMissingLocals);
    if (oneD) // y and z are 0 here: x + bx * (y + by * z) folds to the index
      if (Value *v = simplifyInstruction(c, SimplifyQuery(dl_))) {
        c->eraseFromParent();
        L.pin(p, v);
        continue;
      }
    L.pin(p, c);
  }
}

} // namespace ldsan_rt
