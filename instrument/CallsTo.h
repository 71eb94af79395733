//===- CallsTo.h - the direct calls of one function in another --*- C++ -*-===//
#ifndef LDSAN_INSTRUMENT_CALLSTO_H
#define LDSAN_INSTRUMENT_CALLSTO_H

#include "llvm/ADT/SmallVector.h"
#include "llvm/IR/Function.h"
#include "llvm/IR/Instructions.h"

namespace ldsan {

/// The direct calls of the function named Callee in F, in program order.
llvm::SmallVector<llvm::CallInst *, 4> callsTo(llvm::Function &F, llvm::StringRef Callee);

} // namespace ldsan

#endif
