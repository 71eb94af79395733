//===- Runtime.h - find, load and link the ldsan device runtime -*- C++ -*-===//
#ifndef LDSAN_INSTRUMENT_RUNTIME_H
#define LDSAN_INSTRUMENT_RUNTIME_H

#include "llvm/IR/Module.h"

#include <memory>
#include <string>

namespace ldsan {

/// $LDSAN_RUNTIME if set, else ldsan-rt.bc in the directory of this plugin;
/// for the LDS-only mode $LDSAN_RUNTIME_LDS, else ldsan-rt-lds.bc there.
std::string runtimePath(bool LdsOnly);

/// Parses the runtime bitcode (or IR) at Path into Ctx. On failure returns
/// null and sets Reason.
std::unique_ptr<llvm::Module> loadRuntime(llvm::StringRef Path,
                                          llvm::LLVMContext &Ctx,
                                          std::string &Reason);

/// Links into M what M needs from RT (consumed), plus the device-state
/// globals; gives the linked functions M's target-cpu/target-features and
/// internal linkage. On failure returns false and sets Reason.
bool linkRuntime(llvm::Module &M, std::unique_ptr<llvm::Module> RT,
                 std::string &Reason);

/// Marks I as ldsan's own code (LDSAN_RUNTIME_MD) if it is a memory access,
/// a fence or an intrinsic call: the CPU emulator does not count such code
/// as the kernel's own cross-lane communication.
void markRuntimeCode(llvm::Instruction &I);

} // namespace ldsan

#endif
