// Fuzz target: the HSA test double's code-object reader (test/gpu/hsa_double/
// elf.cpp, hsad::elf_parse): ELF headers, PT_LOAD segments, .dynsym and its
// string table, dynamic relocations. The input is the code object's bytes.
// elf_parse promises malformed input gives HSA_STATUS_ERROR_INVALID_CODE_OBJECT,
// never a crash; on success the loader (load.cpp) copies every segment's file
// bytes into [lo, hi) without further checks, so this checks that each one
// lies inside the input and inside that span, and that symbol names are whole
// strings.
#include <cstdio>
#include <cstdlib>
#include <cstring>

#include "internal.h"

#define PROPERTY(cond, ...)                                                                 \
  do {                                                                                      \
    if (!(cond)) {                                                                          \
      std::fprintf(stderr, "%s:%d: property failed: %s\n    ", __FILE__, __LINE__, #cond);  \
      std::fprintf(stderr, __VA_ARGS__);                                                    \
      std::fputc('\n', stderr);                                                             \
      std::abort();                                                                         \
    }                                                                                       \
  } while (0)

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  // The reader's bytes live in their own allocation: ASan sees any read past them.
  uint8_t *copy = static_cast<uint8_t *>(std::malloc(size ? size : 1));
  if (size) std::memcpy(copy, data, size);
  hsad::ElfImage img;
  hsa_status_t st = hsad::elf_parse(copy, size, &img);
  PROPERTY(st == HSA_STATUS_SUCCESS || st == HSA_STATUS_ERROR_INVALID_CODE_OBJECT, "status 0x%x", st);
  if (st == HSA_STATUS_SUCCESS) {
    PROPERTY(!img.loads.empty() && img.lo <= img.hi && img.hi - img.lo <= (uint64_t(1) << 40),
             "%zu loads, span [0x%llx, 0x%llx)", img.loads.size(), (unsigned long long)img.lo,
             (unsigned long long)img.hi);
    for (const hsad::ElfLoad &l : img.loads) {
      PROPERTY(l.offset <= size && l.filesz <= size - l.offset, "segment file bytes [%llu, +%llu) past %zu",
               (unsigned long long)l.offset, (unsigned long long)l.filesz, size);
      PROPERTY(l.filesz <= l.memsz && l.vaddr >= img.lo && l.memsz <= img.hi - l.vaddr,
               "segment [0x%llx, +0x%llx) outside [0x%llx, 0x%llx)", (unsigned long long)l.vaddr,
               (unsigned long long)l.memsz, (unsigned long long)img.lo, (unsigned long long)img.hi);
    }
    for (const hsad::ElfSym &s : img.dynsyms)  // names come from a bounded, terminated string table
      PROPERTY(s.name.size() == std::strlen(s.name.c_str()), "symbol name with a NUL inside");
  }
  std::free(copy);
  return 0;
}
