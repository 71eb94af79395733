/* Prints every ldsan_kernel_desc blob in a raw .ldsan_lds_desc section (as
 * extracted by llvm-objcopy -O binary --only-section=.ldsan_lds_desc), one
 * line per field group, for FileCheck. Reads the blobs through abi.h, so the
 * tests check the layout the host and device will read.
 * Usage: desc-dump <section.bin>   Exit 1 on a malformed blob. */
#include "ldsan/abi.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *str(const unsigned char *blob, uint32_t total, uint32_t off) {
  if (off == 0)
    return "-";
  if (off >= total || !memchr(blob + off, 0, total - off))
    return "<bad string offset>";
  return (const char *)blob + off;
}

int main(int argc, char **argv) {
  if (argc != 2) {
    fprintf(stderr, "usage: desc-dump <section.bin>\n");
    return 2;
  }
  FILE *f = fopen(argv[1], "rb");
  if (!f) {
    perror(argv[1]);
    return 2;
  }
  static unsigned char buf[1 << 20];
  size_t n = fread(buf, 1, sizeof buf, f);
  fclose(f);
  size_t pos = 0;
  int bad = 0;
  while (pos + sizeof(ldsan_kernel_desc) <= n) {
    const unsigned char *blob = buf + pos;
    ldsan_kernel_desc h;
    memcpy(&h, blob, sizeof h);
    if (h.magic != LDSAN_DESC_MAGIC || h.total_size % 8 || pos + h.total_size > n ||
        sizeof h + (size_t)h.var_count * sizeof(ldsan_var_desc) > h.total_size) {
      printf("bad blob at %zu (magic %#x total %u)\n", pos, h.magic, h.total_size);
      return 1;
    }
    printf("kernel %s abi=%u total=%u vars=%u static_size=%u max_align=%u flags=%s%s%s%s\n",
           str(blob, h.total_size, h.name), h.abi_version, h.total_size, h.var_count,
           h.static_size, h.max_align, h.flags & LDSAN_KERNEL_HAS_DYNAMIC ? "D" : "",
           h.flags & LDSAN_KERNEL_INDIRECT ? "I" : "", h.flags & LDSAN_KERNEL_CHECK_RACES ? "R" : "",
           h.flags & LDSAN_KERNEL_CHECK_UNINIT ? "U" : "");
    for (uint32_t i = 0; i < h.var_count; i++) {
      ldsan_var_desc v;
      memcpy(&v, blob + sizeof h + i * sizeof v, sizeof v);
      printf("  var %u: offset=%u size=%u redzone=%u align=%u flags=%s%s%s name=%s source=%s "
             "at=%s:%u\n",
             i, v.offset, v.size, v.redzone, v.align,
             v.flags & LDSAN_VAR_COMPILER_SLOT ? "S" : "",
             v.flags & LDSAN_VAR_DYNAMIC ? "D" : "", v.flags & LDSAN_VAR_INDIRECT ? "I" : "",
             str(blob, h.total_size, v.name), str(blob, h.total_size, v.source_name),
             str(blob, h.total_size, v.file), v.line);
      if (v.reserved)
        bad = 1;
    }
    if (h.shadow) { /* the static part's shadow image: one byte per granule */
      if (h.shadow % 8 || h.shadow + h.static_size / 8 > h.total_size) {
        printf("bad shadow image at %u (%u bytes) in a %u-byte blob\n", h.shadow, h.static_size / 8, h.total_size);
        return 1;
      }
      printf("  shadow:");
      for (uint32_t g = 0; g < h.static_size / 8; g++) printf(" %02x", blob[h.shadow + g]);
      printf("\n");
    }
    if (h.reserved)
      bad = 1;
    pos += h.total_size;
  }
  if (pos != n) {
    printf("trailing %zu bytes\n", n - pos);
    return 1;
  }
  return bad;
}
