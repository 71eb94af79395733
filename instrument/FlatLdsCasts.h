//===- FlatLdsCasts.h - LDS accesses through a cast flat pointer -*- C++ -*-===//
//
// The AMDGPU attributor (AAAddressSpace, at -O1 and up, before ASan) turns a
// flat load or store into an LDS one when it proves the pointer always points
// into LDS, also in a helper that only gets LDS pointers from its callers:
//   %p3 = addrspacecast ptr %slot to ptr addrspace(3)
//   %v = load double, ptr addrspace(3) %p3
// ASan then skips the access (it does not check LDS), and amdgpu-sw-lower-lds
// moves every LDS variable into the block in global memory and rewrites only
// accesses it can trace to one, so after it %slot holds a block address and
// the cast keeps its low 32 bits as an LDS offset: the helper reads or writes
// the wrong memory (real LDS on the GPU, a wild address on the CPU emulator).
// Upstream: llvm/llvm-project#204006 (closed), #209842 (open).
//
//===----------------------------------------------------------------------===//
#ifndef LDSAN_INSTRUMENT_FLATLDSCASTS_H
#define LDSAN_INSTRUMENT_FLATLDSCASTS_H

#include "llvm/IR/Module.h"

namespace ldsan {

/// Before the LDS lowering: every load, store and atomic whose pointer is
/// (a GEP of) an addrspacecast from flat to LDS goes through the flat pointer
/// again, as the program wrote it, without the !noalias.addrspace the
/// attributor put on it. With Asan (a sanitized module), each also calls the
/// runtime's __asan_{load,store}{N} first, the check ASan would have added;
/// in the LDS-only mode the flat-access checks that follow cover it. Returns
/// how many accesses it changed.
unsigned undoFlatToLdsCasts(llvm::Module &M, bool Asan);

} // namespace ldsan

#endif
