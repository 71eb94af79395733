//===- Diag.h - ldsan plugin diagnostics ------------------------*- C++ -*-===//
//
// One diagnostic kind for everything the plugin reports. Messages are complete
// sentences with the fixed prefix "ldsan: error: " / "ldsan: warning: "; they
// go through LLVMContext::diagnose so clang reports them (and fails on errors)
// and opt prints them.
//
//===----------------------------------------------------------------------===//
#ifndef LDSAN_INSTRUMENT_DIAG_H
#define LDSAN_INSTRUMENT_DIAG_H

#include "llvm/ADT/Twine.h"
#include "llvm/IR/Module.h"

namespace ldsan {

/// Reports "ldsan: error: <Msg>" as an error diagnostic on M's context.
void reportError(llvm::Module &M, const llvm::Twine &Msg);

/// Reports "ldsan: warning: <Msg>" as a warning diagnostic on M's context.
void reportWarning(llvm::Module &M, const llvm::Twine &Msg);

} // namespace ldsan

#endif
