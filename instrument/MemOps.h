//===- MemOps.h - memcpy, memmove and memset calls --------------*- C++ -*-===//
//
// Header-only: the plugin's LDS checks (LdsChecks.cpp) and the CPU emulator's
// retarget tool (retarget/retarget_wave.cpp) both see an LDS copy
// or fill as one of these.
//
//===----------------------------------------------------------------------===//
#ifndef LDSAN_INSTRUMENT_MEMOPS_H
#define LDSAN_INSTRUMENT_MEMOPS_H

#include "llvm/IR/IntrinsicInst.h"

namespace ldsan {

/// memcpy, memmove, memset: the intrinsics, or the ASan runtime calls the
/// ASan pass turned them into. Operands: destination, source (a pointer) or
/// value, length.
inline bool isMemOp(const llvm::Instruction &I) {
  if (llvm::isa<llvm::MemIntrinsic>(I))
    return true;
  const auto *CI = llvm::dyn_cast<llvm::CallBase>(&I);
  const llvm::Function *F = CI ? CI->getCalledFunction() : nullptr;
  if (!F || CI->arg_size() != 3)
    return false;
  llvm::StringRef N = F->getName();
  return N == "__asan_memcpy" || N == "__asan_memmove" || N == "__asan_memset";
}

} // namespace ldsan

#endif
