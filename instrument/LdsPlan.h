//===- LdsPlan.h - which LDS variables each kernel gets, in which order ---===//
//
// Before the upstream amdgpu-sw-lower-lds pass deletes the LDS globals, record
// every variable it will lower (names, sizes, debug info) and predict, per
// kernel, the order of the items of @llvm.amdgcn.sw.lds.<kernel>.md:
//
//   item 0: the 8-byte block pointer slot
//   then    static direct, static indirect, dynamic direct, dynamic indirect,
//           each group sorted by IR name; a variable reached both directly and
//           through calls appears once, in its direct group.
//
// "Direct" means used by an instruction of the kernel itself, "indirect" means
// reachable through the call graph (the same rules as upstream's
// getTransitiveUsesOfLDS, including calls to unknown functions reaching every
// address-taken function's variables). The plan holds names, not pointers, so
// it applies to a clone of the module as well as to the module itself.
//
//===----------------------------------------------------------------------===//
#ifndef LDSAN_INSTRUMENT_LDSPLAN_H
#define LDSAN_INSTRUMENT_LDSPLAN_H

#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/IR/Module.h"

#include <cstdint>
#include <string>
#include <vector>

namespace ldsan {

/// One LDS variable the upstream pass lowers.
struct LdsVar {
  std::string Name;       ///< IR name (mangled for function-static vars)
  uint64_t Size = 0;      ///< alloc size in bytes, 0 for dynamic
  uint32_t Align = 1;     ///< alignment the upstream pass uses
  bool Dynamic = false;   ///< extern __shared__ (zero-size)
  std::string SourceName; ///< debug-info name, or empty
  std::string File;       ///< debug-info declaring file, or empty
  unsigned Line = 0;      ///< debug-info declaring line, or 0
};

/// One md item after the slot.
struct LdsItem {
  unsigned Var;      ///< index into LdsPlan::Vars
  bool Indirect;     ///< reached through a non-kernel function
};

/// What one kernel gets.
struct KernelPlan {
  std::string Name;
  llvm::SmallVector<LdsItem, 8> Items; ///< md items 1..N in md order
  uint32_t MaxAlign = 1;               ///< largest alignment of its variables
  unsigned NumDynamic = 0;
  bool AnyIndirect = false;
};

struct LdsPlan {
  std::vector<LdsVar> Vars;
  std::vector<KernelPlan> Kernels; ///< only kernels that get lowered
  /// A module the upstream pass would refuse or crash on: why, else empty.
  std::string Problem;
  std::string ProblemKernel;
};

/// True for kernels in the sense of the upstream LDS lowering.
bool isLdsKernel(const llvm::Function &F);

/// True if the upstream pass lowers GV (addrspace(3), dynamic or undef-init,
/// not constant, not already placed at an absolute address).
bool isLdsVariableToLower(const llvm::GlobalVariable &GV);

/// Records the module's LDS variables and predicts each kernel's md layout.
LdsPlan planLdsLowering(llvm::Module &M);

} // namespace ldsan

#endif
