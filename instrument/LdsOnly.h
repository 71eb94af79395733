//===- LdsOnly.h - the LDS-only mode (ldsan-cc -fsanitize=lds) --*- C++ -*-===//
//
// A module built without AddressSanitizer (any AMD target, xnack or not) gets
// ldsan's LDS lowering and checks all the same: the plugin marks it as the
// upstream pass expects a sanitized module to be, lowers it like any other,
// and points the lowered accesses' inline checks at the shadow ldsan keeps
// for its own LDS pool (device/own_shadow.c) instead of ASan's shadow, which
// such a program does not have. The LDS-only device runtime
// (ldsan-rt-lds.bc) maps its shadow the same way.
//
//===----------------------------------------------------------------------===//
#ifndef LDSAN_INSTRUMENT_LDSONLY_H
#define LDSAN_INSTRUMENT_LDSONLY_H

#include "llvm/ADT/SmallVector.h"
#include "llvm/IR/Module.h"

#include <string>

namespace ldsan {

/// The build asks for the LDS-only mode: $LDSAN_LDS_ONLY (ldsan-cc
/// -fsanitize=lds sets it) or opt's -ldsan-lds-only.
bool ldsOnlyRequested();

/// What prepareLdsOnly changed, so that undoLdsOnly can take it back.
struct LdsOnlyMarks {
  llvm::SmallVector<llvm::Function *, 16> Marked;
};

/// Makes M (amdgcn, not sanitized) what amdgpu-sw-lower-lds lowers: the
/// module flag "nosanitize_address" and sanitize_address on every defined
/// function (the pass lowers the LDS of kernels that carry it).
void prepareLdsOnly(llvm::Module &M, LdsOnlyMarks &Marks);

/// Takes prepareLdsOnly's changes back (M could not be instrumented).
void undoLdsOnly(llvm::Module &M, const LdsOnlyMarks &Marks);

/// Before the upstream lowering: every flat access that may reach LDS (and
/// every memcpy/memmove/memset through such a pointer) calls
/// __ldsan_flat_lds_access(address, size_kind) first; the lowering then turns
/// an LDS address into its block's, which the runtime checks in its shadow.
/// Direct LDS accesses get the upstream pass's inline checks instead.
void addFlatLdsBoundsChecks(llvm::Module &M);

/// After the upstream lowering: every inline shadow address the pass built,
/// (addr >> 3) + ASan's offset, takes the offset the LDS-only runtime's
/// __ldsan_own_shadow_offset() returns, called once at the entry of each
/// function that checks; sanitize_address comes off every function again.
/// Fails (Why) if the pass reports bad accesses but built no such address.
bool useOwnShadow(llvm::Module &M, std::string &Why);

/// After the runtime is linked: inlines those calls (one scalar load and a
/// select each).
bool inlineOwnShadowOffset(llvm::Module &M, std::string &Why);

} // namespace ldsan

#endif
