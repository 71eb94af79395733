//===- DynamicLdsSize.h - the dynamic LDS size from the dispatch -*- C++ -*-===//
//
// The lowered prologue of a kernel with dynamic LDS sizes its block with the
// implicit argument hidden_dynamic_lds_size (amdgpu-sw-lower-lds reads slot
// 15 of the implicit arguments, byte 120), and the pass's
// @llvm.amdgcn.<kernel>.dynlds marker makes the AMDGPU backend name that
// argument in the kernel's metadata. The HIP runtime writes the argument only
// from ROCm 6.1 (CLR f554a075c); before, a kind it does not know becomes a
// visible kernel argument, one past the launch's own, which CLR reads past
// the caller's argument array at every launch (CLR Kernel::InitParameters,
// ihipModuleLaunchKernel; /work/notes in the commit that added this).
// useDispatchDynamicLdsSize reads the size from the dispatch instead
// (__ldsan_dynamic_lds_size: the packet's group_segment_size minus the kernel
// descriptor's group_segment_fixed_size, which every runtime sets) and
// removes the marker, so no runtime is asked for the argument.
//
//===----------------------------------------------------------------------===//
#ifndef LDSAN_INSTRUMENT_DYNAMICLDSSIZE_H
#define LDSAN_INSTRUMENT_DYNAMICLDSSIZE_H

#include "llvm/IR/Function.h"

namespace ldsan {

/// In kernel K (lowered by amdgpu-sw-lower-lds): every load of
/// hidden_dynamic_lds_size becomes a call of __ldsan_dynamic_lds_size, and
/// K's @llvm.amdgcn.<K>.dynlds marker (and the variable, once unused) goes.
/// Returns how many loads it replaced.
unsigned useDispatchDynamicLdsSize(llvm::Function &K);

} // namespace ldsan

#endif
