// hsa_double/load.cpp — hsa_executable_load_agent_code_object: checks the
// code object's target against the agent, maps its PT_LOAD span into the
// agent's VRAM, copies the segments in through the VRAM view (.bss stays
// zero), defines its symbols and applies its dynamic relocations.
//
// Compatibility is ROCr's rule: same processor (EF_AMDGPU_MACH), and each of
// xnack/sramecc either "any" in the code object or equal to the agent's
// setting; otherwise HSA_STATUS_ERROR_INCOMPATIBLE_ARGUMENTS ("code object's
// ISA is not supported by the agent"). An unknown processor is
// HSA_STATUS_ERROR_INVALID_ISA_NAME; a malformed ELF INVALID_CODE_OBJECT.
//
// Symbols, from .dynsym as ROCr defines them for code object v3+: a non-local
// STT_OBJECT named "<name>.kd" is a KERNEL whose kernel descriptor (64 bytes,
// LLVM AMDGPUUsage "Kernel Descriptor") gives the segment sizes; any other
// non-local STT_OBJECT is a VARIABLE; functions and local symbols are not
// symbols of the executable (so a kernel is found only as "<name>.kd").
// Linkage is PROGRAM for global binding, MODULE otherwise (ROCr's rule).
// Defining a name twice for one agent is HSA_STATUS_ERROR_VARIABLE_ALREADY_DEFINED.
// A failed load leaves the executable as it was (ROCr leaves partial state).
#include <elf.h>

#include <cstddef>
#include <cstring>

#include "impl.h"

namespace hsad {
namespace {

// The kernel descriptor (llvm/Support/AMDHSAKernelDescriptor.h).
struct KernelDescriptor {
  uint32_t group_segment_fixed_size;
  uint32_t private_segment_fixed_size;
  uint32_t kernarg_size;
  uint8_t reserved0[4];
  int64_t kernel_code_entry_byte_offset;
  uint8_t reserved1[20];
  uint32_t compute_pgm_rsrc3, compute_pgm_rsrc1, compute_pgm_rsrc2;
  uint16_t kernel_code_properties;
  uint16_t kernarg_preload;
  uint8_t reserved3[4];
};
static_assert(sizeof(KernelDescriptor) == 64, "kernel descriptor is 64 bytes");
static_assert(offsetof(KernelDescriptor, kernel_code_properties) == 56, "kernel descriptor layout");
constexpr uint16_t kWavefrontSize32 = 1u << 10, kUsesDynamicStack = 1u << 11;  // KERNEL_CODE_PROPERTY_*

// R_AMDGPU_* relocation types as LLVM defines them (ROCm 5.2's amd_hsa_elf.h
// still names 1..5 after the code object v1 static relocations).
enum : uint32_t { kRelNone = 0, kAbs32Lo = 1, kAbs32Hi = 2, kAbs64 = 3, kAbs32 = 6, kRelative64 = 13 };

bool compatible(Feature code, Feature agent) { return code == Feature::Any || code == agent; }

bool ends_with_kd(const std::string &s) { return s.size() > 3 && s.compare(s.size() - 3, 3, ".kd") == 0; }

struct Load {
  Executable *exec;
  Agent *agent;
  const ElfImage &img;
  uint64_t base;  // device address of img.lo
  uint8_t *view;  // host view of base
  std::vector<std::unique_ptr<Symbol>> symbols;
  int64_t delta() const { return int64_t(base - img.lo); }
};

const Symbol *find_defined(const Load &ld, const std::string &name) {
  for (auto &s : ld.exec->symbols)
    if (s->agent == ld.agent && s->name == name) return s.get();
  for (auto &s : ld.symbols)
    if (s->name == name) return s.get();
  return nullptr;
}

hsa_status_t define_symbols(Load &ld) {
  for (const ElfSym &es : ld.img.dynsyms) {
    if (es.shndx == SHN_UNDEF || es.bind == STB_LOCAL || es.type != STT_OBJECT) continue;
    if (find_defined(ld, es.name)) return HSA_STATUS_ERROR_VARIABLE_ALREADY_DEFINED;
    auto s = std::make_unique<Symbol>();
    s->exec = ld.exec;
    s->agent = ld.agent;
    s->name = es.name;
    s->linkage = es.bind == STB_GLOBAL ? HSA_SYMBOL_LINKAGE_PROGRAM : HSA_SYMBOL_LINKAGE_MODULE;
    s->address = es.value + uint64_t(ld.delta());
    s->size = es.size;
    s->align = uint32_t(es.align);
    s->is_const = !es.writable;
    if (ends_with_kd(es.name)) {
      uint64_t span = ld.img.hi - ld.img.lo;
      if (es.value < ld.img.lo || span < sizeof(KernelDescriptor) || es.value - ld.img.lo > span - sizeof(KernelDescriptor))
        return HSA_STATUS_ERROR_INVALID_CODE_OBJECT;
      KernelDescriptor kd;
      memcpy(&kd, ld.view + (es.value - ld.img.lo), sizeof kd);
      s->kind = HSA_SYMBOL_KIND_KERNEL;
      s->kernarg_size = kd.kernarg_size;
      s->group_size = kd.group_segment_fixed_size;
      s->private_size = kd.private_segment_fixed_size;
      s->dynamic_stack = kd.kernel_code_properties & kUsesDynamicStack;
      s->wavefront_size = (kd.kernel_code_properties & kWavefrontSize32) ? 32 : 64;
    }
    ld.symbols.push_back(std::move(s));
  }
  return HSA_STATUS_SUCCESS;
}

hsa_status_t relocate(const Load &ld) {
  for (const ElfRel &r : ld.img.relocs) {
    if (r.type == kRelNone) continue;
    uint64_t width = (r.type == kAbs64 || r.type == kRelative64) ? 8 : 4;
    uint64_t span = ld.img.hi - ld.img.lo;
    if (r.offset < ld.img.lo || span < width || r.offset - ld.img.lo > span - width) return HSA_STATUS_ERROR_INVALID_CODE_OBJECT;
    uint64_t value;
    if (r.type == kRelative64) {
      value = uint64_t(ld.delta()) + uint64_t(r.addend);  // B + A
    } else {
      if (r.sym == 0 || r.sym >= ld.img.dynsyms.size()) return HSA_STATUS_ERROR_INVALID_CODE_OBJECT;
      const ElfSym &es = ld.img.dynsyms[r.sym];
      uint64_t s = 0;
      if (es.shndx != SHN_UNDEF) s = es.value + uint64_t(ld.delta());
      else if (const Symbol *def = find_defined(ld, es.name)) s = def->address;  // defined by an earlier load
      else return HSA_STATUS_ERROR_VARIABLE_UNDEFINED;
      value = s + uint64_t(r.addend);  // S + A
      if (r.type == kAbs32Lo) value &= 0xffffffffu;
      else if (r.type == kAbs32Hi) value >>= 32;
      else if (r.type == kAbs32) value = uint32_t(value);
      else if (r.type != kAbs64) return HSA_STATUS_ERROR_INVALID_CODE_OBJECT;
    }
    memcpy(ld.view + (r.offset - ld.img.lo), &value, width);  // little endian: the low bytes for 32-bit
  }
  return HSA_STATUS_SUCCESS;
}

}  // namespace

hsa_status_t executable_load_agent_code_object(hsa_executable_t executable, hsa_agent_t agent,
                                               hsa_code_object_reader_t reader, const char *options,
                                               hsa_loaded_code_object_t *loaded_code_object) {
  HSAD_CHECK_OPEN();
  (void)options;
  std::lock_guard<std::recursive_mutex> lock(loader_lock());
  Executable *e = exec_from(executable);
  if (!e) return HSA_STATUS_ERROR_INVALID_EXECUTABLE;
  Agent *a = agent_from(agent);
  if (!a || a->type != HSA_DEVICE_TYPE_GPU) return HSA_STATUS_ERROR_INVALID_AGENT;
  const Reader *r = reader_from(reader);
  if (!r) return HSA_STATUS_ERROR_INVALID_CODE_OBJECT_READER;
  if (e->state == HSA_EXECUTABLE_STATE_FROZEN) return HSA_STATUS_ERROR_FROZEN_EXECUTABLE;

  ElfImage img;
  hsa_status_t s = elf_parse(r->data, r->size, &img);
  if (s != HSA_STATUS_SUCCESS) return s;
  if (!target_by_mach(img.mach)) return HSA_STATUS_ERROR_INVALID_ISA_NAME;
  if (target_by_mach(img.mach) != a->isa.target || !compatible(img.xnack, a->isa.xnack) ||
      !compatible(img.sramecc, a->isa.sramecc))
    return HSA_STATUS_ERROR_INCOMPATIBLE_ARGUMENTS;

  uint64_t base;
  s = mem_alloc(a->pools[0].get(), img.hi - img.lo, true, &base);  // pools[0]: the agent's VRAM
  if (s != HSA_STATUS_SUCCESS) return s == HSA_STATUS_ERROR_INVALID_ALLOCATION ? HSA_STATUS_ERROR_OUT_OF_RESOURCES : s;
  Load ld{e, a, img, base, static_cast<uint8_t *>(mem_view(base, img.hi - img.lo)), {}};
  for (const ElfLoad &l : img.loads) memcpy(ld.view + (l.vaddr - img.lo), r->data + l.offset, l.filesz);
  s = relocate(ld);
  if (s == HSA_STATUS_SUCCESS) s = define_symbols(ld);
  if (s != HSA_STATUS_SUCCESS) {
    mem_free(base, true);
    return s;
  }

  auto lco = std::make_unique<LoadedCodeObject>();
  lco->exec = e;
  lco->agent = a;
  lco->load_base = base;
  lco->load_size = img.hi - img.lo;
  lco->delta = ld.delta();
  if (r->is_file) lco->elf_copy = r->bytes;
  lco->elf_base = reinterpret_cast<uint64_t>(r->is_file ? lco->elf_copy.data() : r->data);
  lco->elf_size = r->size;
  lco->uri = r->uri;
  if (loaded_code_object) loaded_code_object->handle = reinterpret_cast<uint64_t>(lco.get());
  e->objects.push_back(std::move(lco));
  for (auto &sym : ld.symbols) e->symbols.push_back(std::move(sym));
  symbols_register(e);
  return HSA_STATUS_SUCCESS;
}

}  // namespace hsad
