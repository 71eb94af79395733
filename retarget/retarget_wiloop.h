// ldsan-emu-retarget: work-item loops, the pass's private header. Former
// turns one kernel's fiber entry into its group function (what the loops do
// and why: retarget_wiloop.cpp's banner); its steps live in the files named
// below, next to the helpers they share:
//   retarget_wiloop.cpp          the pass's steps in order, its C entry points
//   retarget_wiloop_eligible.cpp which kernels can be formed (barriers, cross-lane stops); why not
//   retarget_wiloop_regions.cpp  the scratch copy split at barriers: region numbering
//   retarget_wiloop_uniform.cpp  values the same for every work-item, values recomputed per item
//   retarget_wiloop_frame.cpp    values crossing blocks to memory, the per-work-item frame
//   retarget_wiloop_build.cpp    the group function: the region switch, each region's loop
//   retarget_wiloop_clone.cpp    a region's code in its loop: barriers and returns become stops
//   retarget_wiloop_narrow.cpp   the one-dimensional loop narrowed to the indices a compare admits
#ifndef LDSAN_EMU_RETARGET_WILOOP_H
#define LDSAN_EMU_RETARGET_WILOOP_H

#include <cstdint>
#include <string>
#include <vector>

#include "llvm/ADT/BitVector.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/MapVector.h"
#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/ADT/Twine.h"
#include "llvm/IR/DataLayout.h"
#include "llvm/IR/Function.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/Module.h"
#include "llvm/Transforms/Utils/ValueMapper.h"

extern "C" {
#include "ldsan/entry_points.def"
#include "ldsan/emu/wave_ops.h"
#include "ldsan/emu/emu_tls.h"
#include "ldsan/emu/emu.h"
#include "retarget.h"
}

namespace ldsan_rt {

constexpr unsigned kMaskRegions = LDSAN_EMU_GROUP_LOW_REGIONS; // regions with a bit of their own (emu.h)
constexpr unsigned kMaxRegions = 512;      // regions at most: each is a loop (or three) of its own
constexpr uint32_t kStateDone = LDSAN_EMU_GROUP_STATE_DONE;
// Where a work-item that returns stops, in place of a barrier's region (stopAt).
constexpr unsigned kDoneStop = 0x7fffffffu;
constexpr uint64_t kMaxFrameAlign = 64;    // the core's frame buffer alignment

// ---- retarget_wiloop_eligible.cpp ---------------------------------------------
enum class Sync { None, Barrier, ExitBarrier, Sleep };

// What a call to callee is: a barrier, the kernel-exit barrier, s_sleep, or none.
Sync syncOf(const llvm::Function *callee);
// ldsan's own device runtime (its s_sleep is a back-off, never a wait for a work-item).
bool isLdsanRuntime(const llvm::Function &f);
// A cross-lane operation or lockstep point of retarget_wave.cpp.
bool isWaveCallee(const llvm::Function *callee);
// A lockstep kernel's cross-lane stop (not the lockstep point before a call).
bool isWaveStop(const llvm::Instruction &i);

// Whether a call to f may reach a barrier or a (non-runtime) s_sleep.
class SyncReach {
public:
  bool reaches(llvm::Function *f);

private:
  enum State { kVisiting, kYes, kNo };
  llvm::DenseMap<llvm::Function *, State> memo_;
};

// Whether a call to f may reach a cross-lane stop (ldsan's and ASan's runtime
// functions never do: their lanes run alone).
class WaveReach {
public:
  bool reaches(llvm::Function *f);

private:
  enum State { kVisiting, kYes, kNo };
  llvm::DenseMap<llvm::Function *, State> memo_;
};

// Forms the work-item loops of one kernel (rt_wiloop_form).
class Former {
public:
  Former(llvm::Function &entry, rt_wiloop &out)
      : f_(entry), m_(*entry.getParent()), dl_(m_.getDataLayout()), out_(out), lockstep_(out.lockstep != 0) {}

  // retarget_wiloop.cpp: the steps in order; the group function, or null (out.why says why).
  llvm::Function *run(llvm::StringRef groupName);
  // retarget_wiloop_eligible.cpp: out.why set; null / false (below every step that gives up).
  llvm::Function *fail(const llvm::Twine &why);
  bool reject(const llvm::Twine &why);

private:
  // ---- retarget_wiloop_eligible.cpp: which kernels can be formed -------------
  bool eligible();
  bool reachesAnyAddressTaken(SyncReach &reach);
  bool anyAddressTakenReachesWave(WaveReach &reach);

  // ---- retarget_wiloop_regions.cpp: barriers start blocks, regions ----------
  void hoistAllocas();
  void splitAtBarriers();
  void numberExitsFirst();
  void splitAtWaveStop(llvm::CallInst *ci);
  static llvm::CallInst *barrierNote(llvm::CallInst *ci);
  llvm::GlobalVariable *noteOnce(llvm::CallInst *note);
  llvm::GlobalVariable *barrierSlotTable(const llvm::Twine &name);
  void findRegions();
  const llvm::BitVector *regionsOf(llvm::BasicBlock *b) const;
  bool inRegion(llvm::BasicBlock *b, unsigned k) const;
  bool onlyInRegion0(llvm::BasicBlock *b) const { return inRegion(b, 0) && regionsOf(b)->count() == 1; }

  // ---- retarget_wiloop_uniform.cpp: values shared by all work-items --------
  bool isUniformOperand(llvm::Value *v);
  int argLevel(llvm::Value *v);
  void findUniform();
  static bool isPureOp(llvm::Instruction &i);
  int idField(llvm::Instruction *p);
  bool isItemOperand(llvm::Value *v) {
    return llvm::isa<llvm::Instruction>(v) && perItemSet_.count(llvm::cast<llvm::Instruction>(v));
  }
  void findComputed(llvm::GlobalVariable *tls);
  bool isDispatchBlockAddress(llvm::Value *p, llvm::GlobalVariable *tls);
  bool isReadOnlyGlobalAddress(llvm::Value *p);
  bool isDeviceStateAddress(llvm::Value *p);
  bool isBlockPointerLoad(llvm::LoadInst *l, llvm::GlobalVariable *tls);
  void addPerItem(llvm::Instruction *i);
  void addUniform(llvm::Instruction *i);

  // ---- retarget_wiloop_frame.cpp: reg2mem, what each alloca needs ----------
  struct AllocaUse {
    llvm::BitVector regions;
    bool escapes = false;
  };
  void demote();
  void collectUses(llvm::Value *p, AllocaUse &u);
  bool storedBeforeLoaded(llvm::AllocaInst *a, unsigned k);
  bool layoutFrame();

  // ---- retarget_wiloop_build.cpp: the group function ------------------------
  // One region's loop while it is built (buildRegionLoop).
  struct RegionLoop {
    std::string tag;                             // block names: r<k>[.all][.1d]
    llvm::BasicBlock *head = nullptr, *body = nullptr, *latch = nullptr;
    llvm::PHINode *idx = nullptr;                // the work-item's index
    llvm::Value *idx64 = nullptr, *sp = nullptr; // ... widened; its state slot
    llvm::Value *item = nullptr;                 // its ids (ldsan_emu_item_ids)
    llvm::ValueToValueMapTy vm;                  // the kernel's values -> the loop's
    // Those the clones must not remap to their copies.
    llvm::SmallVector<std::pair<llvm::Value *, llvm::Value *>, 64> pinned;
    llvm::DenseMap<llvm::BasicBlock *, unsigned> stubRegion; // stop stubs -> the region they stop at
    void pin(llvm::Value *from, llvm::Value *to) {
      vm[from] = to;
      pinned.push_back({from, to});
    }
  };
  llvm::Function *build(llvm::StringRef name);
  bool regionReads(unsigned k, const llvm::SmallPtrSetImpl<llvm::Value *> &values);
  llvm::BasicBlock *buildRegionLoop(llvm::Function *g, unsigned k, bool everyone, bool oneD, llvm::BasicBlock *from,
                                    llvm::BasicBlock *done, llvm::AllocaInst *mask, llvm::Value *par,
                                    llvm::Value *nextParity, llvm::Constant *tlsItem, llvm::ValueToValueMapTy &base);
  void makeLoop(llvm::Function *g, unsigned k, bool everyone, llvm::BasicBlock *from, llvm::BasicBlock *done,
                llvm::Value *par, RegionLoop &L);
  void pinOutsideValues(llvm::Function *g, bool oneD, llvm::ValueToValueMapTy &base, RegionLoop &L);

  // ---- retarget_wiloop_clone.cpp: the region's code, its stops --------------
  void cloneRegion(llvm::Function *g, unsigned k, llvm::AllocaInst *mask, llvm::Value *nextParity,
                   llvm::Constant *tlsItem, RegionLoop &L);
  llvm::Value *stopState(llvm::IRBuilder<> &b, unsigned j, llvm::Value *nextParity);
  static uint64_t stopBit(unsigned j);

  // ---- retarget_wiloop_narrow.cpp: the one-dimensional loop's active range --
  llvm::BasicBlock *noteHop(llvm::BasicBlock *b, llvm::CallInst *&note);
  // A region's opening compare of the loop index, one side of which only stops.
  struct ActiveRange {
    llvm::Value *bound = nullptr;                             // what the index is compared with
    llvm::ICmpInst::Predicate pred = llvm::ICmpInst::ICMP_EQ; // unsigned: true for the active indices
    bool isSigned = false;                                    // (the compare was signed)
    unsigned j = 0;                                           // the stop of the others (kDoneStop: return)
    llvm::CallInst *note = nullptr;                           // their barrier pc note, or null
    llvm::Value *lo32 = nullptr, *hi32 = nullptr;             // the active indices [lo32, hi32)
    llvm::Value *others = nullptr;                            // some work-item is outside them
  };
  int stopAfter(llvm::BasicBlock *b, const llvm::DenseMap<llvm::BasicBlock *, unsigned> &stubRegion,
                llvm::CallInst *&note);
  bool matchActiveRange(llvm::Function *g, llvm::BasicBlock *start, llvm::PHINode *idx,
                        const llvm::DenseMap<llvm::BasicBlock *, unsigned> &stubRegion, ActiveRange &r);
  llvm::BasicBlock *enterActiveRange(llvm::Function *g, llvm::PHINode *idx, llvm::BasicBlock *head,
                                     llvm::AllocaInst *mask, const std::string &tag, ActiveRange &r);
  void fillOthers(llvm::Function *g, llvm::BasicBlock *head, llvm::AllocaInst *mask, llvm::Value *nextParity,
                  const std::string &tag, const ActiveRange &r);
  llvm::BasicBlock *narrowToActiveRange(llvm::Function *g, llvm::BasicBlock *start, llvm::PHINode *idx,
                                        llvm::BasicBlock *head,
                                        const llvm::DenseMap<llvm::BasicBlock *, unsigned> &stubRegion,
                                        llvm::AllocaInst *mask, llvm::Value *nextParity, const std::string &tag);

  llvm::Function &f_;
  llvm::Module &m_;
  const llvm::DataLayout &dl_;
  rt_wiloop &out_;
  bool lockstep_;                                             // cross-lane stops end regions too
  llvm::Function *w_ = nullptr;                               // scratch copy of f_
  llvm::AllocaInst *park_ = nullptr;                          // the parked record of cross-lane stops (lockstep)
  llvm::SmallVector<llvm::BasicBlock *, 16> entries_;         // region k starts at entries_[k]
  llvm::SmallVector<bool, 16> isExit_;                        // region k follows the kernel-exit barrier
  llvm::SmallVector<bool, 16> isWave_;                        // region k follows a cross-lane stop (lockstep)
  llvm::SmallVector<llvm::Value *, 16> barrierSlots_;         // region k's barrier pc slot (the LDS checks'), or null
  llvm::DenseMap<llvm::BasicBlock *, unsigned> regionOf_;     // barrier block -> region
  std::vector<llvm::SmallVector<llvm::BasicBlock *, 32>> regionBlocks_;
  llvm::DenseMap<llvm::BasicBlock *, llvm::BitVector> blockRegions_; // the regions block b is in
  std::vector<bool> reexec_;
  llvm::SmallPtrSet<llvm::Instruction *, 32> uniformSet_;
  llvm::SmallVector<llvm::Instruction *, 32> uniform_;
  llvm::DenseMap<llvm::Value *, int> argLevel_;
  llvm::SmallPtrSet<llvm::Instruction *, 32> perItemSet_;     // recomputed per work-item and region
  llvm::SmallVector<llvm::Instruction *, 32> perItem_;        // ... in dependency order
  llvm::SmallPtrSet<llvm::Value *, 8> itemPtrSet_;            // the TLS work-item pointer, and ids fields
  // LDS offset 0 written only in region 0 (-1: not known yet).
  int blockPointerStable_ = -1;
  llvm::DenseMap<llvm::GlobalVariable *, bool> readOnlyGlobals_;
  int deviceStateReadOnly_ = -1;                              // isDeviceStateAddress: unknown, no, yes
  llvm::SmallPtrSet<llvm::AllocaInst *, 32> demoted_;
  struct SharedAlloca {
    llvm::AllocaInst *a;
    uint64_t bytes, align;
  };
  llvm::SmallVector<SharedAlloca, 32> shared_;                // stay allocas of the group function
  llvm::MapVector<llvm::AllocaInst *, uint64_t> frameOffset_;
  uint32_t frameSize_ = 0;
};

} // namespace ldsan_rt

#endif
