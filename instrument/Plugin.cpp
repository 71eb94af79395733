//===- Plugin.cpp - ldsan pass plugin entry point -------------------------===//
//
// The ways in: 1-4 and 6 run instrumentModule() (idempotent through the
// "ldsan.instrumented" module flag):
//  1. clang's device cc1 (-fpass-plugin): right after AddressSanitizerPass,
//     seen through the pass-instrumentation after-pass callback. Earlier
//     extension points run before ASan, when "nosanitize_address" is not set.
//  2. LLVM 22's PreCodeGenCallback, for sanitized IR handed straight to
//     codegen (clang -c on .ll/.bc, llc).
//  3. opt -load-pass-plugin=ldsan-instrument.so -passes=ldsan-instrument.
//  4. -fgpu-rdc: the device link (lld's LTO, --load-pass-plugin), at the
//     start of the full-LTO pipeline (or 2, where the link's codegen calls it).
//     ldsan-cc sets LDSAN_GPU_RDC=1 for an -fgpu-rdc command, and 1 then
//     leaves the module alone: a kernel of one translation unit may reach the
//     LDS of another's __device__ function, so only the linked module shows
//     each kernel's whole LDS. (An -fgpu-rdc compile emits bitcode: no
//     codegen, so 2 does not run there.)
//  5. An --emulate device compile ($LDSAN_EMULATE): at the pipeline's start,
//     device assert() calls the emulator (EmulatorCalls.h).
//  6. The LDS-only mode (ldsan-cc -fsanitize=lds sets LDSAN_LDS_ONLY): no
//     AddressSanitizerPass runs, so 1 becomes the optimizer's last extension
//     point, for modules with no sanitize_address function (with one, ASan
//     runs after it and 1 applies). 2, 3 and 4 work as they are.
//
//===----------------------------------------------------------------------===//
#include "EmulatorCalls.h"
#include "Instrument.h"
#include "LdsOnly.h"

#include "llvm/IR/Module.h"
#include "llvm/Passes/PassBuilder.h"
#include "llvm/Plugins/PassPlugin.h"
#include "llvm/Target/TargetMachine.h"

#include <cstdlib>
#include <cstring>

using namespace llvm;

/// Set while the plugin itself runs passes, so nested callbacks stay quiet.
static thread_local bool Running = false;

/// An -fgpu-rdc compile (LDSAN_GPU_RDC set, not "0"): the device link instruments.
static bool deferredToDeviceLink() {
  const char *Rdc = std::getenv("LDSAN_GPU_RDC");
  return Rdc && *Rdc && std::strcmp(Rdc, "0") != 0;
}

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
          if (deferredToDeviceLink())
            return;
          if (const auto *MP = llvm::any_cast<const Module *>(&IR))
            runGuarded(const_cast<Module &>(**MP), PB);
        });
  PB.registerPipelineStartEPCallback(
      [](ModulePassManager &MPM, OptimizationLevel) {
        if (ldsan::emulatorCompile())
          MPM.addPass(ldsan::EmulatorCallsPass());
      });
  PB.registerOptimizerLastEPCallback(
      [&PB](ModulePassManager &MPM, OptimizationLevel, ThinOrFullLTOPhase) {
        if (ldsan::ldsOnlyRequested() && !deferredToDeviceLink())
          MPM.addPass(ldsan::LdsOnlyEntryPass(PB));
      });
  PB.registerFullLinkTimeOptimizationEarlyEPCallback(
      [&PB](ModulePassManager &MPM, OptimizationLevel) {
        MPM.addPass(ldsan::LdsanInstrumentPass(PB));
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
