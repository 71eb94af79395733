// ldsan-emu-retarget: work-item loops. Turns a kernel's fiber entry
// (__ldsan_emu_entry.<k>, after inlining) into a group function that runs
// one *region* -- the code between two barriers -- for every work-item of a
// workgroup in a plain loop, so a barrier costs a loop exit instead of a
// context switch per work-item:
//
//   i64 __ldsan_emu_group.<k>(ptr args, ptr ids, i32 n, ptr frames,
//                             ptr states, i32 region, i32 parity)
//
// Region 0 starts at the function entry, region j > 0 right after barrier j.
// For each work-item i with states[i] == region * 2 + parity it points the
// TLS work-item at ids[i], runs the region, and stores where the work-item
// stopped: barrier j -> j * 2 + (parity ^ 1) (0 for the kernel-exit barrier,
// whose parked work-items the core runs last), return -> 0xffffffff. It
// returns the set of regions work-items stopped at (bit j). The core's loop
// over regions (core_sched.c) reproduces the fiber scheduler's barrier
// semantics; the parity keeps a work-item from passing two barriers in one
// pass when work-items of a workgroup wait at different barriers.
//
// Values live across a barrier are per work-item: every SSA value used
// outside its block is demoted to an alloca (like reg2mem), and an alloca
// whose contents can outlive one run of one region, or whose address escapes,
// moves into the work-item's frame (frames + i * frame_size). The rest stay
// ordinary allocas of the group function, which SROA promotes again. Loads
// that are the same for every work-item of a workgroup (kernel arguments,
// group ids, the LDS window, implicit arguments) are hoisted out of the loops.
//
// Each region has a loop that checks every work-item's state and one for
// when all of them wait there (LDSAN_EMU_GROUP_ALL_WAITING); the second has a
// twin for one-dimensional workgroups (LDSAN_EMU_GROUP_ONE_D) that takes the
// ids from the loop index and, when the region starts with a compare of that
// index whose other side goes straight to a barrier, runs only over the
// indices the compare admits (narrowToActiveRange).
//
// Lockstep kernels (retarget_wave.cpp) get the same loops with one more kind
// of stop: each cross-lane operation and lockstep point of the kernel's own
// code (not the point before a call: calls are inlined) ends a region like a
// barrier. The work-item first parks its operands
// in a record of its frame (at rt_wiloop.park_offset; rank as rt_wave_rank
// gives it on this function); once its wave executed the operation
// (core_sched.c, emu_run_group_lockstep_loops) region j runs for it and starts
// by loading its result from there. So a wave's lanes meet with a loop exit each,
// not a fiber switch each. ldsan's own code (LDSAN_RUNTIME_MD) keeps its
// cross-lane calls, whose lanes then run alone as in any kernel's loops.
//
// Kernels that cannot be formed keep running as fibers; the reason is
// returned (barrier reached from a function that stayed out of line, s_sleep
// in kernel code, dynamic allocas, indirect calls that may reach a barrier,
// more than kMaxRegions regions, or more than kMaskRegions with cross-lane stops).
//
// The core's region sets are 64-bit masks: region j < kMaskRegions has bit j,
// every later region shares LDSAN_EMU_GROUP_HIGH (the core reads the states
// to see which). Exit and wave regions must have a bit of their own: a kernel
// with more regions gets its exit regions renumbered first (numberExitsFirst),
// and one with cross-lane stops is held to kMaskRegions.
//
// Cloned instructions keep their source locations; the group function gets
// its own artificial DISubprogram and the locations move to it
// (retarget_debug.cpp), so reports from work-item loops name the source line.
// Instructions made here have no location. Variable locations are dropped.
#include <cstdio>
#include <cstdlib>

#include "llvm/ADT/BitVector.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/MapVector.h"
#include "llvm/ADT/PostOrderIterator.h"
#include "llvm/ADT/bit.h"
#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/IR/CFG.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/DataLayout.h"
#include "llvm/IR/Function.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/IR/MDBuilder.h"
#include "llvm/IR/Module.h"
#include "llvm/IR/Operator.h"
#include "llvm/IR/PatternMatch.h"
#include "llvm/IR/Verifier.h"
#include "llvm/Analysis/InstructionSimplify.h"
#include "llvm/Analysis/ValueTracking.h"
#include "llvm/Support/MathExtras.h"
#include "llvm/Support/raw_ostream.h"
#include "llvm/Transforms/Utils/BasicBlockUtils.h"
#include "llvm/Transforms/Utils/Cloning.h"
#include "llvm/Transforms/Utils/Local.h"
#include "llvm/Transforms/Utils/ValueMapper.h"

extern "C" {
#include "ldsan/entry_points.def"
#include "ldsan/emu/wave_ops.h"
#include "ldsan/emu/emu_tls.h"
#include "ldsan/emu/emu.h"
#include "retarget.h"
}

using namespace llvm;
using namespace llvm::PatternMatch;

namespace {

constexpr unsigned kMaskRegions = LDSAN_EMU_GROUP_LOW_REGIONS; // regions with a bit of their own (emu.h)
constexpr unsigned kMaxRegions = 512;      // regions at most: each is a loop (or three) of its own
constexpr uint32_t kStateDone = LDSAN_EMU_GROUP_STATE_DONE;
// The group function's accesses to the emulator's own arrays (ids, states)
// get one alias scope and every other access of the function (the kernel's)
// !noalias for it: the kernel's code has no pointer into those arrays. The
// noalias attributes say the same, but a group function uses `states` in
// more places than capture tracking follows, and then alias analysis would
// not use them: every work-item loop would keep its store of the work-item's
// state beside the kernel's accesses, and with it no vector form.
void scopeEmulatorArrays(Function &g, Value *ids, Value *states) {
  MDBuilder mdb(g.getContext());
  MDNode *domain = mdb.createAliasScopeDomain("ldsan.emu.group");
  MDNode *scope = mdb.createAliasScope("ldsan.emu.items", domain);
  MDNode *list = MDNode::get(g.getContext(), {scope});
  for (Instruction &i : instructions(g)) {
    Value *p = getLoadStorePointerOperand(&i);
    if (!p) {
      if (auto *rmw = dyn_cast<AtomicRMWInst>(&i)) p = rmw->getPointerOperand();
      else if (auto *cx = dyn_cast<AtomicCmpXchgInst>(&i)) p = cx->getPointerOperand();
      else if (auto *mi = dyn_cast<AnyMemIntrinsic>(&i)) p = mi->getRawDest();
      else continue;
    }
    const Value *o = getUnderlyingObject(p);
    if (o == ids || o == states) {
      i.setMetadata(LLVMContext::MD_alias_scope, list);
      continue;
    }
    if (auto *mt = dyn_cast<AnyMemTransferInst>(&i)) { // its source must not be ours either
      const Value *src = getUnderlyingObject(mt->getRawSource());
      if (src == ids || src == states) continue;
    }
    i.setMetadata(LLVMContext::MD_noalias, MDNode::concatenate(i.getMetadata(LLVMContext::MD_noalias), list));
  }
}

// Where a work-item that returns stops, in place of a barrier's region (stopAt).
constexpr unsigned kDoneStop = 0x7fffffffu;
constexpr uint64_t kMaxFrameAlign = 64;    // the core's frame buffer alignment

enum class Sync { None, Barrier, ExitBarrier, Sleep };

Sync syncOf(const Function *callee) {
  if (!callee) return Sync::None;
  StringRef n = callee->getName();
  if (n == "__ldsan_emu_s_barrier") return Sync::Barrier;
  if (n == "__ldsan_emu_s_barrier_exit") return Sync::ExitBarrier;
  if (n == "__ldsan_emu_s_sleep") return Sync::Sleep;
  return Sync::None;
}

// ldsan's own device runtime: its s_sleep is a back-off while another
// workgroup frees LDS blocks, never a wait for a work-item of the same group.
bool isLdsanRuntime(const Function &f) {
  StringRef n = f.getName();
  return n.starts_with("__ldsan_") && !n.starts_with("__ldsan_emu_");
}

// Whether a call to f may reach a barrier or a (non-runtime) s_sleep.
class SyncReach {
public:
  bool reaches(Function *f) {
    auto it = memo_.find(f);
    if (it != memo_.end()) return it->second == kYes;
    memo_[f] = kVisiting; // recursion: decided by the other paths
    bool yes = false;
    if (syncOf(f) != Sync::None) yes = true;
    else if (!f->isDeclaration())
      for (Instruction &i : instructions(*f)) {
        auto *cb = dyn_cast<CallBase>(&i);
        if (!cb || cb->isInlineAsm()) continue;
        Function *callee = cb->getCalledFunction();
        if (!callee) {
          if (!isLdsanRuntime(*f)) yes = true; // indirect: could be anything
        } else if (syncOf(callee) == Sync::Sleep) {
          if (!isLdsanRuntime(*f)) yes = true;
        } else if (syncOf(callee) != Sync::None || reaches(callee)) {
          yes = true;
        }
        if (yes) break;
      }
    memo_[f] = yes ? kYes : kNo;
    return yes;
  }

private:
  enum State { kVisiting, kYes, kNo };
  DenseMap<Function *, State> memo_;
};

// A lockstep kernel's cross-lane stop: a cross-lane operation or lockstep
// point of its own code (retarget_wave.cpp; ldsan's runtime code, marked
// LDSAN_RUNTIME_MD, lets its lanes run alone, as in any kernel's loops).
bool isWaveCallee(const Function *callee) {
  if (!callee) return false;
  StringRef n = callee->getName();
  return n == LDSAN_EMU_WAVE_OP_FN || n == LDSAN_EMU_WAVE_MEM_FN;
}

// The lockstep point before a call is not a stop: loops inline the call,
// whose stops are the kernel's (a join point is: lanes that skipped a branch
// wait there for the others, which stop inside it).
bool isWaveStop(const Instruction &i) {
  auto *ci = dyn_cast<CallInst>(&i);
  if (!ci || !isWaveCallee(ci->getCalledFunction()) || i.getMetadata(LDSAN_RUNTIME_MD)) return false;
  if (ci->getCalledFunction()->getName() != LDSAN_EMU_WAVE_OP_FN) return true;
  auto *op = dyn_cast<ConstantInt>(ci->getArgOperand(0));
  auto *arg = dyn_cast<ConstantInt>(ci->getArgOperand(2));
  return !(op && arg && op->getZExtValue() == LDSAN_EMU_WAVE_SYNC && arg->getZExtValue() == LDSAN_EMU_WAVE_SYNC_CALL);
}

// Whether a call to f may reach a cross-lane stop (ldsan's and ASan's runtime
// functions never do: their lanes run alone).
class WaveReach {
public:
  bool reaches(Function *f) {
    auto it = memo_.find(f);
    if (it != memo_.end()) return it->second == kYes;
    memo_[f] = kVisiting;
    bool yes = false;
    StringRef n = f->getName();
    if (!f->isDeclaration() && !isLdsanRuntime(*f) && !n.starts_with("__asan_"))
      for (Instruction &i : instructions(*f)) {
        auto *cb = dyn_cast<CallBase>(&i);
        Function *callee = cb && !cb->isInlineAsm() ? cb->getCalledFunction() : nullptr;
        if (callee && (isWaveStop(i) || (!isWaveCallee(callee) && reaches(callee)))) {
          yes = true;
          break;
        }
      }
    memo_[f] = yes ? kYes : kNo;
    return yes;
  }

private:
  enum State { kVisiting, kYes, kNo };
  DenseMap<Function *, State> memo_;
};

// The per-worker TLS block the core fills (emu_tls.h).
GlobalVariable *tlsGlobal(Module &m) {
  if (GlobalVariable *g = m.getNamedGlobal(LDSAN_EMU_TLS_SYMBOL)) return g;
  Type *ty = ArrayType::get(Type::getInt8Ty(m.getContext()), LDSAN_EMU_TLS_SIZE);
  auto *g = new GlobalVariable(m, ty, false, GlobalValue::ExternalLinkage, nullptr, LDSAN_EMU_TLS_SYMBOL, nullptr,
                               GlobalValue::InitialExecTLSModel);
  return g;
}

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

class Former {
public:
  Former(Function &entry, rt_wiloop &out)
      : f_(entry), m_(*entry.getParent()), dl_(m_.getDataLayout()), out_(out), lockstep_(out.lockstep != 0) {}

  Function *run(StringRef groupName) {
    if (!eligible()) return nullptr;
    ValueToValueMapTy vm;
    w_ = CloneFunction(&f_, vm);
    w_->setName(f_.getName() + ".wiloop.scratch");
    hoistAllocas();
    if (lockstep_) rt_wave_rank_function(wrap(w_)); // before splitting: the ranks of this code's blocks
    splitAtBarriers();
    findRegions();
    findUniform();
    demote();
    if (!layoutFrame()) {
      w_->eraseFromParent();
      return nullptr;
    }
    Function *g = build(groupName);
    scopeEmulatorArrays(*g, g->getArg(1), g->getArg(4));
    rt_debug_move(wrap(g), wrap(w_));
    std::string err;
    raw_string_ostream os(err);
    bool broken = verifyFunction(*g, &os);
    if (broken && getenv("LDSAN_EMU_WILOOP_DUMP")) errs() << *w_ << *g;
    if (broken) g->eraseFromParent();
    w_->eraseFromParent();
    if (broken) return fail("internal error: the work-item loops did not verify: " + os.str());
    out_.frame_size = frameSize_;
    out_.park_offset = park_ ? (uint32_t)frameOffset_.lookup(park_) : 0;
    out_.regions = (uint32_t)entries_.size();
    out_.barrier_pcs = wrap(barrierSlotTable(Twine(groupName) + ".barrier_pcs"));
    out_.exit_regions = 0;
    out_.wave_regions = 0;
    for (unsigned k = 0; k < entries_.size(); ++k) {
      if (!isExit_[k] && !isWave_[k]) continue;
      if (k >= kMaskRegions) { // (numberExitsFirst, eligible)
        g->eraseFromParent();
        return fail("internal error: region " + Twine(k) + " follows a kernel-exit barrier or cross-lane stop " +
                    "and has no bit in the core's masks");
      }
      if (isExit_[k]) out_.exit_regions |= uint64_t(1) << k;
      if (isWave_[k]) out_.wave_regions |= uint64_t(1) << k;
    }
    return g;
  }

  Function *fail(const Twine &why) {
    std::string s = why.str();
    snprintf(out_.why, sizeof out_.why, "%s", s.c_str());
    return nullptr;
  }
  bool reject(const Twine &why) {
    fail(why);
    return false;
  }

private:
  // ---- eligibility ----------------------------------------------------------
  bool eligible() {
    SyncReach reach;
    WaveReach waveReach;
    unsigned barriers = 0, waveStops = 0;
    for (Instruction &i : instructions(f_)) {
      if (isa<IndirectBrInst>(i) || isa<CallBrInst>(i) || isa<InvokeInst>(i))
        return reject("it uses " + Twine(i.getOpcodeName()));
      if (auto *a = dyn_cast<AllocaInst>(&i)) {
        if (!isa<ConstantInt>(a->getArraySize())) return reject("it has a dynamically sized alloca");
        continue;
      }
      auto *cb = dyn_cast<CallBase>(&i);
      if (!cb || cb->isInlineAsm()) continue;
      if (cb->hasFnAttr(Attribute::ReturnsTwice)) return reject("it calls a returns_twice function");
      Function *callee = cb->getCalledFunction();
      if (!callee) {
        if (reachesAnyAddressTaken(reach)) return reject("it makes an indirect call that may reach a barrier");
        if (lockstep_ && anyAddressTakenReachesWave(waveReach))
          return reject("it makes an indirect call that may reach a cross-lane operation");
        continue;
      }
      if (callee->getIntrinsicID() == Intrinsic::stacksave || callee->getIntrinsicID() == Intrinsic::stackrestore)
        return reject("it saves and restores the stack pointer");
      if (lockstep_ && isWaveStop(i)) {
        ++waveStops;
        continue;
      }
      if (lockstep_ && !callee->isDeclaration() && waveReach.reaches(callee))
        return reject("it calls '" + callee->getName() + "', which reaches a cross-lane operation and was not inlined");
      switch (syncOf(callee)) {
      case Sync::Barrier:
      case Sync::ExitBarrier:
        ++barriers;
        break;
      case Sync::Sleep:
        return reject("it calls s_sleep, which may wait for another work-item of its workgroup");
      case Sync::None:
        if (!callee->isDeclaration() && reach.reaches(callee))
          return reject("it calls '" + callee->getName() + "', which reaches a barrier or s_sleep and was not inlined");
        break;
      }
    }
    if (waveStops && barriers + waveStops + 1 > kMaskRegions)
      return reject("it has " + Twine(barriers) + " barriers and " + Twine(waveStops) +
                    " cross-lane operations and lockstep points (work-item loops handle up to " +
                    Twine(kMaskRegions - 1) + " in all)");
    if (barriers + 1 > kMaxRegions) {
      return reject("it has " + Twine(barriers) + " barriers (work-item loops handle up to " + Twine(kMaxRegions - 1) +
                  ")");
    }
    return true;
  }

  bool reachesAnyAddressTaken(SyncReach &reach) {
    for (Function &g : m_) {
      // The core calls the entries; llvm.used keeps kernels, nobody calls them through it.
      if (g.isDeclaration() || g.getName().starts_with("__ldsan_emu_entry.") ||
          g.getName().starts_with("__ldsan_emu_entry_checked.") || g.getName().starts_with("__ldsan_emu_group."))
        continue;
      if (g.hasAddressTaken(nullptr, false, true, /*IgnoreLLVMUsed=*/true) && reach.reaches(&g)) return true;
    }
    return false;
  }

  bool anyAddressTakenReachesWave(WaveReach &reach) {
    for (Function &g : m_)
      if (!g.isDeclaration() && g.hasAddressTaken(nullptr, false, true, /*IgnoreLLVMUsed=*/true) && reach.reaches(&g))
        return true;
    return false;
  }

  // Fixed-size allocas outside the entry block (unoptimized inlined code)
  // move to it, as LLVM's inliner does for static ones.
  void hoistAllocas() {
    SmallVector<AllocaInst *, 8> late;
    for (BasicBlock &bb : *w_)
      if (&bb != &w_->getEntryBlock())
        for (Instruction &i : bb)
          if (auto *a = dyn_cast<AllocaInst>(&i)) late.push_back(a);
    for (AllocaInst *a : late) a->moveBefore(w_->getEntryBlock().getFirstNonPHIOrDbgOrAlloca());
  }

  // ---- scratch copy: barriers start blocks ----------------------------------
  void splitAtBarriers() {
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
  void numberExitsFirst() {
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
  void splitAtWaveStop(CallInst *ci) {
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
  static CallInst *barrierNote(CallInst *ci) {
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
  GlobalVariable *noteOnce(CallInst *note) {
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
  GlobalVariable *barrierSlotTable(const Twine &name) {
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

  // ---- values shared by all work-items ---------------------------------------
  bool isUniformOperand(Value *v) {
    return isa<Constant>(v) || v == w_->getArg(0) || (isa<Instruction>(v) && uniformSet_.count(cast<Instruction>(v)));
  }

  // How far a pointer is from the trampoline's args parameter: 0 for args
  // (void **), 1 for args[i] (the i-th argument's storage), 2 for a loaded
  // argument value; -1 for anything else. Levels 0 and 1 are read-only for
  // the whole dispatch, so loads through them are the same for every work-item.
  int argLevel(Value *v) {
    if (v == w_->getArg(0)) return 0;
    auto it = argLevel_.find(v);
    return it == argLevel_.end() ? -1 : it->second;
  }

  void findUniform() {
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
  static bool isPureOp(Instruction &i) {
    if (auto *bo = dyn_cast<BinaryOperator>(&i)) return !bo->isIntDivRem();
    if (isa<MinMaxIntrinsic>(i)) return true; // blockDim: min(group size, what is left of the grid)
    return isa<CastInst>(i) || isa<GetElementPtrInst>(i) || isa<CmpInst>(i) || isa<SelectInst>(i);
  }

  // Which of workitem.id.{x,y,z} a per-item load reads (its byte offset in
  // ldsan_emu_item_ids: 0, 4, 8), or -1 (not an i32 load of one of them).
  int idField(Instruction *p) {
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

  bool isItemOperand(Value *v) { return isa<Instruction>(v) && perItemSet_.count(cast<Instruction>(v)); }

  // Values computed from uniform values alone become uniform too; values
  // computed from the work-item's ids (read through the TLS work-item
  // pointer, whose ids do not change during a dispatch) are recomputed at
  // the start of every region instead of being kept in the frame.
  void findComputed(GlobalVariable *tls) {
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
  bool isDispatchBlockAddress(Value *p, GlobalVariable *tls) {
    if (!tls || !isUniformOperand(p)) return false;
    auto *base = dyn_cast<LoadInst>(getUnderlyingObject(p));
    if (!base) return false;
    int64_t off = tlsOffset(base->getPointerOperand(), tls, dl_);
    return off == LDSAN_EMU_TLS_IMPLICITARG || off == LDSAN_EMU_TLS_DISPATCH;
  }

  // A constant address in a global nothing writes (constant, or internal and
  // only ever loaded, like amdgpu-sw-lower-lds's layout table).
  bool isReadOnlyGlobalAddress(Value *p) {
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
  bool isDeviceStateAddress(Value *p) {
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
  bool isBlockPointerLoad(LoadInst *l, GlobalVariable *tls) {
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

  void addPerItem(Instruction *i) {
    perItemSet_.insert(i);
    perItem_.push_back(i);
  }

  void addUniform(Instruction *i) {
    uniformSet_.insert(i);
    uniform_.push_back(i);
  }

  // ---- reg2mem for values crossing blocks -------------------------------------
  void demote() {
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

  // ---- regions and what each alloca needs -----------------------------------
  void findRegions() {
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
  const BitVector *regionsOf(BasicBlock *b) const {
    auto it = blockRegions_.find(b);
    return it == blockRegions_.end() ? nullptr : &it->second;
  }
  bool inRegion(BasicBlock *b, unsigned k) const {
    const BitVector *r = regionsOf(b);
    return r && k < r->size() && r->test(k);
  }
  bool onlyInRegion0(BasicBlock *b) const { return inRegion(b, 0) && regionsOf(b)->count() == 1; }

  struct AllocaUse {
    BitVector regions;
    bool escapes = false;
  };

  void collectUses(Value *p, AllocaUse &u) {
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
  bool storedBeforeLoaded(AllocaInst *a, unsigned k) {
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

  bool layoutFrame() {
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

  // ---- the group function ------------------------------------------------------
  Function *build(StringRef name) {
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
  bool regionReads(unsigned k, const SmallPtrSetImpl<Value *> &values) {
    for (BasicBlock *bb : regionBlocks_[k])
      for (Instruction &i : *bb)
        for (Use &u : i.operands())
          if (values.count(u.get())) return true;
    return false;
  }

  // One region's loop while it is built (buildRegionLoop).
  struct RegionLoop {
    std::string tag;                       // block names: r<k>[.all][.1d]
    BasicBlock *head = nullptr, *body = nullptr, *latch = nullptr;
    PHINode *idx = nullptr;                // the work-item's index
    Value *idx64 = nullptr, *sp = nullptr; // ... widened; its state slot
    Value *item = nullptr;                 // its ids (ldsan_emu_item_ids)
    ValueToValueMapTy vm;                  // the kernel's values -> the loop's
    SmallVector<std::pair<Value *, Value *>, 64> pinned; // those the clones must not remap to their copies
    DenseMap<BasicBlock *, unsigned> stubRegion;         // stop stubs -> the region they stop at
    void pin(Value *from, Value *to) {
      vm[from] = to;
      pinned.push_back({from, to});
    }
  };

  // The loop running region k for the work-items waiting at it (all of
  // them without looking when `everyone`); returns its first block.
  BasicBlock *buildRegionLoop(Function *g, unsigned k, bool everyone, bool oneD, BasicBlock *from, BasicBlock *done,
                              AllocaInst *mask, Value *par, Value *nextParity, Constant *tlsItem,
                              ValueToValueMapTy &base) {
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
  void makeLoop(Function *g, unsigned k, bool everyone, BasicBlock *from, BasicBlock *done, Value *par,
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
  void pinOutsideValues(Function *g, bool oneD, ValueToValueMapTy &base, RegionLoop &L) {
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

  // The region's blocks cloned into the body: a return or a branch to a
  // barrier becomes a stop (the work-item's state, the result mask, the
  // latch), and the body ends in a branch to the region's entry.
  void cloneRegion(Function *g, unsigned k, AllocaInst *mask, Value *nextParity, Constant *tlsItem, RegionLoop &L) {
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

  // Block b only notes a barrier's pc (noteOnce: load its slot, call
  // __ldsan_emu_lds_barrier_note when empty, the TLS work-item stored before
  // the call): returns the block after it and the note call, else null.
  BasicBlock *noteHop(BasicBlock *b, CallInst *&note) {
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

  // The state of a work-item that stopped at barrier j (the kernel-exit
  // barrier's keeps parity 0; kDoneStop: returned).
  Value *stopState(IRBuilder<> &b, unsigned j, Value *nextParity) {
    Type *i32 = Type::getInt32Ty(m_.getContext());
    if (j == kDoneStop) return ConstantInt::get(i32, kStateDone);
    return isExit_[j] ? (Value *)ConstantInt::get(i32, j << 1) : b.CreateOr(ConstantInt::get(i32, j << 1), nextParity);
  }

  // The group function's result bit of a work-item that stopped at j.
  static uint64_t stopBit(unsigned j) {
    return j == kDoneStop ? LDSAN_EMU_GROUP_DONE : ldsan_emu_region_bit(j);
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
  BasicBlock *narrowToActiveRange(Function *g, BasicBlock *start, PHINode *idx, BasicBlock *head,
                                  const DenseMap<BasicBlock *, unsigned> &stubRegion, AllocaInst *mask,
                                  Value *nextParity, const std::string &tag) {
    auto *br = dyn_cast<BranchInst>(start->getTerminator());
    if (!br || !br->isConditional()) return nullptr;
    for (Instruction &i : *start)
      if (&i != br && i.mayHaveSideEffects()) return nullptr;
    auto *cmp = dyn_cast<ICmpInst>(br->getCondition());
    if (!cmp) return nullptr;
    ICmpInst::Predicate pred = cmp->getPredicate();
    Value *bound = cmp->getOperand(1);
    if (cmp->getOperand(0) != idx) {
      if (cmp->getOperand(1) != idx) return nullptr;
      bound = cmp->getOperand(0);
      pred = ICmpInst::getSwappedPredicate(pred);
    }
    auto *inst = dyn_cast<Instruction>(bound);
    if (!isa<Constant>(bound) && !isa<Argument>(bound) && !(inst && inst->getParent() == &g->getEntryBlock()))
      return nullptr;
    // The successor that goes straight to a stop, through blocks that only
    // branch or only note the barrier's pc for the LDS checks (noteOnce; the
    // note is then made before the loop: the stopped work-items skip it).
    CallInst *notes[2] = {nullptr, nullptr};
    auto stopOf = [&](BasicBlock *b, CallInst *&note) -> int {
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
    };
    int stopTrue = stopOf(br->getSuccessor(0), notes[0]), stopFalse = stopOf(br->getSuccessor(1), notes[1]);
    if ((stopTrue < 0) == (stopFalse < 0)) return nullptr;
    unsigned j = (unsigned)(stopTrue >= 0 ? stopTrue : stopFalse);
    CallInst *note = notes[stopTrue >= 0 ? 0 : 1];
    if (note && (j == kDoneStop || note->getArgOperand(0) != barrierSlots_[j])) return nullptr; // another barrier's
    if (stopTrue >= 0) pred = ICmpInst::getInversePredicate(pred); // active while the compare is false
    // The index is below 2^31, so a signed compare is the unsigned one of the
    // bound taken as signed: [lo, hi) below is computed in 64 bits and clamped.
    bool isSigned = ICmpInst::isSigned(pred);
    if (isSigned) pred = ICmpInst::getUnsignedPredicate(pred);
    if (pred == ICmpInst::ICMP_NE) return nullptr; // two ranges
    LLVMContext &ctx = m_.getContext();
    Type *i32 = Type::getInt32Ty(ctx), *i64 = Type::getInt64Ty(ctx);
    Argument *n = g->getArg(2), *states = g->getArg(4);
    BasicBlock *pre = BasicBlock::Create(ctx, tag + ".range", g, head);
    IRBuilder<> pb(pre);
    if (note) { // the barrier's pc, noted once as the stopped work-items' side would
      auto *slot = cast<GlobalVariable>(note->getArgOperand(0));
      LoadInst *pc = pb.CreateAlignedLoad(i64, slot, Align(8), "barrier.pc");
      pc->setAtomic(AtomicOrdering::Monotonic);
      BasicBlock *noteBlock = BasicBlock::Create(ctx, tag + ".note", g, head);
      BasicBlock *noted = BasicBlock::Create(ctx, tag + ".noted", g, head);
      pb.CreateCondBr(pb.CreateIsNull(pc), noteBlock, noted);
      IRBuilder<> nb(noteBlock);
      nb.Insert(note->clone());
      nb.CreateBr(noted);
      pb.SetInsertPoint(noted);
    }
    Value *c = isSigned ? pb.CreateSExt(bound, i64) : pb.CreateZExt(bound, i64);
    Value *n64 = pb.CreateZExt(n, i64), *one = ConstantInt::get(i64, 1);
    Value *zero = ConstantInt::get(i64, 0), *lo, *hi;
    switch (pred) { // the active indices [lo, hi), before clamping to n
    case ICmpInst::ICMP_ULT: lo = zero; hi = c; break;
    case ICmpInst::ICMP_ULE: lo = zero; hi = pb.CreateAdd(c, one); break;
    case ICmpInst::ICMP_UGT: lo = pb.CreateAdd(c, one); hi = n64; break;
    case ICmpInst::ICMP_UGE: lo = c; hi = n64; break;
    default: /* ICMP_EQ */ lo = c; hi = pb.CreateAdd(c, one); break;
    }
    lo = pb.CreateBinaryIntrinsic(Intrinsic::smin, pb.CreateBinaryIntrinsic(Intrinsic::smax, lo, zero), n64);
    hi = pb.CreateBinaryIntrinsic(Intrinsic::smin, pb.CreateBinaryIntrinsic(Intrinsic::smax, hi, lo), n64);
    Value *lo32 = pb.CreateTrunc(lo, i32, "active.lo"), *hi32 = pb.CreateTrunc(hi, i32, "active.hi");
    Value *others = pb.CreateOr(pb.CreateICmpNE(lo32, ConstantInt::get(i32, 0)), pb.CreateICmpULT(hi32, n));
    Constant *jBit = ConstantInt::get(i64, stopBit(j));
    pb.CreateStore(pb.CreateOr(pb.CreateLoad(i64, mask), pb.CreateSelect(others, jBit, ConstantInt::get(i64, 0))), mask);
    BasicBlock *last = pb.GetInsertBlock();
    pb.CreateBr(head);
    idx->setIncomingValue(0, lo32);
    idx->setIncomingBlock(0, last);
    auto *exit = cast<BranchInst>(head->getTerminator());
    cast<ICmpInst>(exit->getCondition())->setOperand(1, hi32);

    // After the loop: the others' state, unless everybody stopped at j.
    BasicBlock *done = exit->getSuccessor(1);
    BasicBlock *after = BasicBlock::Create(ctx, tag + ".others", g, done);
    BasicBlock *fills = BasicBlock::Create(ctx, tag + ".others.fill", g, done);
    exit->setSuccessor(1, after);
    IRBuilder<> ab(after);
    // (Past the masks' bits, jBit is every such region's: the others' state is always stored.)
    Value *sameStop = j == kDoneStop || j < kMaskRegions ? ab.CreateICmpEQ(ab.CreateLoad(i64, mask), jBit) : (Value *)ab.getFalse();
    ab.CreateCondBr(ab.CreateAnd(others, ab.CreateNot(sameStop)), fills, done);
    IRBuilder<> fb(fills);
    Value *st = stopState(fb, j, nextParity);
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
    fill(ConstantInt::get(i32, 0), lo32, "below");
    fill(hi32, n, "above");
    fb.CreateBr(done);
    return pre;
  }

  Function &f_;
  Module &m_;
  const DataLayout &dl_;
  rt_wiloop &out_;
  bool lockstep_;                               // cross-lane stops end regions too
  Function *w_ = nullptr;                       // scratch copy of f_
  AllocaInst *park_ = nullptr;                  // the parked record of cross-lane stops (lockstep)
  SmallVector<BasicBlock *, 16> entries_;       // region k starts at entries_[k]
  SmallVector<bool, 16> isExit_;                // region k follows the kernel-exit barrier
  SmallVector<bool, 16> isWave_;                // region k follows a cross-lane stop (lockstep)
  SmallVector<Value *, 16> barrierSlots_;       // region k's barrier pc slot (the LDS checks'), or null
  DenseMap<BasicBlock *, unsigned> regionOf_;   // barrier block -> region
  std::vector<SmallVector<BasicBlock *, 32>> regionBlocks_;
  DenseMap<BasicBlock *, BitVector> blockRegions_; // the regions block b is in
  std::vector<bool> reexec_;
  SmallPtrSet<Instruction *, 32> uniformSet_;
  SmallVector<Instruction *, 32> uniform_;
  DenseMap<Value *, int> argLevel_;
  SmallPtrSet<Instruction *, 32> perItemSet_;         // recomputed per work-item and region
  SmallVector<Instruction *, 32> perItem_;            // ... in dependency order
  SmallPtrSet<Value *, 8> itemPtrSet_;                // the TLS work-item pointer, and ids fields
  int blockPointerStable_ = -1;                       // LDS offset 0 written only in region 0 (-1: not known yet)
  DenseMap<GlobalVariable *, bool> readOnlyGlobals_;
  int deviceStateReadOnly_ = -1; // isDeviceStateAddress: unknown, no, yes
  SmallPtrSet<AllocaInst *, 32> demoted_;
  struct SharedAlloca {
    AllocaInst *a;
    uint64_t bytes, align;
  };
  SmallVector<SharedAlloca, 32> shared_;                // stay allocas of the group function
  MapVector<AllocaInst *, uint64_t> frameOffset_;
  uint32_t frameSize_ = 0;
};

} // namespace

extern "C" void rt_wiloop_prepare(LLVMModuleRef mref) {
  Module &m = *unwrap(mref);
  SyncReach reach;
  WaveReach waveReach;
  for (Function &f : m) {
    if (f.isDeclaration()) continue;
    bool sleeps = false;
    for (Instruction &i : instructions(f))
      if (auto *cb = dyn_cast<CallBase>(&i)) sleeps |= syncOf(cb->getCalledFunction()) == Sync::Sleep;
    if (isLdsanRuntime(f) && sleeps) { // keep the runtime's back-off out of kernel bodies
      f.removeFnAttr(Attribute::AlwaysInline);
      f.addFnAttr(Attribute::NoInline);
    } else if (!f.getName().starts_with("__ldsan_emu_entry.") && (reach.reaches(&f) || waveReach.reaches(&f))) {
      // (The runtime's too: the LDS checks' barrier hook, device/lds_checks.c.)
      f.removeFnAttr(Attribute::NoInline);
      f.removeFnAttr(Attribute::OptimizeNone);
      f.addFnAttr(Attribute::AlwaysInline);
    }
  }
}

extern "C" LLVMValueRef rt_wiloop_form(LLVMValueRef entry, const char *group_name, rt_wiloop *out) {
  out->frame_size = 0;
  out->regions = 0;
  out->exit_regions = 0;
  out->wave_regions = 0;
  out->park_offset = 0;
  out->barrier_pcs = NULL;
  out->why[0] = '\0';
  Former former(*unwrap<Function>(entry), *out);
  return wrap(former.run(group_name));
}
