// ldsan-emu-retarget: work-item loops (retarget_wiloop.cpp), the values that
// need no room in a work-item's frame. Loads that are the same for every
// work-item of a workgroup (kernel arguments, the TLS fields the core fills
// per dispatch, read-only globals, ldsan's device state, the LDS block
// pointer after region 0) and what is computed from them alone are uniform:
// the group function computes them once, before its loops. Values computed
// from the work-item's ids alone are per item: each region's loop recomputes
// them for every work-item (pinOutsideValues).
#include "llvm/ADT/PostOrderIterator.h"
#include "llvm/Analysis/ValueTracking.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/IntrinsicInst.h"

#include "retarget_wiloop.h"

using namespace llvm;

namespace ldsan_rt {
namespace {

// Byte offset of a constant pointer into the TLS block, or -1.
int64_t tlsOffset(Value *p, GlobalVariable *tls, const DataLayout &dl) {
  if (!isa<Constant>(p)) return -1;
  APInt off(dl.getIndexTypeSizeInBits(p->getType()), 0);
  Value *base = p->stripAndAccumulateConstantOffsets(dl, off, /*AllowNonInbounds=*/true);
  return base == tls ? off.getSExtValue() : -1;
}

// TLS fields every work-item of the running workgroup sees alike.
bool isUniformTlsField(int64_t off) {
  if (off < 0 || off >= LDSAN_EMU_TLS_SIZE) return false;
  if (off >= LDSAN_EMU_TLS_ITEM && off < LDSAN_EMU_TLS_ITEM + 8) return false;
  if (off >= LDSAN_EMU_TLS_LDS_KERNEL_ID && off < LDSAN_EMU_TLS_LDS_KERNEL_ID + 4) return false;
  return true;
}

} // namespace

bool Former::isUniformOperand(Value *v) {
  return isa<Constant>(v) || v == w_->getArg(0) || (isa<Instruction>(v) && uniformSet_.count(cast<Instruction>(v)));
}

// How far a pointer is from the trampoline's args parameter: 0 for args
// (void **), 1 for args[i] (the i-th argument's storage), 2 for a loaded
// argument value; -1 for anything else. Levels 0 and 1 are read-only for
// the whole dispatch, so loads through them are the same for every work-item.
int Former::argLevel(Value *v) {
  if (v == w_->getArg(0)) return 0;
  auto it = argLevel_.find(v);
  return it == argLevel_.end() ? -1 : it->second;
}

void Former::findUniform() {
  GlobalVariable *tls = m_.getNamedGlobal(LDSAN_EMU_TLS_SYMBOL);
  if (tls) {
    bool tlsWritten = false; // nobody but the core writes the uniform fields
    for (Instruction &i : instructions(*w_))
      if (auto *s = dyn_cast<StoreInst>(&i))
        if (isUniformTlsField(tlsOffset(s->getPointerOperand(), tls, dl_))) tlsWritten = true;
    if (!tlsWritten)
      for (Instruction &i : instructions(*w_))
        if (auto *l = dyn_cast<LoadInst>(&i))
          if (l->isSimple() && isUniformTlsField(tlsOffset(l->getPointerOperand(), tls, dl_))) addUniform(l);
  }
  // Kernel arguments: the entry block loads them before anything else.
  for (Instruction &i : w_->getEntryBlock()) {
    if (uniformSet_.count(&i)) continue;
    if (auto *l = dyn_cast<LoadInst>(&i)) {
      int level = argLevel(l->getPointerOperand());
      if (l->isSimple() && (level == 0 || level == 1)) {
        argLevel_[l] = level + 1;
        addUniform(l);
      }
    } else if (isa<GetElementPtrInst>(i) || isa<CastInst>(i)) {
      if (!all_of(i.operands(), [&](Use &u) { return isUniformOperand(u.get()); })) continue;
      if (int level = argLevel(i.getOperand(0)); level >= 0) argLevel_[&i] = level;
      addUniform(&i);
    }
  }
  findComputed(tls);
}

// Pure operations that cannot trap: recomputing them is as good as keeping them.
bool Former::isPureOp(Instruction &i) {
  if (auto *bo = dyn_cast<BinaryOperator>(&i)) return !bo->isIntDivRem();
  if (isa<MinMaxIntrinsic>(i)) return true; // blockDim: min(group size, what is left of the grid)
  return isa<CastInst>(i) || isa<GetElementPtrInst>(i) || isa<CmpInst>(i) || isa<SelectInst>(i);
}

// Which of workitem.id.{x,y,z} a per-item load reads (its byte offset in
// ldsan_emu_item_ids: 0, 4, 8), or -1 (not an i32 load of one of them).
int Former::idField(Instruction *p) {
  auto *l = dyn_cast<LoadInst>(p);
  if (!l || !l->getType()->isIntegerTy(32) || itemPtrSet_.count(l)) return -1;
  Value *ptr = l->getPointerOperand();
  if (!itemPtrSet_.count(ptr)) return -1;
  APInt off(dl_.getIndexTypeSizeInBits(ptr->getType()), 0);
  Value *base = ptr->stripAndAccumulateConstantOffsets(dl_, off, /*AllowNonInbounds=*/true);
  if (!isa<LoadInst>(base) || !itemPtrSet_.count(base)) return -1;
  int64_t o = off.getSExtValue();
  return o == 0 || o == 4 || o == 8 ? (int)o : -1;
}

// Values computed from uniform values alone become uniform too; values
// computed from the work-item's ids (read through the TLS work-item
// pointer, whose ids do not change during a dispatch) are recomputed at
// the start of every region instead of being kept in the frame.
void Former::findComputed(GlobalVariable *tls) {
  ReversePostOrderTraversal<Function *> rpo(w_);
  bool changed = true;
  while (changed) {
    changed = false;
    for (BasicBlock *bb : rpo)
      for (Instruction &i : *bb) {
        if (uniformSet_.count(&i) || perItemSet_.count(&i)) continue;
        if (auto *l = dyn_cast<LoadInst>(&i)) {
          if (!l->isSimple()) continue;
          Value *p = l->getPointerOperand();
          if (isReadOnlyGlobalAddress(p) || isDispatchBlockAddress(p, tls) || isDeviceStateAddress(p)) {
            addUniform(l);
            changed = true;
            continue;
          }
          bool itemPtr = tls && tlsOffset(p, tls, dl_) == LDSAN_EMU_TLS_ITEM;
          bool idLoad = itemPtrSet_.count(p);
          if (!itemPtr && !idLoad && !isBlockPointerLoad(l, tls)) continue;
          if (itemPtr) itemPtrSet_.insert(l);
          addPerItem(l);
          changed = true;
          continue;
        }
        if (!isPureOp(i)) continue;
        bool uniform = true, computable = true;
        for (Use &u : i.operands()) {
          if (isUniformOperand(u.get())) continue;
          uniform = false;
          if (!isItemOperand(u.get())) computable = false;
        }
        if (uniform) addUniform(&i);
        else if (computable) {
          if (auto *g = dyn_cast<GetElementPtrInst>(&i); g && itemPtrSet_.count(g->getPointerOperand()) &&
                                                           g->hasAllConstantIndices())
            itemPtrSet_.insert(g);
          addPerItem(&i);
        } else {
          continue;
        }
        changed = true;
      }
  }
}

// An address in the implicit-argument block or the dispatch packet (the
// TLS fields the core fills once per dispatch; nothing writes them while
// it runs: blockDim reads its group size there) computed from uniform
// values: loading it gives every work-item the same value.
bool Former::isDispatchBlockAddress(Value *p, GlobalVariable *tls) {
  if (!tls || !isUniformOperand(p)) return false;
  auto *base = dyn_cast<LoadInst>(getUnderlyingObject(p));
  if (!base) return false;
  int64_t off = tlsOffset(base->getPointerOperand(), tls, dl_);
  return off == LDSAN_EMU_TLS_IMPLICITARG || off == LDSAN_EMU_TLS_DISPATCH;
}

// A constant address in a global nothing writes (constant, or internal and
// only ever loaded, like amdgpu-sw-lower-lds's layout table).
bool Former::isReadOnlyGlobalAddress(Value *p) {
  if (!isa<Constant>(p)) return false;
  auto *g = dyn_cast<GlobalVariable>(getUnderlyingObject(p));
  if (!g || g->isThreadLocal()) return false;
  if (g->isConstant()) return true;
  if (!g->hasLocalLinkage()) return false;
  auto it = readOnlyGlobals_.find(g);
  if (it != readOnlyGlobals_.end()) return it->second;
  SmallVector<User *, 16> work(g->users());
  bool ro = true;
  while (!work.empty() && ro) {
    User *u = work.pop_back_val();
    if (auto *ce = dyn_cast<ConstantExpr>(u); ce && (ce->getOpcode() == Instruction::GetElementPtr ||
                                                     ce->isCast()))
      work.append(ce->user_begin(), ce->user_end());
    else if (!isa<LoadInst>(u))
      ro = false;
  }
  readOnlyGlobals_[g] = ro;
  return ro;
}

// A constant address in ldsan's device state (__ldsan_device_state,
// abi.h): the host writes it between dispatches, never during one, and the
// device runtime only reads it; a non-volatile load of it is the same for
// every work-item (the LDS-only mode's shadow offset, the pool's bounds).
// The device code reaches it through ptrtoint/inttoptr (the runtime's
// constant-address-space view of it); any instruction but a load among its
// users (a store, an address taken) makes it per work-item as before.
bool Former::isDeviceStateAddress(Value *p) {
  auto *c = dyn_cast<Constant>(p);
  if (!c) return false;
  GlobalVariable *g = nullptr;
  for (int depth = 0; c && !g && depth < 8; depth++) {
    c = cast<Constant>(c->stripPointerCasts());
    if ((g = dyn_cast<GlobalVariable>(c))) break;
    auto *ce = dyn_cast<ConstantExpr>(c);
    if (!ce || !(ce->getOpcode() == Instruction::GetElementPtr || ce->getOpcode() == Instruction::IntToPtr ||
                 ce->getOpcode() == Instruction::PtrToInt))
      return false;
    c = ce->getOperand(0);
  }
  if (!g || g->isThreadLocal() || g->getName() != LDSAN_DEVICE_STATE_SYMBOL) return false;
  if (deviceStateReadOnly_ < 0) {
    deviceStateReadOnly_ = 1;
    SmallVector<User *, 16> work(g->users());
    SmallPtrSet<User *, 16> seen;
    while (!work.empty() && deviceStateReadOnly_) {
      User *u = work.pop_back_val();
      if (!seen.insert(u).second) continue;
      if (auto *ce = dyn_cast<ConstantExpr>(u)) work.append(ce->user_begin(), ce->user_end());
      else if (auto *i = dyn_cast<Instruction>(u); i && !isa<LoadInst>(i)) deviceStateReadOnly_ = 0;
      // other constants: the image's tables, which give the host its address
    }
  }
  return deviceStateReadOnly_ == 1;
}

// The LDS block pointer amdgpu-sw-lower-lds keeps at LDS offset 0: work-item 0
// stores it before the first barrier and nothing stores there again, so a
// load of it after region 0 reads the same value at the start of any later
// region. (The rest of the real LDS window is not used: LDS variables live
// in the block.)
bool Former::isBlockPointerLoad(LoadInst *l, GlobalVariable *tls) {
  auto *base = dyn_cast<LoadInst>(l->getPointerOperand());
  if (!tls || !base || !uniformSet_.count(base) || tlsOffset(base->getPointerOperand(), tls, dl_) != LDSAN_EMU_TLS_LDS_BASE)
    return false;
  if (inRegion(l->getParent(), 0)) return false;
  if (blockPointerStable_ < 0) {
    blockPointerStable_ = 1;
    for (User *u : base->users()) {
      auto *i = dyn_cast<Instruction>(u);
      if (auto *ld = dyn_cast<LoadInst>(i); ld && ld->getPointerOperand() == base) continue;
      if (auto *st = dyn_cast<StoreInst>(i);
          st && st->getPointerOperand() == base && st->getValueOperand() != base &&
          onlyInRegion0(st->getParent()))
        continue;
      blockPointerStable_ = 0; // written after region 0, or its address taken
    }
  }
  return blockPointerStable_ == 1;
}

void Former::addPerItem(Instruction *i) {
  perItemSet_.insert(i);
  perItem_.push_back(i);
}

void Former::addUniform(Instruction *i) {
  uniformSet_.insert(i);
  uniform_.push_back(i);
}

} // namespace ldsan_rt
