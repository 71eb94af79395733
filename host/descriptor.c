/* ldsan host library: reading, validating and querying a kernel LDS descriptor
 * (ldsan_kernel_desc blob, layout in abi.h). The blob comes from device memory
 * and may be garbage (a wrong pointer in a record, a stale code object): every
 * count, size and string offset is checked before use, and a bad blob only
 * makes the report say "unknown LDS variable". */
#include <stdlib.h>
#include <string.h>

#include "internal.h"

#define FAIL(...) do { invalid(d, __VA_ARGS__); return; } while (0)

static void invalid(ldsan_desc *d, const char *fmt, uint64_t a, uint64_t b) {
  d->valid = 0;
  snprintf(d->why, sizeof d->why, fmt, (unsigned long long)a, (unsigned long long)b);
}

void ldsan_desc_read(ldsan_desc *d, const ldsan_device_memory *mem, uint64_t address) {
  memset(d, 0, sizeof *d);
  d->address = address;
  if (!address) FAIL("the record names no kernel descriptor", 0, 0);
  if (!mem || !mem->read || mem->read(mem->ctx, address, &d->header, sizeof d->header))
    FAIL("cannot read the kernel descriptor at 0x%llx", address, 0);
  const ldsan_kernel_desc *h = &d->header;
  if (h->magic != LDSAN_DESC_MAGIC)
    FAIL("bad kernel descriptor magic 0x%08llx (expected 0x%08llx)", h->magic, LDSAN_DESC_MAGIC);
  if (h->abi_version != LDSAN_ABI_VERSION)
    FAIL("kernel descriptor has ABI version %llu, this library %llu; rebuild with one ldsan",
                   h->abi_version, LDSAN_ABI_VERSION);
  if (h->total_size < sizeof *h || h->total_size > LDSAN_DESC_MAX_SIZE || h->total_size % 8)
    FAIL("bad kernel descriptor total_size %llu (must be a multiple of 8 in [32, %llu])",
                   h->total_size, LDSAN_DESC_MAX_SIZE);
  if (h->var_count > (h->total_size - sizeof *h) / sizeof(ldsan_var_desc))
    FAIL("kernel descriptor var_count %llu does not fit in total_size %llu", h->var_count,
                   h->total_size);
  d->blob = malloc(h->total_size);
  if (!d->blob) FAIL("out of memory reading a %llu-byte kernel descriptor", h->total_size, 0);
  if (mem->read(mem->ctx, address, d->blob, h->total_size)) {
    ldsan_desc_free(d);
    FAIL("cannot read the %llu-byte kernel descriptor at 0x%llx", d->header.total_size, address);
  }
  d->vars = (const ldsan_var_desc *)(d->blob + sizeof *h);
  d->valid = 1;
}

void ldsan_desc_free(ldsan_desc *d) {
  free(d->blob);
  d->blob = NULL;
  d->vars = NULL;
  d->valid = 0;
}

const char *ldsan_desc_string(const ldsan_desc *d, uint32_t off) {
  if (!d || !d->valid || !off) return NULL;
  uint64_t strings = sizeof(ldsan_kernel_desc) + (uint64_t)d->header.var_count * sizeof(ldsan_var_desc);
  if (off < strings || off >= d->header.total_size) return NULL;
  const char *s = (const char *)d->blob + off;
  if (!memchr(s, 0, d->header.total_size - off)) return NULL;  /* unterminated */
  return s;
}

uint64_t ldsan_var_size(const ldsan_desc *d, int i, uint32_t dynamic_size) {
  return (d->vars[i].flags & LDSAN_VAR_DYNAMIC) ? dynamic_size : d->vars[i].size;
}

const char *ldsan_var_name(const ldsan_desc *d, int i, char *buf, size_t len) {
  const char *src = ldsan_desc_string(d, d->vars[i].source_name);
  if (src && *src) { snprintf(buf, len, "%s", src); return buf; }
  const char *ir = ldsan_desc_string(d, d->vars[i].name);
  if (!ir || !*ir) { snprintf(buf, len, "<unnamed #%d>", i); return buf; }
  ldsan_demangle(ir, buf, len);
  /* "k1(int*, int)::tile" -> "tile": the function is already in the report.
   * A name ending in "::" (garbage) stays whole: never an empty name. */
  const char *last = NULL;
  for (const char *p = strstr(buf, "::"); p; p = strstr(p + 2, "::")) last = p + 2;
  if (last && *last && !strpbrk(last, "()<>")) memmove(buf, last, strlen(last) + 1);
  return buf;
}

static void consider(ldsan_location *best, ldsan_where w, int var, uint64_t dist) {
  if (best->where == LDSAN_WHERE_UNKNOWN || dist < best->distance) {
    best->where = w;
    best->var = var;
    best->distance = dist;
  }
}

/* Index of the user variable with the lowest offset above `off`, or -1. */
int ldsan_desc_first_var_after(const ldsan_desc *d, int64_t off) {
  int best = -1;
  for (int i = 0; i < (int)d->header.var_count; i++) {
    const ldsan_var_desc *v = &d->vars[i];
    if ((v->flags & LDSAN_VAR_COMPILER_SLOT) || (int64_t)v->offset <= off) continue;
    if (best < 0 || v->offset < d->vars[best].offset) best = i;
  }
  return best;
}

ldsan_location ldsan_desc_locate(const ldsan_desc *d, int64_t off, uint32_t dynamic_size) {
  ldsan_location loc = {LDSAN_WHERE_UNKNOWN, -1, off, 0};
  if (!d || !d->valid) return loc;
  int dyn_var = -1;
  /* Exact hits first: inside a variable, the slot, a static variable's redzone. */
  for (int i = 0; i < (int)d->header.var_count; i++) {
    const ldsan_var_desc *v = &d->vars[i];
    int64_t start = v->offset, end = start + (int64_t)ldsan_var_size(d, i, dynamic_size);
    if (v->flags & LDSAN_VAR_DYNAMIC) { if (dyn_var < 0) dyn_var = i; }
    if (v->flags & LDSAN_VAR_COMPILER_SLOT) {
      if (off >= start && off < end) { loc.where = LDSAN_WHERE_SLOT; loc.var = i; loc.distance = (uint64_t)(off - start); return loc; }
      if (off >= end && off < end + (int64_t)v->redzone) {
        /* The slot's padding sits right before the first user variable: an
         * access there is an underflow of that variable (e.g. tile[-1]). */
        int next = ldsan_desc_first_var_after(d, off);
        if (next >= 0) { loc.where = LDSAN_WHERE_BEFORE; loc.var = next; loc.distance = (uint64_t)(d->vars[next].offset - off); }
        else { loc.where = LDSAN_WHERE_SLOT; loc.var = i; loc.distance = (uint64_t)(off - start); }
        return loc;
      }
      continue;
    }
    if (off >= start && off < end) { loc.where = LDSAN_WHERE_INSIDE; loc.var = i; loc.distance = (uint64_t)(off - start); return loc; }
    if (!(v->flags & LDSAN_VAR_DYNAMIC) && off >= end && off < end + (int64_t)v->redzone) {
      loc.where = LDSAN_WHERE_AFTER; loc.var = i; loc.distance = (uint64_t)(off - end); return loc;
    }
  }
  if (off < 0) {
    loc.where = LDSAN_WHERE_HEADER;
    loc.distance = (uint64_t)-off;
    return loc;
  }
  int64_t dyn_end = (int64_t)d->header.static_size + dynamic_size;
  if ((dyn_var >= 0 || (d->header.flags & LDSAN_KERNEL_HAS_DYNAMIC)) && off >= dyn_end) {
    loc.where = LDSAN_WHERE_DYNAMIC_AFTER; loc.var = dyn_var; loc.distance = (uint64_t)(off - dyn_end); return loc;
  }
  /* Otherwise: the nearest variable, before or after. */
  ldsan_location best = loc;
  for (int i = 0; i < (int)d->header.var_count; i++) {
    const ldsan_var_desc *v = &d->vars[i];
    if (v->flags & LDSAN_VAR_COMPILER_SLOT) continue;
    int64_t start = v->offset, end = start + (int64_t)ldsan_var_size(d, i, dynamic_size);
    if (off < start) consider(&best, LDSAN_WHERE_BEFORE, i, (uint64_t)(start - off));
    else consider(&best, LDSAN_WHERE_AFTER, i, (uint64_t)(off - end));
  }
  if (best.where == LDSAN_WHERE_UNKNOWN) { best.where = LDSAN_WHERE_PAST_BLOCK; best.distance = 0; }
  return best;
}
