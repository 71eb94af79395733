//===- InlineBlockCalls.h - the runtime's block calls become kernel code -*- C++ -*-===//
//
// A call from a kernel costs the kernel what the callee needs: the backend
// gives a kernel the most registers any function it calls uses, and every
// callee that keeps values across a call of its own, or needs more scalar
// registers than the calling convention lets it clobber, saves registers to
// scratch. The lowered kernel's calls of __ldsan_kernel_enter and
// __ldsan_kernel_exit (and of their _wave halves) are therefore inlined into the kernel once the runtime
// is linked: a kernel has no callee-saved registers to preserve, so the
// allocator's scalar code adds no scratch and no VGPRs beyond what it uses
// itself (issue #10; the reference kernels' resources are pinned by
// test/bench/check_static_cost.sh).
//
// Each call is inlined from a copy of the runtime function made for it, with
// the kernel's constant arguments put in: its descriptor (a constant global,
// never at address 0) and, in a kernel without dynamic LDS, its block size
// (the LDS pass's layout table, which nothing writes there). The copy is
// simplified before it is inlined (SROA, EarlyCSE, InstCombine,
// SimplifyCFG), so the descriptor's fields, the size class, the shadow
// image's length and the branches on them fold away, and the kernel's own
// code is left as its optimizer made it. The traced fast path of
// test/bench/traced_cost.py is what remains.
//
//===----------------------------------------------------------------------===//
#ifndef LDSAN_INSTRUMENT_INLINEBLOCKCALLS_H
#define LDSAN_INSTRUMENT_INLINEBLOCKCALLS_H

#include "llvm/IR/Module.h"
#include "llvm/Passes/PassBuilder.h"

#include <string>

namespace ldsan {

/// Inlines every call of the kernel enter/exit functions in a kernel of M,
/// each from a copy specialised for its constant arguments (PB builds the
/// passes that simplify it), and drops the functions if nothing else calls
/// them. Returns false, with the reason in Why, if a call cannot be inlined.
bool inlineBlockCalls(llvm::Module &M, llvm::PassBuilder &PB, std::string &Why);

} // namespace ldsan

#endif
