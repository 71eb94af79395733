// ldsan-emu-retarget: work-item loops (retarget_wiloop.cpp), which kernels
// can be formed. A kernel keeps running as fibers when a barrier or s_sleep
// is reached from a function that stayed out of line, it calls s_sleep, it
// has a dynamic alloca or an indirect call that may reach a barrier (or, in
// lockstep, a cross-lane operation), or it has more regions than the core's
// masks allow; Former::eligible says which. rt_wiloop_prepare inlines what
// reaches a barrier first, with SyncReach and WaveReach from here.
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/IntrinsicInst.h"

#include "retarget_wiloop.h"

using namespace llvm;

namespace ldsan_rt {

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

bool SyncReach::reaches(Function *f) {
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

bool WaveReach::reaches(Function *f) {
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

bool Former::eligible() {
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

bool Former::reachesAnyAddressTaken(SyncReach &reach) {
  for (Function &g : m_) {
    // The core calls the entries; llvm.used keeps kernels, nobody calls them through it.
    if (g.isDeclaration() || g.getName().starts_with("__ldsan_emu_entry.") ||
        g.getName().starts_with("__ldsan_emu_entry_checked.") || g.getName().starts_with("__ldsan_emu_group."))
      continue;
    if (g.hasAddressTaken(nullptr, false, true, /*IgnoreLLVMUsed=*/true) && reach.reaches(&g)) return true;
  }
  return false;
}

bool Former::anyAddressTakenReachesWave(WaveReach &reach) {
  for (Function &g : m_)
    if (!g.isDeclaration() && g.hasAddressTaken(nullptr, false, true, /*IgnoreLLVMUsed=*/true) && reach.reaches(&g))
      return true;
  return false;
}

} // namespace ldsan_rt

// Why the kernel is not formed, for the caller (out_.why; -v prints it).
Function *ldsan_rt::Former::fail(const Twine &why) {
  std::string s = why.str();
  snprintf(out_.why, sizeof out_.why, "%s", s.c_str());
  return nullptr;
}

bool ldsan_rt::Former::reject(const Twine &why) {
  fail(why);
  return false;
}
