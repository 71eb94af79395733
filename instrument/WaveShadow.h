//===- WaveShadow.h - the wave of work-item 0 writes the block's shadow -*- C++ -*-===//
//
// The lowered prologue gets the workgroup's LDS block on work-item 0 alone,
// and the rest of the workgroup waits at the barrier after it. Writing the
// block's shadow (an eighth of its size, poisoned again at exit) on that one
// lane is most of a large block's cost. shareBlockShadow lets the whole wave
// of work-item 0 do it: work-item 0 still takes the block
// (__ldsan_kernel_enter, one lane: the allocator's scalar code), every lane
// of its wave then calls __ldsan_kernel_enter_wave, and at the end
// __ldsan_kernel_exit_wave (instead of __ldsan_kernel_exit on work-item 0),
// which share the shadow stores out among them (device/shadow.c); the lowest
// lane gives the block back. The other waves still wait at the barriers. Where the
// kernel's descriptor carries the shadow image of its static LDS (abi.h),
// enter_wave copies it into place, and the LDS pass's calls that poison each
// redzone (__asan_poison_region) go: they would write the same bytes again.
//
//===----------------------------------------------------------------------===//
#ifndef LDSAN_INSTRUMENT_WAVESHADOW_H
#define LDSAN_INSTRUMENT_WAVESHADOW_H

#include "llvm/IR/Function.h"

#include <string>

namespace ldsan {

/// Restructures kernel K (already guarded, BlockGuard.h) as WaveShadow.cpp
/// draws; with HasShadowImage, drops its __asan_poison_region calls. Returns
/// false, with what was not as expected in Why, if K's prologue or epilogue
/// has another shape.
bool shareBlockShadow(llvm::Function &K, bool HasShadowImage, std::string &Why);

} // namespace ldsan

#endif
