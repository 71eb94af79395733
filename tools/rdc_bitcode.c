/* Extracts the device bitcode `ldsan-cc --emulate -fgpu-rdc -c` stored in an
 * object (rdc_bitcode.h), from ELF objects and from the members of ar
 * archives (GNU/SysV format, as ar and llvm-ar write them). Reads each file
 * once; bounds-checks every offset, so a truncated or foreign file is skipped
 * or reported, never read past. */
#include "rdc_bitcode.h"

#include <elf.h>
#include <errno.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct rdc_out {
  const char *prefix;
  int *counter;
  ldsan_emu_rdc_found found;
  void *ctx;
  char *err;
  unsigned errlen;
} rdc_out;

__attribute__((format(printf, 2, 3))) static int rdc_fail(rdc_out *o, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(o->err, o->errlen, fmt, ap);
  va_end(ap);
  return -1;
}

static int rdc_write(rdc_out *o, const char *from, const unsigned char *data, size_t size) {
  char path[4096];
  snprintf(path, sizeof path, "%s%d.bc", o->prefix, (*o->counter)++);
  FILE *f = fopen(path, "wb");
  if (!f) return rdc_fail(o, "cannot create '%s': %s", path, strerror(errno));
  int ok = fwrite(data, 1, size, f) == size;
  ok &= fclose(f) == 0;
  if (!ok) return rdc_fail(o, "cannot write '%s' (device bitcode of %s): %s", path, from, strerror(errno));
  o->found(path, o->ctx);
  return 0;
}

/* One ELF image in memory: writes its LDSAN_EMU_RDC_SECTION, if any. */
static int rdc_from_elf(rdc_out *o, const char *from, const unsigned char *p, size_t n) {
  if (n < sizeof(Elf64_Ehdr) || memcmp(p, ELFMAG, SELFMAG) != 0) return 0;
  if (p[EI_CLASS] != ELFCLASS64 || p[EI_DATA] != ELFDATA2LSB) return 0;  /* not an x86-64 object */
  Elf64_Ehdr eh;
  memcpy(&eh, p, sizeof eh);
  if (eh.e_type != ET_REL || eh.e_shentsize != sizeof(Elf64_Shdr) || eh.e_shoff > n ||
      (n - eh.e_shoff) / sizeof(Elf64_Shdr) < eh.e_shnum || eh.e_shstrndx >= eh.e_shnum)
    return 0;
  Elf64_Shdr names;
  memcpy(&names, p + eh.e_shoff + (size_t)eh.e_shstrndx * sizeof names, sizeof names);
  if (names.sh_offset > n || names.sh_size > n - names.sh_offset)
    return rdc_fail(o, "%s: malformed ELF object (section names out of bounds)", from);
  const size_t want = sizeof LDSAN_EMU_RDC_SECTION;  /* with its NUL */
  for (unsigned i = 0; i < eh.e_shnum; i++) {
    Elf64_Shdr sh;
    memcpy(&sh, p + eh.e_shoff + (size_t)i * sizeof sh, sizeof sh);
    if (sh.sh_name >= names.sh_size || names.sh_size - sh.sh_name < want) continue;
    if (memcmp(p + names.sh_offset + sh.sh_name, LDSAN_EMU_RDC_SECTION, want) != 0) continue;
    if (sh.sh_type == SHT_NOBITS || sh.sh_offset > n || sh.sh_size > n - sh.sh_offset)
      return rdc_fail(o, "%s: malformed ELF object (section %s out of bounds)", from, LDSAN_EMU_RDC_SECTION);
    return rdc_write(o, from, p + sh.sh_offset, sh.sh_size);
  }
  return 0;
}

/* An ar archive: each member in turn (the symbol and name tables hold no ELF). */
static int rdc_from_archive(rdc_out *o, const char *path, const unsigned char *p, size_t n) {
  size_t at = 8;
  while (at + 60 <= n) {
    const unsigned char *h = p + at;
    if (h[58] != '`' || h[59] != '\n') return rdc_fail(o, "%s: malformed archive (bad member header at byte %zu)", path, at);
    char size_text[11];
    memcpy(size_text, h + 48, 10);
    size_text[10] = '\0';
    char *end;
    unsigned long long size = strtoull(size_text, &end, 10);
    if (end == size_text || size > n - at - 60)
      return rdc_fail(o, "%s: malformed archive (member size at byte %zu)", path, at);
    char name[17], from[4200];
    memcpy(name, h, 16);
    name[16] = '\0';
    for (int k = 0; k < 16; k++)  /* "name/   " -> "name"; a long name stays "/<offset>" */
      if (name[k] == ' ' || (name[k] == '/' && k > 0)) { name[k] = '\0'; break; }
    snprintf(from, sizeof from, "%s(%s)", path, name);
    if (rdc_from_elf(o, from, h + 60, (size_t)size) != 0) return -1;
    at += 60 + (size_t)size + (size & 1);
  }
  return 0;
}

int ldsan_emu_rdc_extract(const char *path, const char *out_prefix, int *counter, ldsan_emu_rdc_found found,
                          void *ctx, char *err, unsigned errlen) {
  rdc_out o = {out_prefix, counter, found, ctx, err, errlen};
  FILE *f = fopen(path, "rb");
  if (!f) return rdc_fail(&o, "cannot open '%s': %s", path, strerror(errno));
  unsigned char *p = NULL;
  size_t n = 0, cap = 0;
  for (;;) {
    if (cap - n < 65536) {
      unsigned char *q = realloc(p, cap = cap ? 2 * cap : 1 << 20);
      if (!q) {
        free(p);
        fclose(f);
        return rdc_fail(&o, "out of memory reading '%s'", path);
      }
      p = q;
    }
    size_t r = fread(p + n, 1, cap - n, f);
    n += r;
    if (r == 0) break;
  }
  int bad = ferror(f);
  fclose(f);
  int rc;
  if (bad) rc = rdc_fail(&o, "cannot read '%s'", path);
  else if (n >= 8 && memcmp(p, "!<thin>\n", 8) == 0)
    rc = rdc_fail(&o, "'%s' is a thin archive, whose members the --emulate link does not read; make it with 'ar rcs' "
                      "(not 'ar rcsT')", path);
  else if (n >= 8 && memcmp(p, "!<arch>\n", 8) == 0) rc = rdc_from_archive(&o, path, p, n);
  else rc = rdc_from_elf(&o, path, p, n);
  free(p);
  return rc;
}
