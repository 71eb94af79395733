// ldsan-emu-retarget: an inline range test before each flat-access check of
// an LDS-only image.
//
// In the LDS-only mode (ldsan-cc -fsanitize=lds) the plugin calls
// __ldsan_flat_lds_access(addr, size_kind) before every flat access that may
// reach LDS (instrument/LdsOnly.cpp); the entry point stays out of line (its
// return address is the report's pc) and checks the access only when addr is
// in the LDS store or its guards (device/own_shadow.c). On the emulator
// nearly every such access is global memory, so each was a call that loaded
// the store's bounds and returned. Here each call gets, in front of it, the
// same range test inline, widened to the guards whatever the pool (the call
// itself still tells the built-in pool, which has none, apart):
//
//   if (addr - (pool_base - GUARD) < pool_size + 2 * GUARD)  // unsigned
//     __ldsan_flat_lds_access(addr, size_kind);
//
// The bounds are loads of the device state (__ldsan_device_state), which the
// work-item loops hoist out of their loops (retarget_wiloop.cpp: the host
// writes the state between dispatches only), so an access that is not LDS
// costs a subtraction and a compare. Every access the call would check still
// reaches it: the test admits a superset of the call's own. Runs before the
// work-item loops are formed, on the kernels and their LDS checks' copies.
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/MDBuilder.h"
#include "llvm/IR/Module.h"
#include "llvm/Transforms/Utils/BasicBlockUtils.h"

#include <cstddef>

extern "C" {
#include "ldsan/abi.h"
#include "ldsan/entry_points.def"
#include "retarget.h"
}

using namespace llvm;

extern "C" unsigned rt_flat_lds_filter(LLVMModuleRef MRef) {
  Module &M = *unwrap(MRef);
  Function *Check = M.getFunction(LDSAN_FLAT_LDS_ACCESS_NAME);
  GlobalVariable *State = M.getNamedGlobal(LDSAN_DEVICE_STATE_SYMBOL);
  if (!Check || !State) return 0;
  SmallVector<CallInst *, 32> Calls;
  for (User *U : Check->users())
    if (auto *CI = dyn_cast<CallInst>(U); CI && CI->getCalledFunction() == Check && CI->arg_size() == 2 &&
                                          CI->getArgOperand(0)->getType()->isIntegerTy(64))
      Calls.push_back(CI);
  LLVMContext &Ctx = M.getContext();
  MDNode *Unlikely = MDBuilder(Ctx).createUnlikelyBranchWeights();
  const uint64_t Guard = LDSAN_OWN_SHADOW_GUARD;
  for (CallInst *CI : Calls) {
    IRBuilder<> B(CI);
    Type *I64 = B.getInt64Ty();
    auto field = [&](size_t Offset, const char *Name) {
      Value *P = B.CreateConstInBoundsGEP1_64(B.getInt8Ty(), State, Offset);
      return B.CreateAlignedLoad(I64, P, Align(8), Name);
    };
    Value *Base = field(offsetof(ldsan_device_state, pool_base), "ldsan.pool.base");
    Value *Size = field(offsetof(ldsan_device_state, pool_size), "ldsan.pool.size");
    Value *Lo = B.CreateSub(Base, B.getInt64(Guard));
    Value *Span = B.CreateAdd(Size, B.getInt64(2 * Guard));
    Value *In = B.CreateICmpULT(B.CreateSub(CI->getArgOperand(0), Lo), Span, "ldsan.flat.maybe_lds");
    Instruction *Then = SplitBlockAndInsertIfThen(In, CI->getIterator(), false, Unlikely);
    CI->moveBefore(Then->getIterator());
  }
  return (unsigned)Calls.size();
}
