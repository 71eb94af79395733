//===- WaveFences.h - fences that order a wave's LDS accesses ---*- C++ -*-===//
//
// A fence in the program's own code that is not one side of a workgroup
// barrier (__threadfence_block(), __threadfence(), and ROCm 5.2's
// cooperative-groups tile.sync(), which is a fence alone) orders the LDS
// accesses of its wave before and after it: a wave issues them in order, and
// no compiler moves one across the fence. ldsan's race checks learn such an
// ordering from wave barriers, so markWaveOrderingFences puts an
// llvm.amdgcn.wave.barrier after each such fence (no instruction on the GPU;
// on the CPU emulator the wave's lanes meet there, as at any wave barrier).
//
//===----------------------------------------------------------------------===//
#ifndef LDSAN_INSTRUMENT_WAVEFENCES_H
#define LDSAN_INSTRUMENT_WAVEFENCES_H

#include "llvm/IR/Module.h"

namespace ldsan {

/// Puts a wave barrier after every fence of M's own code (not the device
/// libraries') that is not beside an s_barrier; returns how many.
unsigned markWaveOrderingFences(llvm::Module &M);

} // namespace ldsan

#endif
