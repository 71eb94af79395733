//===- Descriptor.cpp - the per-kernel ldsan_kernel_desc blob -------------===//
#include "Descriptor.h"

#include "ldsan/abi.h"

#include "llvm/ADT/StringMap.h"
#include "llvm/IR/Constants.h"
#include "llvm/Support/Endian.h"
#include "llvm/Support/MathExtras.h"
#include "llvm/Transforms/Utils/ModuleUtils.h"

#include <cstring>

using namespace llvm;
using namespace ldsan;

static constexpr unsigned GlobalAddressSpace = 1;
static constexpr const char *SlotName = "<compiler LDS slot>";

namespace {

/// Appends NUL-terminated strings after the records, each stored once.
class StringArea {
  std::vector<uint8_t> Bytes;
  StringMap<uint32_t> Offsets;
  uint32_t Base;

public:
  explicit StringArea(uint32_t Base) : Base(Base) {}

  /// Returns the blob offset of S, 0 for an empty string.
  uint32_t add(StringRef S) {
    if (S.empty())
      return 0;
    auto [It, Inserted] = Offsets.try_emplace(S, 0);
    if (Inserted) {
      It->second = Base + Bytes.size();
      Bytes.insert(Bytes.end(), S.begin(), S.end());
      Bytes.push_back(0);
    }
    return It->second;
  }

  ArrayRef<uint8_t> bytes() const { return Bytes; }
};

template <typename T> void appendRecord(std::vector<uint8_t> &Out, const T &R) {
  // The blob is read on little-endian amdgcn and x86-64 hosts only.
  static_assert(llvm::endianness::native == llvm::endianness::little,
                "descriptor blobs are built on a little-endian host");
  const auto *P = reinterpret_cast<const uint8_t *>(&R);
  Out.insert(Out.end(), P, P + sizeof(T));
}

} // namespace

/// The shadow image of the block's static part [0, StaticSize) (abi.h): what
/// unpoisoning it and then poisoning the slot and each redzone as ASan does
/// leaves, one byte per 8-byte granule. Empty if StaticSize is not a whole
/// number of granules or a record lies outside it.
static std::vector<uint8_t> shadowImage(ArrayRef<ldsan_var_desc> Records, uint32_t StaticSize) {
  const uint32_t G = LDSAN_SHADOW_GRANULE;
  if (StaticSize % G)
    return {};
  std::vector<uint8_t> Shadow(StaticSize / G, LDSAN_SHADOW_LDS_REDZONE);
  for (const ldsan_var_desc &R : Records) {
    if (R.flags & LDSAN_VAR_DYNAMIC)
      continue;
    uint64_t End = uint64_t(R.offset) + R.size;
    if (R.offset % G || End + R.redzone > StaticSize)
      return {};
    uint8_t Whole = (R.flags & LDSAN_VAR_COMPILER_SLOT) ? uint8_t(LDSAN_SHADOW_LDS_COMPILER_SLOT) : 0;
    for (uint64_t A = R.offset; A + G <= End; A += G)
      Shadow[A / G] = Whole;
    if (End % G) // the compiler slot is 8 bytes: only a variable ends inside a granule
      Shadow[End / G] = Whole ? Whole : uint8_t(End % G);
  }
  return Shadow;
}

std::vector<uint8_t> ldsan::buildDescriptor(const LdsPlan &Plan,
                                            const KernelPlan &KP,
                                            ArrayRef<MdItem> Items,
                                            uint32_t KernelFlags) {
  assert(Items.size() == KP.Items.size() + 1 && "md and plan disagree");
  const uint32_t NumRecords = Items.size();
  StringArea Strings(sizeof(ldsan_kernel_desc) +
                     NumRecords * sizeof(ldsan_var_desc));

  // Dynamic LDS starts where the statics end: at the first dynamic item, or
  // after the last static one.
  uint32_t StaticSize = Items.back().Offset + Items.back().AlignedSize;
  for (unsigned I = 0; I < KP.Items.size(); ++I)
    if (Plan.Vars[KP.Items[I].Var].Dynamic) {
      StaticSize = Items[I + 1].Offset;
      break;
    }

  ldsan_kernel_desc H = {};
  H.magic = LDSAN_DESC_MAGIC;
  H.abi_version = LDSAN_ABI_VERSION;
  H.var_count = NumRecords;
  H.name = Strings.add(KP.Name);
  H.static_size = StaticSize;
  H.max_align = KP.MaxAlign;
  H.flags = KernelFlags;

  std::vector<ldsan_var_desc> Records(NumRecords);
  ldsan_var_desc &Slot = Records[0];
  Slot.offset = Items[0].Offset;
  Slot.size = Items[0].Size;
  Slot.redzone = Items[0].AlignedSize - Items[0].Size;
  Slot.align = 8;
  Slot.flags = LDSAN_VAR_COMPILER_SLOT;
  Slot.name = Strings.add(SlotName);

  for (unsigned I = 0; I < KP.Items.size(); ++I) {
    const LdsVar &V = Plan.Vars[KP.Items[I].Var];
    const MdItem &Md = Items[I + 1];
    ldsan_var_desc &R = Records[I + 1];
    R.align = V.Align;
    R.flags = (V.Dynamic ? LDSAN_VAR_DYNAMIC : 0) |
              (KP.Items[I].Indirect ? LDSAN_VAR_INDIRECT : 0);
    if (V.Dynamic) {
      // Sized at launch. The plugin merged every dynamic variable into one
      // before lowering (Instrument.cpp, mergeDynamicLds), so all of them
      // start at static_size, aliased as on hardware: one record each.
      R.offset = StaticSize;
      R.size = 0;
      R.redzone = 0;
    } else {
      R.offset = Md.Offset;
      R.size = Md.Size;
      R.redzone = Md.AlignedSize - Md.Size;
    }
    R.name = Strings.add(V.Name);
    R.source_name = Strings.add(V.SourceName);
    R.file = Strings.add(V.File);
    R.line = V.Line;
  }

  std::vector<uint8_t> Shadow = shadowImage(Records, StaticSize);
  std::vector<uint8_t> Blob;
  appendRecord(Blob, H);
  for (const ldsan_var_desc &R : Records)
    appendRecord(Blob, R);
  append_range(Blob, Strings.bytes());
  Blob.resize(alignTo(Blob.size(), 8), 0);
  if (!Shadow.empty()) {
    uint32_t At = Blob.size();
    std::memcpy(Blob.data() + offsetof(ldsan_kernel_desc, shadow), &At, sizeof(At));
    append_range(Blob, Shadow);
    // Padded to whole words with the tail's value: the device copies words.
    Blob.resize(alignTo(Blob.size(), 8), uint8_t(LDSAN_SHADOW_LDS_DYNAMIC_TAIL));
  }
  uint32_t Total = Blob.size();
  std::memcpy(Blob.data() + offsetof(ldsan_kernel_desc, total_size), &Total,
              sizeof(Total));
  return Blob;
}

bool ldsan::hasShadowImage(ArrayRef<uint8_t> Blob) {
  uint32_t At = 0;
  if (Blob.size() >= sizeof(ldsan_kernel_desc))
    std::memcpy(&At, Blob.data() + offsetof(ldsan_kernel_desc, shadow), sizeof(At));
  return At != 0;
}

GlobalVariable *ldsan::emitDescriptor(Module &M, StringRef Kernel,
                                      ArrayRef<uint8_t> Blob) {
  Constant *Init = ConstantDataArray::get(M.getContext(), Blob);
  auto *GV = new GlobalVariable(
      M, Init->getType(), /*isConstant=*/true, GlobalValue::InternalLinkage,
      Init, "__ldsan_kdesc." + Kernel, /*InsertBefore=*/nullptr,
      GlobalValue::NotThreadLocal, GlobalAddressSpace);
  GV->setAlignment(Align(8));
  GV->setSection(LDSAN_DESC_SECTION);
  GlobalValue::SanitizerMetadata MD;
  MD.NoAddress = true;
  GV->setSanitizerMetadata(MD);
  appendToCompilerUsed(M, {GV});
  return GV;
}
