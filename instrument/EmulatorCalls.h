//===- EmulatorCalls.h - device calls the CPU emulator answers --*- C++ -*-===//
//
// An `ldsan-cc --emulate` device compile ($LDSAN_EMULATE, which the driver
// sets for that compile only) hands device `assert()` to the emulator: the
// HIP header's __assert_fail formats its message through the hostcall
// printf of the device library (llvm.amdgcn.s.sendmsg, which a CPU cannot
// run) and traps. Before the optimizer specializes it (its arguments become
// constants of its one caller), its body becomes one call of
// __ldsan_emu_assert_fail(assertion, file, line, function), which the
// emulator core prints as the GPU does and then traps. (Device printf needs
// nothing here: the driver compiles with -fno-builtin-printf, so it stays a
// call of printf, which the retarget tool hands to the emulator core.)
//
//===----------------------------------------------------------------------===//
#ifndef LDSAN_INSTRUMENT_EMULATORCALLS_H
#define LDSAN_INSTRUMENT_EMULATORCALLS_H

#include "llvm/IR/PassManager.h"

namespace ldsan {

/// The device compile of an --emulate build ($LDSAN_EMULATE set, not "0").
bool emulatorCompile();

/// Gives __assert_fail and __assertfail the emulator's body (see above).
struct EmulatorCallsPass : llvm::PassInfoMixin<EmulatorCallsPass> {
  llvm::PreservedAnalyses run(llvm::Module &M, llvm::ModuleAnalysisManager &);
};

} // namespace ldsan

#endif
