//===- FreshAnalyses.h - analysis managers for passes the plugin runs -*- C++ -*-===//
//
// The plugin runs passes of its own inside another pass manager's run (the
// upstream LDS lowering, the simplification of the inlined block calls): each
// such run gets fresh analysis managers, registered and cross-wired by PB.
//
//===----------------------------------------------------------------------===//
#ifndef LDSAN_INSTRUMENT_FRESHANALYSES_H
#define LDSAN_INSTRUMENT_FRESHANALYSES_H

#include "llvm/Passes/PassBuilder.h"

namespace ldsan {

struct FreshAnalyses {
  llvm::LoopAnalysisManager LAM;
  llvm::FunctionAnalysisManager FAM;
  llvm::CGSCCAnalysisManager CGAM;
  llvm::ModuleAnalysisManager MAM;

  explicit FreshAnalyses(llvm::PassBuilder &PB) {
    PB.registerModuleAnalyses(MAM);
    PB.registerCGSCCAnalyses(CGAM);
    PB.registerFunctionAnalyses(FAM);
    PB.registerLoopAnalyses(LAM);
    PB.crossRegisterProxies(LAM, FAM, CGAM, MAM);
  }
};

} // namespace ldsan

#endif
