//===- Descriptor.h - the per-kernel ldsan_kernel_desc blob -----*- C++ -*-===//
//
// Builds __ldsan_kdesc.<kernel>: one self-contained byte blob laid out exactly
// as include/ldsan/abi.h says (header, var records, NUL-terminated strings
// addressed by byte offset from the blob start; offset 0 means "none"; then
// the shadow image of the block's static part, which the device copies into
// place where the LDS pass would poison each redzone).
//
//===----------------------------------------------------------------------===//
#ifndef LDSAN_INSTRUMENT_DESCRIPTOR_H
#define LDSAN_INSTRUMENT_DESCRIPTOR_H

#include "LdsPlan.h"

#include "llvm/IR/GlobalVariable.h"

namespace ldsan {

/// One md item as the upstream pass initialized it.
struct MdItem {
  uint32_t Offset = 0;
  uint32_t Size = 0;
  uint32_t AlignedSize = 0;
};

/// The blob bytes for kernel KP, whose md initializer is Items (slot first,
/// one more than KP.Items). KernelFlags is a set of ldsan_kernel_flags.
std::vector<uint8_t> buildDescriptor(const LdsPlan &Plan, const KernelPlan &KP,
                                     llvm::ArrayRef<MdItem> Items,
                                     uint32_t KernelFlags);

/// Whether Blob carries the shadow image of its kernel's static LDS.
bool hasShadowImage(llvm::ArrayRef<uint8_t> Blob);

/// Adds the constant addrspace(1) global __ldsan_kdesc.<kernel> holding Blob
/// (align 8, section LDSAN_DESC_SECTION, in llvm.compiler.used).
llvm::GlobalVariable *emitDescriptor(llvm::Module &M, llvm::StringRef Kernel,
                                     llvm::ArrayRef<uint8_t> Blob);

} // namespace ldsan

#endif
