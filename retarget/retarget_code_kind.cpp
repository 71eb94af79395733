// ldsan-emu-retarget: what kind of code an instruction is, asked by the wave
// passes (retarget_wave.cpp) and the wave LDS-order check
// (retarget_wave_lds.cpp): ldsan's own runtime code, or a workgroup barrier.
// Below both, so that neither reaches into the other for it.
#include "llvm/IR/InstrTypes.h"
#include "llvm/IR/IntrinsicsAMDGPU.h"

extern "C" {
#include "ldsan/entry_points.def"
}
#include "retarget_wave_lds.h"

using namespace llvm;

bool ldsan_rt::isRuntimeCode(const Instruction &I) { return I.getMetadata(LDSAN_RUNTIME_MD) != nullptr; }

bool ldsan_rt::isBarrierCall(const Instruction &I, const SmallPtrSet<const Function *, 8> &Barriers) {
  auto *CB = dyn_cast<CallBase>(&I);
  const Function *Callee = CB ? CB->getCalledFunction() : nullptr;
  return Callee && (Callee->getIntrinsicID() == Intrinsic::amdgcn_s_barrier || Barriers.contains(Callee));
}
