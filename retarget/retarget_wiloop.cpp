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
//
// This file holds the pass's steps in order (Former::run) and its C entry
// points; the steps themselves are in retarget_wiloop_*.cpp, which
// retarget_wiloop.h lists.
#include <cstdio>
#include <cstdlib>
#include <string>

#include "llvm/Analysis/ValueTracking.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/IR/MDBuilder.h"
#include "llvm/IR/Verifier.h"
#include "llvm/Support/raw_ostream.h"
#include "llvm/Transforms/Utils/Cloning.h"

#include "retarget_wiloop.h"

using namespace llvm;
using namespace ldsan_rt;

namespace {

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

} // namespace

Function *Former::run(StringRef groupName) {
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
