// ldsan-emu-retarget: a group function that goes on to the next region
// itself. The core calls a group function once per region and pass
// (core_sched.c, emu_run_group_loops); a kernel whose work-items all meet at
// each barrier made one call per barrier per workgroup, and the core's
// bookkeeping between two calls cost about a quarter of `make bench`'s
// reduction. When the core allows it (LDSAN_EMU_GROUP_CHAIN with
// LDSAN_EMU_GROUP_ALL_WAITING) and all work-items stopped at one barrier j of a later region
// the kernel allows (rt_chainable_regions), the function now runs region j
// at once, all waiting, with the other parity: what the core's next call
// would have done (emu.h), and adds 1 to the TLS field `chained`, from
// which the core learns how often the parity flipped without it.
//
// Done after the last optimization, on the finished function: every return
// goes through a block that either returns or calls the function itself
// again with the next region and parity, a `musttail` call, which the code
// generator makes a jump to the function's start. So the whole entry runs
// again for the next region, as the core's call would run it (values the
// optimizer put there may read memory the last region wrote), no
// optimization sees the work-item loops inside another loop (the shadow
// checks' versioning takes only outermost loops,
// retarget_shadow_ranges.cpp), and the code generator sees no loop around the
// function's body (making the body a loop, with phis for region and parity,
// cost a Needleman-Wunsch build 40% more code generation time). Forward only:
// a loop over barriers still returns to the core once per iteration, so one
// call runs each region at most once and the stall detector still sees
// progress per call.
#include "llvm/IR/Constants.h"
#include "llvm/IR/DebugInfoMetadata.h"
#include "llvm/IR/Function.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/Intrinsics.h"
#include "llvm/IR/Module.h"

extern "C" {
#include "ldsan/emu/emu.h"
#include "ldsan/emu/emu_tls.h"
#include "retarget.h"
}

using namespace llvm;

namespace {

constexpr unsigned kRegionArg = 5, kParityArg = 6;

} // namespace

extern "C" uint64_t rt_chainable_regions(const rt_wiloop *w) {
  uint64_t out = 0;
  for (uint32_t j = 1; j < w->regions && j < LDSAN_EMU_GROUP_LOW_REGIONS; j++) out |= ldsan_emu_region_bit(j);
  return out & ~w->exit_regions & ~w->wave_regions;
}

extern "C" void rt_chain_regions(LLVMValueRef GroupRef, uint64_t Regions, int Checked) {
  auto &G = *cast<Function>(unwrap(GroupRef));
  GlobalVariable *Tls = G.getParent()->getNamedGlobal(LDSAN_EMU_TLS_SYMBOL);
  if (!Regions || G.arg_size() != 7 || !Tls) return;
  LLVMContext &Ctx = G.getContext();
  Type *I32 = Type::getInt32Ty(Ctx), *I64 = Type::getInt64Ty(Ctx);
  SmallVector<ReturnInst *, 8> Rets;
  for (BasicBlock &BB : G)
    if (auto *R = dyn_cast<ReturnInst>(BB.getTerminator())) Rets.push_back(R);
  if (Rets.empty()) return;

  Argument *Region = G.getArg(kRegionArg), *Parity = G.getArg(kParityArg);
  BasicBlock *Finish = BasicBlock::Create(Ctx, "finish", &G);
  BasicBlock *Chain = BasicBlock::Create(Ctx, "chain", &G);
  BasicBlock *Leave = BasicBlock::Create(Ctx, "leave", &G);
  IRBuilder<> FB(Finish);
  PHINode *Stopped = FB.CreatePHI(I64, (unsigned)Rets.size(), "stopped");
  for (ReturnInst *R : Rets) {
    Stopped->addIncoming(R->getReturnValue(), R->getParent());
    BranchInst::Create(Finish, R->getIterator());
    R->eraseFromParent();
  }
  uint32_t Flags = LDSAN_EMU_GROUP_ALL_WAITING | LDSAN_EMU_GROUP_CHAIN;
  Value *Allowed = FB.CreateICmpEQ(FB.CreateAnd(Parity, Flags), ConstantInt::get(I32, Flags));
  Value *One = FB.CreateICmpEQ(FB.CreateAnd(Stopped, FB.CreateSub(Stopped, ConstantInt::get(I64, 1))),
                               ConstantInt::get(I64, 0));
  Value *InSet = FB.CreateICmpNE(FB.CreateAnd(Stopped, ConstantInt::get(I64, Regions)), ConstantInt::get(I64, 0));
  // cttz of a value with a bit of Regions: never 0 there.
  Value *Next = FB.CreateTrunc(FB.CreateIntrinsic(Intrinsic::cttz, {I64}, {Stopped, FB.getFalse()}), I32,
                               "chain.region");
  Value *Later = FB.CreateICmpUGT(Next, Region);
  FB.CreateCondBr(FB.CreateAnd(FB.CreateAnd(Allowed, One), FB.CreateAnd(InSet, Later)), Chain, Leave);
  IRBuilder<>(Leave).CreateRet(Stopped);
  IRBuilder<> CB(Chain);
  // The core counts the parity's extra flips (emu_tls.h, chained); for the
  // LDS checks' copy it also counts the barrier and refreshes the TLS fields
  // of their inline path, which the call reads again.
  if (Checked) {
    CB.CreateCall(G.getParent()->getOrInsertFunction("__ldsan_emu_lds_chained", Type::getVoidTy(Ctx)));
  } else {
    Constant *Chained = ConstantExpr::getInBoundsGetElementPtr(Type::getInt8Ty(Ctx), Tls,
                                                               ConstantInt::get(I64, LDSAN_EMU_TLS_CHAINED));
    CB.CreateStore(CB.CreateAdd(CB.CreateLoad(I32, Chained), ConstantInt::get(I32, 1)), Chained);
  }
  // The other parity, the same flags.
  Value *NextParity = CB.CreateXor(Parity, ConstantInt::get(I32, 1), "chain.parity");
  SmallVector<Value *, 7> Args;
  for (Argument &A : G.args()) Args.push_back(&A);
  Args[kRegionArg] = Next;
  Args[kParityArg] = NextParity;
  CallInst *Again = CB.CreateCall(&G, Args);
  if (DISubprogram *SP = G.getSubprogram()) // a call of a function with debug info needs a location
    Again->setDebugLoc(DILocation::get(Ctx, 0, 0, SP));
  Again->setTailCallKind(CallInst::TCK_MustTail);
  Again->setCallingConv(G.getCallingConv());
  CB.CreateRet(Again);
}
