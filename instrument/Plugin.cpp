//===- Plugin.cpp - ldsan pass plugin entry point -------------------------===//
//
// Three ways in, all running instrumentModule() (idempotent through the
// "ldsan.instrumented" module flag):
//  1. clang's device cc1 (-fpass-plugin): right after AddressSanitizerPass,
//     seen through the pass-instrumentation after-pass callback. Earlier
//     extension points run before ASan, when "nosanitize_address" is not set.
//  2. LLVM 22's PreCodeGenCallback, for sanitized IR handed straight to
//     codegen (clang -c on .ll/.bc, llc).
//  3. opt -load-pass-plugin=ldsan-instrument.so -passes=ldsan-instrument.
//
//===----------------------------------------------------------------------===//
#include "Instrument.h"

#include "llvm/IR/Module.h"
#include "llvm/Passes/PassBuilder.h"
#include "llvm/Plugins/PassPlugin.h"
#include "llvm/Target/TargetMachine.h"

using namespace llvm;

/// Set while the plugin itself runs passes, so nested callbacks stay quiet.
static thread_local bool Running = false;

static void runGuarded(Module &M, PassBuilder &PB) {
  if (Running || !ldsan::shouldInstrument(M))
    return;
  Running = true;
  ldsan::instrumentModule(M, PB);
  Running = false;
}

static void registerCallbacks(PassBuilder &PB) {
  PB.registerPipelineParsingCallback(
      [&PB](StringRef Name, ModulePassManager &MPM,
            ArrayRef<PassBuilder::PipelineElement>) {
        if (Name != "ldsan-instrument")
          return false;
        MPM.addPass(ldsan::LdsanInstrumentPass(PB));
        return true;
      });
  if (PassInstrumentationCallbacks *PIC = PB.getPassInstrumentationCallbacks())
    PIC->registerAfterPassCallback(
        [&PB](StringRef PassID, Any IR, const PreservedAnalyses &) {
          if (PassID != "AddressSanitizerPass")
            return;
          if (const auto *MP = llvm::any_cast<const Module *>(&IR))
            runGuarded(const_cast<Module &>(**MP), PB);
        });
}

/// Returns false: normal code generation follows.
static bool preCodeGen(Module &M, TargetMachine &TM, CodeGenFileType,
                       raw_pwrite_stream &) {
  if (!ldsan::shouldInstrument(M))
    return false;
  PassBuilder PB(&TM);
  runGuarded(M, PB);
  return false;
}

extern "C" LLVM_ATTRIBUTE_WEAK PassPluginLibraryInfo llvmGetPassPluginInfo() {
  return {LLVM_PLUGIN_API_VERSION, "ldsan-instrument", "1", registerCallbacks,
          preCodeGen};
}
