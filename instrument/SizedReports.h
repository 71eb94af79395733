//===- SizedReports.h - real sizes for byte-checked LDS accesses -*- C++ -*-===//
//
// amdgpu-sw-lower-lds checks an LDS access whose size or alignment is unusual
// (every atomic, unaligned and odd-sized accesses) as two 1-byte checks, of its
// first and its last byte, each reporting through __asan_report_{load,store}1:
// the report says "size 1" for a 4-byte atomicAdd. sizeByteReports() finds the
// access each such report guards and calls ldsan's sized report with the
// access's start and real size instead.
//
//===----------------------------------------------------------------------===//
#ifndef LDSAN_INSTRUMENT_SIZEDREPORTS_H
#define LDSAN_INSTRUMENT_SIZEDREPORTS_H

#include "llvm/IR/Module.h"

namespace ldsan {

/// Rewrites every 1-byte report of M that guards a wider access; returns how
/// many. Reports whose access cannot be identified are left as they are.
unsigned sizeByteReports(llvm::Module &M);

} // namespace ldsan

#endif
