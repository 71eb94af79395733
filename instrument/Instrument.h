//===- Instrument.h - the ldsan module transformation -----------*- C++ -*-===//
//
// instrumentModule() is what every hook of the plugin runs (after
// AddressSanitizerPass, before codegen, at the start of an -fgpu-rdc device
// link's LTO pipeline, and as opt's -passes=ldsan-instrument):
// on a sanitized amdgcn module not yet instrumented, lower LDS with the
// upstream pass, emit one descriptor per lowered kernel, route the kernels'
// prologue/epilogue to the ldsan entry points, link the device runtime and
// strip the amdgpu-no-* attributes the runtime's inputs need. Everything is
// first tried on a clone; if anything is not as expected, one diagnostic
// says so and the module is left unchanged.
//
//===----------------------------------------------------------------------===//
#ifndef LDSAN_INSTRUMENT_INSTRUMENT_H
#define LDSAN_INSTRUMENT_INSTRUMENT_H

#include "llvm/IR/Module.h"
#include "llvm/Passes/PassBuilder.h"

namespace ldsan {

/// Module flag marking a module ldsan already instrumented.
inline constexpr const char *InstrumentedFlag = "ldsan.instrumented";

/// True if M is amdgcn, not InstrumentedFlag, and carries "nosanitize_address"
/// or the LDS-only mode is asked for (LdsOnly.h).
bool shouldInstrument(const llvm::Module &M);

/// Instruments M; PB must be able to parse "amdgpu-sw-lower-lds" (built with
/// an AMDGPU TargetMachine). Returns true if M changed.
bool instrumentModule(llvm::Module &M, llvm::PassBuilder &PB);

/// opt -passes=ldsan-instrument.
class LdsanInstrumentPass : public llvm::PassInfoMixin<LdsanInstrumentPass> {
  llvm::PassBuilder &PB;

public:
  explicit LdsanInstrumentPass(llvm::PassBuilder &PB) : PB(PB) {}
  llvm::PreservedAnalyses run(llvm::Module &M, llvm::ModuleAnalysisManager &);
  static bool isRequired() { return true; }
};

/// The LDS-only mode's entry in clang's pipeline: instrumentModule on a
/// module that AddressSanitizerPass will not see (no sanitize_address function).
class LdsOnlyEntryPass : public llvm::PassInfoMixin<LdsOnlyEntryPass> {
  llvm::PassBuilder &PB;

public:
  explicit LdsOnlyEntryPass(llvm::PassBuilder &PB) : PB(PB) {}
  llvm::PreservedAnalyses run(llvm::Module &M, llvm::ModuleAnalysisManager &);
  static bool isRequired() { return true; }
};

} // namespace ldsan

#endif
