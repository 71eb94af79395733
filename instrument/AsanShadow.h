//===- AsanShadow.h - ASan's shadow-byte loads ------------------*- C++ -*-===//
//
// Header-only: the plugin (WaveFences.cpp) and the CPU emulator's retarget
// tool (retarget/retarget_wave.cpp) both tell ASan's own shadow
// loads from the program's memory accesses by their address.
//
//===----------------------------------------------------------------------===//
#ifndef LDSAN_INSTRUMENT_ASANSHADOW_H
#define LDSAN_INSTRUMENT_ASANSHADOW_H

#include "llvm/IR/Instructions.h"

namespace ldsan {

/// ASan's shadow byte of an address: inttoptr((addr >> 3) + offset).
inline bool isShadowPointer(const llvm::Value *P) {
  auto *I2P = llvm::dyn_cast<llvm::IntToPtrInst>(P);
  if (!I2P)
    return false;
  auto *Add = llvm::dyn_cast<llvm::BinaryOperator>(I2P->getOperand(0));
  if (!Add || (Add->getOpcode() != llvm::Instruction::Add && Add->getOpcode() != llvm::Instruction::Or))
    return false;
  auto *Shr = llvm::dyn_cast<llvm::BinaryOperator>(Add->getOperand(0));
  return Shr && Shr->getOpcode() == llvm::Instruction::LShr;
}

} // namespace ldsan

#endif
