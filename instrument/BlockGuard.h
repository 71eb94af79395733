//===- BlockGuard.h - a workgroup without its LDS block stops ---*- C++ -*-===//
//
// After the LDS lowering, work-item 0 of each workgroup gets the block from
// __ldsan_kernel_enter, stores it in the LDS slot and the workgroup meets at a
// barrier. When no block can be had (store full, block too large, corrupt
// dynamic size) enter reports it and returns 0; unguarded, the prologue would
// then poison shadow near address 0 and the kernel body run on address 0.
// guardKernelBlock makes such a workgroup skip the prologue's poisoning (the
// slot gets null) and leave the kernel right after the barrier, every
// work-item alike (the slot is read after the barrier, so the branch is
// uniform across the workgroup).
//
//===----------------------------------------------------------------------===//
#ifndef LDSAN_INSTRUMENT_BLOCKGUARD_H
#define LDSAN_INSTRUMENT_BLOCKGUARD_H

#include "llvm/IR/Function.h"

#include <string>

namespace ldsan {

/// Guards kernel K (already routed to __ldsan_kernel_enter). Returns false,
/// with what was not as expected in Why, if K's prologue has another shape.
bool guardKernelBlock(llvm::Function &K, std::string &Why);

} // namespace ldsan

#endif
