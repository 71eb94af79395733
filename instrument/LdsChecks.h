//===- LdsChecks.h - LDS race and uninitialized-read checks -----*- C++ -*-===//
//
// ldsan-cc -fsanitize-lds=races,uninit (the environment variable
// LDSAN_LDS_CHECKS, or opt's -ldsan-lds-checks=): before the LDS lowering,
// every load, store and atomic of LDS in the module calls __ldsan_lds_check
// (its LDS offset, size and kind) and every s_barrier is followed by
// __ldsan_lds_check_barrier (with the barrier's pc), with races every wave
// barrier by __ldsan_lds_check_wave_barrier; after it, each kernel's
// prologue takes the checked enter (a chunk with room for the hazard shadow)
// and sets the shadow up on the wave of work-item 0, and its exit barrier is
// followed by __ldsan_lds_check_exit (device/lds_checks.c).
//
//===----------------------------------------------------------------------===//
#ifndef LDSAN_INSTRUMENT_LDSCHECKS_H
#define LDSAN_INSTRUMENT_LDSCHECKS_H

#include "llvm/IR/Module.h"

#include <string>

namespace ldsan {

/// The checks the build asks for: LDSAN_LDS_CHECK_RACES | LDSAN_LDS_CHECK_UNINIT,
/// 0 for none. A value that is not a comma-separated list of "races",
/// "uninit" (or "none") returns false and says why.
bool ldsChecksRequested(unsigned &Mask, std::string &Why);

/// Before lowering: the calls of every LDS access and barrier of M.
void addLdsAccessChecks(llvm::Module &M, unsigned Mask);

/// After the prologue is in place (WaveShadow): K's enter becomes the checked
/// enter, the wave of work-item 0 sets the shadow up after enter_wave, and
/// every work-item checks for barrier divergence after the exit barrier
/// (Mask: the checks asked for).
bool addLdsChecksPrologue(llvm::Function &K, unsigned Mask, std::string &Why);

} // namespace ldsan

#endif
