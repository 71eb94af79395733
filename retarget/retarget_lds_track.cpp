// ldsan-emu-retarget: an inline path before the LDS checks' calls of a
// checked group function (rt_lds_checks puts a call of __ldsan_emu_lds_track
// before each shared-memory access of a kernel's checked copy,
// retarget_wave.cpp; the work-item loops copy them into the group function).
// A call costs its frame and the spills of the kernel code around it; most
// accesses of a race-free kernel need a few loads and compares of their
// word's record (lds_track.h says which). The inline path reads what it
// needs of the running workgroup from the TLS block (track_*: the core fills
// them before each call of a checked group function, so the group function
// loads them once, in its entry block) and the work-item's index from the
// work-item pointer the loop stores before the call. Fiber entries keep the
// plain calls: the TLS path is off there (track_size 0).
//
//   head:    a bare loop (TLS track_fast, which only a loop
//            retarget_lds_disjoint.cpp found disjoint sees nonzero, is
//            LDSAN_EMU_TRACK_FAST_BARE: the core keeps its writes) ? done : lead
//   lead:    off = addr - block; inside (off < size, off + n <= size, 4-aligned)
//              ? pick : outside
//   pick:    the loop's fast path (track_fast LDSAN_EMU_TRACK_FAST_WRITES):
//            a read is done, a write stores its epoch, item and size
//            (slow if its word is split); else check
//   outside: an enabled block the access misses entirely ? done : slow
//   check:   per word: not split in this run, no unordered access of
//            another work-item in its sides, written in this run (a read,
//            detect_uninit), no atomic reads in this epoch (a plain write:
//            the core keeps them apart) ? update : slow
//   update:  the access's side into the record (a read: only as the
//            interval's first reader); its pc is the address of an
//            instruction at the access (an asm lea in lead, so the report
//            names it)
//   slow:    __ldsan_emu_lds_track_at(ptr, size | store << 31 | atomic << 30,
//            pc): the same pc, so an access is kept with one pc either way
#include "llvm/IR/BasicBlock.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/Function.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/InlineAsm.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/MDBuilder.h"
#include "llvm/IR/Module.h"
#include "llvm/Transforms/Utils/BasicBlockUtils.h"

extern "C" {
#include "ldsan/emu/emu_tls.h"
#include "ldsan/emu/lds_track.h"
#include "retarget.h"
}
#include "retarget_loops.h"

using namespace llvm;

namespace {

// The address of an instruction at this point of the code, + 1: reports
// symbolize pc - 1 (a return address's call), which is then the lea itself,
// with the access's source location. Side effects keep the optimizer from
// merging two sites, nomerge the code generator; it touches no memory the
// module can see.
Value *sitePc(IRBuilder<> &B, const DebugLoc &Loc) {
  FunctionType *Ty = FunctionType::get(B.getInt64Ty(), false);
  InlineAsm *Lea = InlineAsm::get(Ty, "1: leaq 1b+1(%rip), $0", "=r", /*hasSideEffects=*/true);
  CallInst *Pc = B.CreateCall(Ty, Lea);
  Pc->setDebugLoc(Loc);
  Pc->addFnAttr(Attribute::NoUnwind);
  Pc->addFnAttr(Attribute::WillReturn);
  Pc->addFnAttr(Attribute::NoMerge);
  Pc->setMemoryEffects(MemoryEffects::inaccessibleMemOnly());
  return Pc;
}

// What the inline paths of one group function share: the TLS fields,
// loaded once in its entry block.
struct TrackContext {
  Value *Recs, *Block, *Size, *Ids, *WaveEpochs, *Epoch, *RunStart, *WrittenFloor, *WaveShift, *Fast;
};

TrackContext loadContext(Function &G, GlobalVariable *Tls) {
  LLVMContext &Ctx = G.getContext();
  Type *I8 = Type::getInt8Ty(Ctx), *I32 = Type::getInt32Ty(Ctx), *I64 = Type::getInt64Ty(Ctx),
       *Ptr = PointerType::get(Ctx, 0);
  IRBuilder<> B(&*G.getEntryBlock().getFirstInsertionPt());
  auto field = [&](Type *Ty, unsigned Off, const char *Name) -> Value * {
    return B.CreateLoad(Ty, ConstantExpr::getInBoundsGetElementPtr(I8, Tls, ConstantInt::get(I64, Off)), Name);
  };
  TrackContext T;
  T.Recs = field(Ptr, LDSAN_EMU_TLS_TRACK_RECS, "track.recs");
  T.Block = field(I64, LDSAN_EMU_TLS_TRACK_BLOCK, "track.block");
  T.Size = field(I64, LDSAN_EMU_TLS_TRACK_SIZE, "track.size");
  T.Ids = B.CreatePtrToInt(field(Ptr, LDSAN_EMU_TLS_TRACK_IDS, "track.ids"), I64);
  T.WaveEpochs = field(Ptr, LDSAN_EMU_TLS_TRACK_WAVE_EPOCHS, "track.wave.epochs");
  T.Epoch = field(I32, LDSAN_EMU_TLS_TRACK_EPOCH, "track.epoch");
  T.RunStart = field(I32, LDSAN_EMU_TLS_TRACK_RUN_START, "track.run.start");
  T.WrittenFloor = field(I32, LDSAN_EMU_TLS_TRACK_WRITTEN_FLOOR, "track.written.floor");
  T.WaveShift = B.CreateZExt(field(I32, LDSAN_EMU_TLS_TRACK_WAVE_SHIFT, "track.wave.shift"), I64);
  T.Fast = field(I32, LDSAN_EMU_TLS_TRACK_FAST, "track.fast");
  return T;
}

// A side's word of epoch, item (+ 1) and size.
Value *sideKey(IRBuilder<> &B, const TrackContext &T, Value *Me1, uint32_t Size) {
  Type *I64 = B.getInt64Ty();
  Value *Key = B.CreateOr(B.CreateZExt(T.Epoch, I64), B.CreateShl(B.CreateZExt(Me1, I64), B.getInt64(32)));
  return B.CreateOr(Key, B.getInt64((uint64_t)Size << 48));
}

// One access's inline path while it is built (emitInline): its blocks, in
// the order of the banner, and the values the steps hand on.
struct InlinePath {
  const TrackContext &T;
  LLVMContext &Ctx;
  Function *F;
  Value *P;                     // the accessed address
  uint32_t Size;                // bytes: 4, 8, 12 or 16
  bool Store, Atomic;
  BasicBlock *Head, *Slow, *Done, *Pick, *Check, *Outside, *Update, *Lead = nullptr;
  MDBuilder Weights;
  Type *I8, *I16, *I32, *I64;
  IRBuilder<> B;
  Value *Pc = nullptr, *Addr = nullptr, *Off = nullptr; // lead's
  Value *Me = nullptr, *Me1 = nullptr;                  // pick's: the work-item's index, + 1 as an i16
  SmallVector<Value *, 4> Recs, ReadEpochs;             // pick's records of the words; check's read epochs

  InlinePath(const TrackContext &T, LLVMContext &Ctx, Function *F, Value *P, uint32_t Size, bool Store, bool Atomic,
             BasicBlock *Head, BasicBlock *Slow, BasicBlock *Done)
      : T(T), Ctx(Ctx), F(F), P(P), Size(Size), Store(Store), Atomic(Atomic), Head(Head), Slow(Slow), Done(Done),
        Pick(BasicBlock::Create(Ctx, "ldsan.track.pick", F, Slow)),
        Check(BasicBlock::Create(Ctx, "ldsan.track.check", F, Slow)),
        Outside(BasicBlock::Create(Ctx, "ldsan.track.outside", F, Slow)),
        Update(BasicBlock::Create(Ctx, "ldsan.track.update", F, Slow)), Weights(Ctx), I8(Type::getInt8Ty(Ctx)),
        I16(Type::getInt16Ty(Ctx)), I32(Type::getInt32Ty(Ctx)), I64(Type::getInt64Ty(Ctx)), B(Ctx) {}

  Value *at(Value *Base, unsigned Off) { return B.CreateConstInBoundsGEP1_64(I8, Base, Off); }

  // head: nothing in a bare loop
  void emitHead() {
    Lead = BasicBlock::Create(Ctx, "ldsan.track.lead", F, Pick);
    B.SetInsertPoint(Head);
    B.CreateCondBr(B.CreateICmpEQ(T.Fast, B.getInt32(LDSAN_EMU_TRACK_FAST_BARE)), Done, Lead);
  }

  // lead: inside the block, whole 4-byte aligned words?
  void emitLead(const DebugLoc &Loc) {
    B.SetInsertPoint(Lead);
    Pc = sitePc(B, Loc);
    Addr = B.CreatePtrToInt(P, I64);
    Off = B.CreateSub(Addr, T.Block);
    Value *Inside =
        B.CreateAnd(B.CreateICmpULT(Off, T.Size), B.CreateICmpULE(B.CreateAdd(Off, B.getInt64(Size)), T.Size));
    Inside = B.CreateAnd(Inside, B.CreateICmpEQ(B.CreateAnd(Off, B.getInt64(3)), B.getInt64(0)));
    B.CreateCondBr(Inside, Pick, Outside);
  }

  // outside: nothing to keep when the block is known and the access misses it
  void emitOutside() {
    B.SetInsertPoint(Outside);
    Value *Away = B.CreateOr(B.CreateICmpUGE(Addr, B.CreateAdd(T.Block, T.Size)),
                             B.CreateICmpULE(B.CreateAdd(Addr, B.getInt64(Size)), T.Block));
    B.CreateCondBr(B.CreateAnd(B.CreateICmpNE(T.Size, B.getInt64(0)), Away), Done, Slow,
                   Weights.createLikelyBranchWeights());
  }

  // pick: the work-item and the records; the loop's fast path (a loop
  // whose accesses no two work-items share: nothing to compare) or check
  void emitPick(Value *Item) {
    B.SetInsertPoint(Pick);
    static_assert(LDSAN_EMU_ITEM_IDS_SIZE == 16, "the index is the offset >> 4");
    Me = B.CreateLShr(B.CreateSub(B.CreatePtrToInt(Item, I64), T.Ids), B.getInt64(4), "", /*isExact=*/true);
    Me1 = B.CreateTrunc(B.CreateAdd(Me, B.getInt64(1)), I16);
    Value *Word = B.CreateLShr(Off, B.getInt64(2));
    unsigned Words = Size / 4;
    for (unsigned K = 0; K < Words; K++)
      Recs.push_back(B.CreateGEP(I8, T.Recs, B.CreateMul(K ? B.CreateAdd(Word, B.getInt64(K)) : Word,
                                                         B.getInt64(LDSAN_EMU_REC_SIZE))));
    Value *FastOn = B.CreateICmpEQ(T.Fast, B.getInt32(LDSAN_EMU_TRACK_FAST_WRITES));
    if (!Store) {
      B.CreateCondBr(FastOn, Done, Check);
      return;
    }
    // A write still says it was made (its epoch, item and size: later
    // intervals look at nothing else of it) where the word is whole.
    BasicBlock *Fast = BasicBlock::Create(Ctx, "ldsan.track.fast", F, Slow);
    BasicBlock *Made = BasicBlock::Create(Ctx, "ldsan.track.made", F, Slow);
    B.CreateCondBr(FastOn, Fast, Check);
    B.SetInsertPoint(Fast);
    Value *Whole = B.getTrue();
    for (Value *Rec : Recs)
      Whole = B.CreateAnd(Whole, B.CreateICmpULT(B.CreateLoad(I32, at(Rec, LDSAN_EMU_REC_SPLIT)), T.RunStart));
    B.CreateCondBr(Whole, Made, Slow, Weights.createLikelyBranchWeights());
    B.SetInsertPoint(Made);
    Value *Key = sideKey(B, T, Me1, Size);
    for (Value *Rec : Recs) B.CreateStore(Key, at(Rec, LDSAN_EMU_REC_W + LDSAN_EMU_SIDE_EPOCH));
    B.CreateBr(Done);
  }

  // No access of another work-item in side Side of record Rec in this
  // interval (its epoch and item: one load of the word they share).
  Value *ordered(Value *Rec, unsigned Side, Value **EpochOut) {
    static_assert(LDSAN_EMU_SIDE_ITEM == LDSAN_EMU_SIDE_EPOCH + 4, "epoch and item share a word");
    Value *Key = B.CreateLoad(I64, at(Rec, Side + LDSAN_EMU_SIDE_EPOCH));
    Value *E = B.CreateTrunc(Key, I32);
    Value *It = B.CreateTrunc(B.CreateLShr(Key, B.getInt64(32)), I16);
    if (EpochOut) *EpochOut = E;
    return B.CreateOr(B.CreateICmpNE(E, T.Epoch), B.CreateICmpEQ(It, Me1));
  }

  // check
  void emitCheck() {
    B.SetInsertPoint(Check);
    Value *Ok = B.getTrue();
    for (Value *Rec : Recs) {
      Value *Split = B.CreateLoad(I32, at(Rec, LDSAN_EMU_REC_SPLIT));
      Ok = B.CreateAnd(Ok, B.CreateICmpULT(Split, T.RunStart));
      if (Store && !Atomic)
        Ok = B.CreateAnd(Ok, B.CreateICmpNE(B.CreateLoad(I32, at(Rec, LDSAN_EMU_REC_ATOMIC_EPOCH)), T.Epoch));
      Value *WEpoch = nullptr;
      Ok = B.CreateAnd(Ok, ordered(Rec, LDSAN_EMU_REC_W, &WEpoch));
      if (Store) {
        Ok = B.CreateAnd(Ok, ordered(Rec, LDSAN_EMU_REC_R, nullptr));
        Ok = B.CreateAnd(Ok, ordered(Rec, LDSAN_EMU_REC_R2, nullptr));
      } else {
        Ok = B.CreateAnd(Ok, B.CreateICmpUGE(WEpoch, T.WrittenFloor));
        Value *REpoch = nullptr;
        Ok = B.CreateAnd(Ok, ordered(Rec, LDSAN_EMU_REC_R, &REpoch));
        ReadEpochs.push_back(REpoch);
      }
    }
    B.CreateCondBr(Ok, Update, Slow, Weights.createLikelyBranchWeights());
  }

  // update
  void emitUpdate() {
    B.SetInsertPoint(Update);
    Value *WaveEpoch = B.CreateLoad(I32, B.CreateGEP(I32, T.WaveEpochs, B.CreateLShr(Me, T.WaveShift)));
    // The side as three 8-byte words: pc; epoch, item, size; wave epoch, atomic.
    static_assert(LDSAN_EMU_SIDE_SIZE == LDSAN_EMU_SIDE_ITEM + 2 &&
                      LDSAN_EMU_SIDE_WAVE_EPOCH == LDSAN_EMU_SIDE_EPOCH + 8 &&
                      LDSAN_EMU_SIDE_ATOMIC == LDSAN_EMU_SIDE_WAVE_EPOCH + 4,
                  "the side's words");
    Value *Key = sideKey(B, T, Me1, Size);
    Value *Wave = B.CreateOr(B.CreateZExt(WaveEpoch, I64), B.getInt64((uint64_t)(Atomic ? 1 : 0) << 32));
    auto storeSide = [&](Value *Rec, unsigned Side) {
      B.CreateStore(Pc, at(Rec, Side + LDSAN_EMU_SIDE_PC));
      B.CreateStore(Key, at(Rec, Side + LDSAN_EMU_SIDE_EPOCH));
      B.CreateStore(Wave, at(Rec, Side + LDSAN_EMU_SIDE_WAVE_EPOCH));
    };
    for (unsigned K = 0; K < Recs.size(); K++) {
      if (Store) {
        storeSide(Recs[K], LDSAN_EMU_REC_W);
        continue;
      }
      // A read is kept as the interval's first reader unless it has one (then
      // this work-item, by the check), or as a newer read of it after a wave
      // barrier (core_lds_check.c, emu_step).
      BasicBlock *First = BasicBlock::Create(Ctx, "ldsan.track.first", F, Slow);
      BasicBlock *Next = BasicBlock::Create(Ctx, "ldsan.track.next", F, Slow);
      Value *RWave = B.CreateLoad(I32, at(Recs[K], LDSAN_EMU_REC_R + LDSAN_EMU_SIDE_WAVE_EPOCH));
      B.CreateCondBr(B.CreateOr(B.CreateICmpNE(ReadEpochs[K], T.Epoch), B.CreateICmpNE(RWave, WaveEpoch)), First, Next);
      B.SetInsertPoint(First);
      storeSide(Recs[K], LDSAN_EMU_REC_R);
      B.CreateBr(Next);
      B.SetInsertPoint(Next);
    }
    B.CreateBr(Done);
  }
};

// The inline path before Call (__ldsan_emu_lds_track(P, SizeKind) with a
// constant SizeKind), which becomes the slow path's call of
// __ldsan_emu_lds_track_at; Item is the work-item's ids pointer, ItemStore
// its TLS store (moved to the slow path).
void emitInline(CallInst *Call, Value *Item, StoreInst *ItemStore, const TrackContext &T) {
  Module &M = *Call->getModule();
  LLVMContext &Ctx = M.getContext();
  Value *P = Call->getArgOperand(0);
  uint32_t SizeKind = (uint32_t)cast<ConstantInt>(Call->getArgOperand(1))->getZExtValue();
  uint32_t Size = SizeKind & LDSAN_EMU_TRACK_SIZE_MASK;
  bool Store = (SizeKind & LDSAN_EMU_TRACK_STORE) != 0, Atomic = (SizeKind & LDSAN_EMU_TRACK_ATOMIC) != 0;
  DebugLoc Loc = Call->getDebugLoc();

  BasicBlock *Head = ItemStore->getParent();
  BasicBlock *Slow = SplitBlock(Head, ItemStore->getIterator(), (DominatorTree *)nullptr, nullptr, nullptr, "ldsan.track.slow");
  BasicBlock *Done = SplitBlock(Slow, Call->getNextNode()->getIterator(), (DominatorTree *)nullptr, nullptr, nullptr,
                                "ldsan.track.done");
  InlinePath Path(T, Ctx, Head->getParent(), P, Size, Store, Atomic, Head, Slow, Done);
  Head->getTerminator()->eraseFromParent();
  Path.emitHead();
  Path.emitLead(Loc);
  Path.emitOutside();
  Path.emitPick(Item);
  Path.emitCheck();
  Path.emitUpdate();

  // slow: the core, with the pc the record would get
  FunctionCallee TrackAt = M.getOrInsertFunction(LDSAN_EMU_LDS_TRACK_AT_FN, Type::getVoidTy(Ctx), P->getType(),
                                                 Type::getInt32Ty(Ctx), Path.I64);
  CallInst *At = CallInst::Create(TrackAt, {P, Call->getArgOperand(1), Path.Pc}, "", Call->getIterator());
  At->setDebugLoc(Loc);
  Call->eraseFromParent();
}

} // namespace

extern "C" unsigned rt_lds_track_inline(LLVMValueRef GroupRef, unsigned *Calls) {
  Function &G = *unwrap<Function>(GroupRef);
  Function *Track = G.getParent()->getFunction(LDSAN_EMU_LDS_TRACK_FN);
  // The loops' TLS block (they store the work-item pointer there before each call).
  GlobalVariable *Tls = G.getParent()->getNamedGlobal(LDSAN_EMU_TLS_SYMBOL);
  *Calls = 0;
  if (!Track || !Tls) return 0;
  SmallVector<std::tuple<CallInst *, Value *, StoreInst *>, 64> Sites;
  for (BasicBlock &BB : G)
    for (Instruction &I : BB) {
      auto *Call = dyn_cast<CallInst>(&I);
      if (!Call || Call->getCalledFunction() != Track) continue;
      ++*Calls;
      auto *SizeKind = dyn_cast<ConstantInt>(Call->getArgOperand(1));
      uint32_t V = SizeKind ? (uint32_t)SizeKind->getZExtValue() : 0, Size = V & LDSAN_EMU_TRACK_SIZE_MASK;
      if (Size == 0 || Size % 4 || Size > 16) continue;
      if ((V & LDSAN_EMU_TRACK_ATOMIC) && !(V & LDSAN_EMU_TRACK_STORE)) continue; // atomic reads: the core's table
      if (StoreInst *ItemStore = ldsan_rt::tlsItemStore(Call))
        Sites.push_back({Call, ItemStore->getValueOperand(), ItemStore});
    }
  if (Sites.empty()) return 0;
  TrackContext T = loadContext(G, Tls);
  for (auto [Call, Item, ItemStore] : Sites) emitInline(Call, Item, ItemStore, T);
  return (unsigned)Sites.size();
}
