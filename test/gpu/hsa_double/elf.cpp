// hsa_double/elf.cpp — reads an AMDGPU HSA code object (ELF64, EM_AMDGPU,
// ET_DYN, ELFOSABI_AMDGPU_HSA, code object v3..v6): target from e_flags,
// PT_LOAD segments, .dynsym and the dynamic relocations (SHT_RELA sections
// that target no section, i.e. .rela.dyn, as ROCr's loader reads them; static
// relocation sections left by --emit-relocs are skipped, as ROCr does for v2+).
// Every offset and size is bounds-checked: malformed input gives
// HSA_STATUS_ERROR_INVALID_CODE_OBJECT, never a crash.
#include <elf.h>

#include <cstring>

#include "internal.h"

namespace hsad {
namespace {

constexpr uint16_t kEmAmdgpu = 224;
constexpr uint8_t kOsAbiAmdgpuHsa = 64;
constexpr uint8_t kAbiV3 = 1, kAbiV6 = 4;  // ELFABIVERSION_AMDGPU_HSA_V3 .. _V6
constexpr uint32_t kMachMask = 0x0ff;
constexpr uint32_t kXnackV3 = 0x100, kSrameccV3 = 0x200;  // v3: single "enabled" bits
constexpr uint32_t kXnackV4 = 0x300, kSrameccV4 = 0xc00;  // v4+: unsupported/any/off/on

bool in_file(uint64_t offset, uint64_t length, uint64_t size) { return offset <= size && length <= size - offset; }

// v4+ two-bit feature field (shift: 8 for xnack, 10 for sramecc).
Feature feature_v4(uint32_t flags, uint32_t mask, int shift) {
  switch ((flags & mask) >> shift) {
    case 2: return Feature::Off;
    case 3: return Feature::On;
    default: return Feature::Any;  // unsupported (0) or any (1)
  }
}

template <class T>
bool read_table(const uint8_t *data, uint64_t size, uint64_t offset, uint64_t count, uint64_t entsize,
                std::vector<T> *out) {
  if (count && entsize != sizeof(T)) return false;
  if (count > size / sizeof(T) || !in_file(offset, count * sizeof(T), size)) return false;
  out->resize(count);
  if (count) memcpy(out->data(), data + offset, count * sizeof(T));
  return true;
}

bool read_string(const uint8_t *data, uint64_t size, const Elf64_Shdr &strtab, uint64_t index, std::string *out) {
  if (!in_file(strtab.sh_offset, strtab.sh_size, size) || index >= strtab.sh_size) return false;
  const char *s = reinterpret_cast<const char *>(data + strtab.sh_offset + index);
  size_t n = strnlen(s, strtab.sh_size - index);
  if (n == strtab.sh_size - index) return false;  // not terminated inside the table
  out->assign(s, n);
  return true;
}

bool parse_loads(const uint8_t *data, uint64_t size, const Elf64_Ehdr &eh, ElfImage *img) {
  std::vector<Elf64_Phdr> ph;
  if (!read_table(data, size, eh.e_phoff, eh.e_phnum, eh.e_phentsize, &ph)) return false;
  bool first = true;
  for (const Elf64_Phdr &p : ph) {
    if (p.p_type != PT_LOAD || p.p_memsz == 0) continue;
    if (p.p_filesz > p.p_memsz || !in_file(p.p_offset, p.p_filesz, size)) return false;
    if (p.p_vaddr > UINT64_MAX - p.p_memsz) return false;
    img->loads.push_back({p.p_vaddr, p.p_memsz, p.p_offset, p.p_filesz, p.p_flags});
    uint64_t lo = p.p_vaddr & ~uint64_t(4095), hi = p.p_vaddr + p.p_memsz;
    img->lo = (first || lo < img->lo) ? lo : img->lo;
    img->hi = (first || hi > img->hi) ? hi : img->hi;
    first = false;
  }
  return !first && img->hi - img->lo <= (uint64_t(1) << 40);
}

bool parse_sections(const uint8_t *data, uint64_t size, const Elf64_Ehdr &eh, ElfImage *img) {
  std::vector<Elf64_Shdr> sh;
  if (!read_table(data, size, eh.e_shoff, eh.e_shnum, eh.e_shentsize, &sh)) return false;
  size_t dynsym = 0;
  for (size_t i = 0; i < sh.size(); i++)
    if (sh[i].sh_type == SHT_DYNSYM) dynsym = i;
  if (!dynsym || sh[dynsym].sh_link >= sh.size()) return false;
  std::vector<Elf64_Sym> syms;
  const Elf64_Shdr &ds = sh[dynsym];
  if (!read_table(data, size, ds.sh_offset, ds.sh_entsize ? ds.sh_size / ds.sh_entsize : 0, ds.sh_entsize, &syms))
    return false;
  for (const Elf64_Sym &s : syms) {
    ElfSym e;
    if (!read_string(data, size, sh[ds.sh_link], s.st_name, &e.name)) return false;
    e.type = ELF64_ST_TYPE(s.st_info);
    e.bind = ELF64_ST_BIND(s.st_info);
    e.shndx = s.st_shndx;
    e.value = s.st_value;
    e.size = s.st_size;
    bool in_section = s.st_shndx != SHN_UNDEF && s.st_shndx < sh.size();
    e.align = in_section && sh[s.st_shndx].sh_addralign ? sh[s.st_shndx].sh_addralign : 1;
    e.writable = in_section && (sh[s.st_shndx].sh_flags & SHF_WRITE);
    img->dynsyms.push_back(std::move(e));
  }
  for (const Elf64_Shdr &s : sh) {
    if (s.sh_type != SHT_RELA || s.sh_info != 0) continue;  // dynamic relocations only
    if (s.sh_link != dynsym) return false;
    std::vector<Elf64_Rela> rel;
    if (!read_table(data, size, s.sh_offset, s.sh_entsize ? s.sh_size / s.sh_entsize : 0, s.sh_entsize, &rel))
      return false;
    for (const Elf64_Rela &r : rel)
      img->relocs.push_back({r.r_offset, uint32_t(ELF64_R_TYPE(r.r_info)), uint32_t(ELF64_R_SYM(r.r_info)), r.r_addend});
  }
  return true;
}

}  // namespace

hsa_status_t elf_parse(const uint8_t *data, uint64_t size, ElfImage *img) {
  Elf64_Ehdr eh;
  if (!data || size < sizeof eh) return HSA_STATUS_ERROR_INVALID_CODE_OBJECT;
  memcpy(&eh, data, sizeof eh);
  if (memcmp(eh.e_ident, ELFMAG, SELFMAG) != 0 || eh.e_ident[EI_CLASS] != ELFCLASS64 ||
      eh.e_ident[EI_DATA] != ELFDATA2LSB || eh.e_ident[EI_OSABI] != kOsAbiAmdgpuHsa || eh.e_type != ET_DYN ||
      eh.e_machine != kEmAmdgpu)
    return HSA_STATUS_ERROR_INVALID_CODE_OBJECT;
  img->abi_version = eh.e_ident[EI_ABIVERSION];
  if (img->abi_version < kAbiV3 || img->abi_version > kAbiV6)  // v2 (HSAIL-era notes) is not supported
    return HSA_STATUS_ERROR_INVALID_CODE_OBJECT;
  img->mach = eh.e_flags & kMachMask;
  if (img->abi_version == kAbiV3) {
    img->xnack = (eh.e_flags & kXnackV3) ? Feature::On : Feature::Any;
    img->sramecc = (eh.e_flags & kSrameccV3) ? Feature::On : Feature::Any;
  } else {
    img->xnack = feature_v4(eh.e_flags, kXnackV4, 8);
    img->sramecc = feature_v4(eh.e_flags, kSrameccV4, 10);
  }
  if (!parse_loads(data, size, eh, img) || !parse_sections(data, size, eh, img))
    return HSA_STATUS_ERROR_INVALID_CODE_OBJECT;
  return HSA_STATUS_SUCCESS;
}

}  // namespace hsad
