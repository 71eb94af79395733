/* ldsan host library: shadow bytes -> bug names, and ASan's "Shadow bytes
 * around the buggy address" dump with its legend.
 *
 * Shadow of an LDS block as the device lays it out (abi.h), one byte per 8 bytes:
 *
 *   block-64        block    slot     var 1             dynamic LDS     chunk end
 *   | e2 .. e2 (header) | e5 e5 e5 e5 | 00 .. 04 | e1 .. | 00 .. 00 | e3 .. e3 |
 *
 * The host reads the shadow after the dispatch, when the workgroup's block is
 * usually freed (all e4) or reused. When the live shadow of the bad address no
 * longer holds the value the device recorded, the dump shows the shadow the
 * descriptor implies for the block instead, and says so. */
#include <string.h>

#include "internal.h"

#define ROW_BYTES 16   /* shadow bytes per dump row, as ASan */
#define ROWS_AROUND 5  /* rows before and after the buggy one, as ASan */

const char *ldsan_shadow_bug_name(uint8_t s) {
  switch (s) {
#define LDSAN_SHADOW_BYTE(ENUM, value, bug_name, legend) case value: return bug_name;
#include "ldsan/shadow_bytes.def"
#undef LDSAN_SHADOW_BYTE
  default: break;
  }
#define ASAN_SHADOW_BYTE(value, bug_name, legend) if (s == value) return bug_name;
#include "asan_shadow_bytes.inc"
#undef ASAN_SHADOW_BYTE
  return NULL;
}

/* The offset of shadow(addr) = (addr >> 3) + offset for a dispatch's shadow_offset. */
static uint64_t shadow_base(uint64_t shadow_offset) { return shadow_offset ? shadow_offset : LDSAN_SHADOW_OFFSET; }

int ldsan_shadow_read(const ldsan_device_memory *mem, uint64_t shadow_offset, uint64_t addr, uint8_t *out) {
  if (!mem || !mem->read || shadow_offset == LDSAN_SHADOW_UNREADABLE) return -1;
  return mem->read(mem->ctx, (addr >> LDSAN_SHADOW_SCALE) + shadow_base(shadow_offset), out, 1);
}

/* The shadow byte the descriptor implies for granule g; 0 if known. */
static int implied(const ldsan_block_view *v, uint64_t g, uint8_t *out) {
  if (!v->block || !v->desc || g + LDSAN_BLOCK_HEADER_SIZE < v->block || g >= v->chunk_end) return -1;
  if (g < v->block) { *out = LDSAN_SHADOW_LDS_BLOCK_HEADER; return 0; }
  const ldsan_desc *d = v->desc;
  uint64_t off = g - v->block, dyn_end = (uint64_t)d->header.static_size + v->dynamic_size;
  if (off < d->header.static_size) *out = LDSAN_SHADOW_LDS_REDZONE;
  else if (off < dyn_end) *out = dyn_end - off >= LDSAN_SHADOW_GRANULE ? 0 : (uint8_t)(dyn_end - off);
  else *out = LDSAN_SHADOW_LDS_DYNAMIC_TAIL;
  for (uint32_t i = 0; i < d->header.var_count; i++) {
    const ldsan_var_desc *x = &d->vars[i];
    if (x->flags & LDSAN_VAR_DYNAMIC) continue;
    uint64_t end = (uint64_t)x->offset + x->size;
    if (x->flags & LDSAN_VAR_COMPILER_SLOT) {
      if (off >= x->offset && off < end + x->redzone) *out = LDSAN_SHADOW_LDS_COMPILER_SLOT;
    } else if (off >= x->offset && off < end) {
      *out = end - off >= LDSAN_SHADOW_GRANULE ? 0 : (uint8_t)(end - off);
    }
  }
  return 0;
}

/* One shadow byte for granule g from the live shadow or the implied one. */
static int shadow_at(const ldsan_device_memory *mem, uint64_t shadow_offset, const ldsan_block_view *v,
                     int use_implied, uint64_t g, uint8_t *out) {
  return use_implied ? implied(v, g, out) : ldsan_shadow_read(mem, shadow_offset, g, out);
}

static void legend_row(FILE *out, ldsan_decorator d, const char *text, uint8_t value) {
  char label[96];
  snprintf(label, sizeof label, "%s:", text);
  const char *colour = ldsan_deco_shadow(d, value);
  fprintf(out, "  %-52s %s%02x%s\n", label, colour, value, *colour ? ldsan_deco_end(d) : "");
}

static void print_legend(FILE *out, ldsan_decorator d) {
  fprintf(out, "Shadow byte legend (one shadow byte represents %u application bytes):\n", LDSAN_SHADOW_GRANULE);
  fprintf(out, "  %-52s 00\n", "Addressable:");
  fprintf(out, "  %-52s 01 02 03 04 05 06 07\n", "Partially addressable:");
#define LDSAN_SHADOW_BYTE(ENUM, value, bug_name, legend) legend_row(out, d, legend, value);
#include "ldsan/shadow_bytes.def"
#undef LDSAN_SHADOW_BYTE
#define ASAN_SHADOW_BYTE(value, bug_name, legend) legend_row(out, d, legend, value);
#include "asan_shadow_bytes.inc"
#undef ASAN_SHADOW_BYTE
}

void ldsan_shadow_dump(FILE *out, ldsan_decorator d, const ldsan_device_memory *mem, uint64_t shadow_offset,
                       uint64_t addr, uint8_t recorded, const ldsan_block_view *view) {
  const uint64_t granule = LDSAN_SHADOW_GRANULE;
  const uint64_t base = shadow_base(shadow_offset);
  uint64_t bad = addr & ~(granule - 1);
  uint8_t live = 0;
  int live_ok = ldsan_shadow_read(mem, shadow_offset, bad, &live) == 0;
  uint8_t effective = live, probe;
  /* A partial granule's record carries the next granule's value (ASan's naming rule). */
  if (live_ok && live >= 1 && live < granule && recorded >= granule &&
      ldsan_shadow_read(mem, shadow_offset, bad + granule, &probe) == 0)
    effective = probe;
  int use_implied = (!live_ok || (live != recorded && effective != recorded)) && view && implied(view, bad, &probe) == 0;
  if (use_implied) {
    fprintf(out, "Shadow bytes around the buggy address (as the kernel's LDS descriptor lays out this block;");
    if (live_ok) fprintf(out, " the live shadow now holds %02x, not the recorded %02x%s):\n", live, recorded,
                         live == LDSAN_SHADOW_LDS_FREED ? ": the workgroup has exited" : "");
    else fprintf(out, " the live shadow cannot be read):\n");
  } else if (!live_ok && shadow_offset == LDSAN_SHADOW_UNREADABLE) {
    fprintf(out, "Shadow bytes around the buggy address: not known to the host (the code object's built-in LDS "
            "pool; its shadow is not where the host can find it)\n");
    return;
  } else if (!live_ok) {
    fprintf(out, "Shadow bytes around the buggy address: cannot be read (shadow address 0x%llx)\n",
            (unsigned long long)((addr >> LDSAN_SHADOW_SCALE) + base));
    return;
  } else {
    fprintf(out, "Shadow bytes around the buggy address:\n");
  }
  uint64_t shadow_bad = (addr >> LDSAN_SHADOW_SCALE) + base;
  uint64_t row0 = shadow_bad & ~(uint64_t)(ROW_BYTES - 1);
  for (int r = -ROWS_AROUND; r <= ROWS_AROUND; r++) {
    uint64_t row = row0 + (uint64_t)((int64_t)r * ROW_BYTES);
    if (row < base && r < 0) continue;  /* before the shadow: nothing to show */
    uint8_t bytes[ROW_BYTES];
    int known[ROW_BYTES], any = 0;
    for (int i = 0; i < ROW_BYTES; i++) {
      uint64_t g = (row + (uint64_t)i - base) << LDSAN_SHADOW_SCALE;
      known[i] = shadow_at(mem, shadow_offset, view, use_implied, g, &bytes[i]) == 0;
      any |= known[i];
    }
    if (!any && r != 0) continue;
    fprintf(out, "%s0x%012llx:", r == 0 ? "=>" : "  ", (unsigned long long)row);
    for (int i = 0; i < ROW_BYTES; i++) {
      int guilty = row + (uint64_t)i == shadow_bad;
      int after_guilty = row + (uint64_t)i == shadow_bad + 1 && i != 0;
      fputs(guilty ? "[" : after_guilty ? "" : " ", out);
      const char *colour = known[i] ? ldsan_deco_shadow(d, bytes[i]) : "";
      if (known[i]) fprintf(out, "%s%02x%s", colour, bytes[i], *colour ? ldsan_deco_end(d) : "");
      else fputs("..", out);
      if (guilty) fputs("]", out);
    }
    fputc('\n', out);
  }
  if (ldsan_flags_get()->print_legend) print_legend(out, d);
}
