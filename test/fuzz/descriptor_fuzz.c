/* Fuzz target: kernel LDS descriptor blobs (host/descriptor.c), which come
 * from device memory and may be garbage. The input is the dispatch's dynamic
 * LDS size (4 bytes, little-endian) and then the bytes of fake device memory
 * holding the blob (exactly as many as the input has: a total_size past them
 * cannot be read). Reads it with ldsan_desc_read, then names every variable
 * (ldsan_var_name, which demangles) and locates offsets around each one
 * (ldsan_desc_locate). Checks what the report relies on: a valid blob's
 * records and strings lie inside it, and every location is consistent with
 * the variable it names. */
#include "fuzz.h"

#define DESC_AT 0x10000ull
#define MAX_LOCATED 32   /* variables whose neighbourhood is located (locate is O(vars)) */
#define MAX_NAMED 512    /* variables named */

static uint64_t var_end(const ldsan_desc *d, int i, uint32_t dyn) {
  return (uint64_t)d->vars[i].offset + ldsan_var_size(d, i, dyn);
}

/* Checks one ldsan_desc_locate answer against the descriptor. */
static void check_location(const ldsan_desc *d, int64_t off, uint32_t dyn) {
  ldsan_location l = ldsan_desc_locate(d, off, dyn);
  int n = (int)d->header.var_count;
  PROPERTY(l.offset == off, "offset %lld for %lld", (long long)l.offset, (long long)off);
  PROPERTY(l.var >= -1 && l.var < n, "var %d of %d", l.var, n);
  PROPERTY(l.where != LDSAN_WHERE_UNKNOWN, "valid descriptor, offset %lld unknown", (long long)off);
  int64_t start = l.var >= 0 ? (int64_t)d->vars[l.var].offset : 0;
  int64_t end = l.var >= 0 ? (int64_t)var_end(d, l.var, dyn) : 0;
  int64_t dist = (int64_t)l.distance;
  switch (l.where) {
  case LDSAN_WHERE_INSIDE:
    PROPERTY(l.var >= 0 && off >= start && off < end && off - start == dist, "inside var %d [%lld,%lld) at %lld",
             l.var, (long long)start, (long long)end, (long long)off);
    break;
  case LDSAN_WHERE_AFTER:
    PROPERTY(l.var >= 0 && off == end + dist, "%lld after var %d ending at %lld, offset %lld", (long long)dist,
             l.var, (long long)end, (long long)off);
    break;
  case LDSAN_WHERE_BEFORE:
    PROPERTY(l.var >= 0 && off + dist == start, "%lld before var %d at %lld, offset %lld", (long long)dist, l.var,
             (long long)start, (long long)off);
    break;
  case LDSAN_WHERE_SLOT:
    PROPERTY(l.var >= 0 && (d->vars[l.var].flags & LDSAN_VAR_COMPILER_SLOT) && off == start + dist,
             "slot var %d at %lld, offset %lld", l.var, (long long)start, (long long)off);
    break;
  case LDSAN_WHERE_HEADER:
    PROPERTY(off < 0 && dist == -off, "header at offset %lld, distance %lld", (long long)off, (long long)dist);
    break;
  case LDSAN_WHERE_DYNAMIC_AFTER:
    PROPERTY(off == (int64_t)d->header.static_size + dyn + dist, "dynamic end + %lld != %lld", (long long)dist,
             (long long)off);
    break;
  default:
    break;
  }
  int next = ldsan_desc_first_var_after(d, off);
  PROPERTY(next >= -1 && next < n, "first var after: %d of %d", next, n);
  if (next >= 0)
    PROPERTY((int64_t)d->vars[next].offset > off && !(d->vars[next].flags & LDSAN_VAR_COMPILER_SLOT),
             "first var after %lld: var %d at %u", (long long)off, next, d->vars[next].offset);
}

/* A string of the blob: NULL, or NUL-terminated inside the blob's strings. */
static void check_string(const ldsan_desc *d, uint32_t off) {
  const char *s = ldsan_desc_string(d, off);
  if (!s) return;
  const char *blob = (const char *)d->blob, *strings = blob + sizeof(ldsan_kernel_desc) +
                                                       d->header.var_count * sizeof(ldsan_var_desc);
  PROPERTY(s >= strings && s + strlen(s) < blob + d->header.total_size, "string at %u outside the blob", off);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  fuzz_input in = {data, size};
  uint32_t dyn;
  fuzz_bytes(&in, &dyn, sizeof dyn);
  fake_memory m = {0};
  unsigned char *bytes = fake_map(&m, DESC_AT, in.n);
  if (in.n) memcpy(bytes, in.p, in.n);
  ldsan_device_memory mem = fake_reader(&m);

  ldsan_desc d;
  ldsan_desc_read(&d, &mem, DESC_AT);
  if (!d.valid) {
    PROPERTY(d.why[0] != 0, "invalid descriptor without a reason");
    PROPERTY(ldsan_desc_locate(&d, 0, dyn).where == LDSAN_WHERE_UNKNOWN, "located in an invalid descriptor");
  } else {
    const ldsan_kernel_desc *h = &d.header;
    PROPERTY(h->total_size <= in.n && h->total_size >= sizeof *h, "total_size %u, %zu bytes", h->total_size, in.n);
    PROPERTY(sizeof *h + (uint64_t)h->var_count * sizeof(ldsan_var_desc) <= h->total_size, "%u vars in %u bytes",
             h->var_count, h->total_size);
    check_string(&d, h->name);
    int n = (int)h->var_count;
    for (int i = 0; i < n && i < MAX_NAMED; i++) {
      char name[256];
      const char *got = ldsan_var_name(&d, i, name, sizeof name);
      PROPERTY(got == name && memchr(name, 0, sizeof name) && name[0], "variable %d has no name", i);
      check_string(&d, d.vars[i].name);
      check_string(&d, d.vars[i].source_name);
      check_string(&d, d.vars[i].file);
    }
    int64_t around[] = {INT64_MIN / 2, -65, -1, 0, 1, (int64_t)h->static_size, (int64_t)h->static_size + dyn,
                        INT64_MAX / 2};
    for (size_t k = 0; k < sizeof around / sizeof *around; k++) check_location(&d, around[k], dyn);
    for (int i = 0; i < n && i < MAX_LOCATED; i++) {
      int64_t start = d.vars[i].offset, end = (int64_t)var_end(&d, i, dyn), rz = d.vars[i].redzone;
      int64_t near[] = {start - 1, start, end - 1, end, end + rz - 1, end + rz};
      for (size_t k = 0; k < sizeof near / sizeof *near; k++) check_location(&d, near[k], dyn);
    }
  }
  ldsan_desc_free(&d);
  fake_free(&m);
  return 0;
}
