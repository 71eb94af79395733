/* ldsan host unit tests: checks that print both sides with file:line, a fake
 * device address space (the memory reader is a memcpy from it, shadow included
 * at 0x7FFF8000 + (addr >> 3)), a kernel-descriptor builder and output capture.
 * Header-only: each test is one .c file, one process. */
#ifndef LDSAN_HOST_TEST_H
#define LDSAN_HOST_TEST_H

#define _GNU_SOURCE
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "internal.h"
#include "ldsan/host.h"

static int test_failures;

#define CHECK(cond)                                                                    \
  do {                                                                                 \
    if (!(cond)) {                                                                     \
      fprintf(stderr, "%s:%d: CHECK failed: %s\n", __FILE__, __LINE__, #cond);         \
      test_failures++;                                                                 \
    }                                                                                  \
  } while (0)

#define CHECK_EQ(a, b)                                                                 \
  do {                                                                                 \
    long long va_ = (long long)(a), vb_ = (long long)(b);                              \
    if (va_ != vb_) {                                                                  \
      fprintf(stderr, "%s:%d: CHECK_EQ failed: %s == %s\n    left:  %lld\n    right: %lld\n", \
              __FILE__, __LINE__, #a, #b, va_, vb_);                                   \
      test_failures++;                                                                 \
    }                                                                                  \
  } while (0)

#define CHECK_STREQ(a, b)                                                              \
  do {                                                                                 \
    const char *sa_ = (a), *sb_ = (b);                                                 \
    if (!sa_ || !sb_ || strcmp(sa_, sb_)) {                                            \
      fprintf(stderr, "%s:%d: CHECK_STREQ failed: %s == %s\n    left:  \"%s\"\n    right: \"%s\"\n", \
              __FILE__, __LINE__, #a, #b, sa_ ? sa_ : "(null)", sb_ ? sb_ : "(null)"); \
      test_failures++;                                                                 \
    }                                                                                  \
  } while (0)

/* Output `out` contains `needle` (or must not, for CHECK_LACKS). */
#define CHECK_HAS(out, needle) check_has(out, needle, 1, __FILE__, __LINE__)
#define CHECK_LACKS(out, needle) check_has(out, needle, 0, __FILE__, __LINE__)
static inline void check_has(const char *out, const char *needle, int want, const char *file, int line) {
  int has = out && strstr(out, needle) != NULL;
  if (has == want) return;
  fprintf(stderr, "%s:%d: output %s \"%s\"; output was:\n%s\n---- end of output\n", file, line,
          want ? "lacks" : "unexpectedly has", needle, out ? out : "(null)");
  test_failures++;
}

/* Number of times needle occurs in out. */
/* The whole of file `name` (at most 64 KiB; caller frees), or NULL. */
static inline char *slurp(const char *name) {
  FILE *f = fopen(name, "r");
  if (!f) return NULL;
  char *buf = calloc(1, 1 << 16);
  size_t n = buf ? fread(buf, 1, (1 << 16) - 1, f) : 0;
  if (buf) buf[n] = 0;
  fclose(f);
  return buf;
}

static inline int count_of(const char *out, const char *needle) {
  int n = 0;
  for (const char *p = out; (p = strstr(p, needle)); p += strlen(needle)) n++;
  return n;
}

static inline int test_done(const char *name) {
  if (test_failures) { fprintf(stderr, "%s: %d check(s) failed\n", name, test_failures); return 1; }
  fprintf(stderr, "%s: all checks passed\n", name);
  return 0;
}

/* ---- fake device address space ------------------------------------------- */
#define FAKE_MAX_REGIONS 16
typedef struct fake_region { uint64_t base, size; unsigned char *data; } fake_region;
typedef struct fake_memory { int n; fake_region r[FAKE_MAX_REGIONS]; int reads; } fake_memory;

static inline int fake_read(void *ctx, uint64_t addr, void *dst, size_t n) {
  fake_memory *m = ctx;
  m->reads++;
  for (int i = 0; i < m->n; i++)
    if (addr >= m->r[i].base && addr - m->r[i].base <= m->r[i].size && n <= m->r[i].size - (addr - m->r[i].base)) {
      memcpy(dst, m->r[i].data + (addr - m->r[i].base), n);
      return 0;
    }
  return -1;
}

/* Maps `size` zeroed bytes at `base`; returns the host pointer. */
static inline unsigned char *fake_map(fake_memory *m, uint64_t base, uint64_t size) {
  fake_region *r = &m->r[m->n++];
  r->base = base;
  r->size = size;
  r->data = calloc(1, size);
  return r->data;
}

static inline void fake_free(fake_memory *m) {
  for (int i = 0; i < m->n; i++) free(m->r[i].data);
  m->n = 0;
}

static inline ldsan_device_memory fake_reader(fake_memory *m) {
  ldsan_device_memory mem = {m, fake_read};
  return mem;
}

/* Host pointer of device address a (must be mapped). */
static inline unsigned char *fake_ptr(fake_memory *m, uint64_t a) {
  for (int i = 0; i < m->n; i++)
    if (a >= m->r[i].base && a < m->r[i].base + m->r[i].size) return m->r[i].data + (a - m->r[i].base);
  fprintf(stderr, "test bug: 0x%llx not mapped\n", (unsigned long long)a);
  abort();
}

static inline uint64_t shadow_of(uint64_t a) { return (a >> LDSAN_SHADOW_SCALE) + LDSAN_SHADOW_OFFSET; }

/* Maps the shadow of [lo, hi) (filled with `fill`). */
static inline void fake_map_shadow(fake_memory *m, uint64_t lo, uint64_t hi, uint8_t fill) {
  unsigned char *p = fake_map(m, shadow_of(lo), shadow_of(hi) - shadow_of(lo));
  memset(p, fill, shadow_of(hi) - shadow_of(lo));
}

/* Sets the shadow of [lo, hi) (granule-aligned lo) to v, like the device would. */
static inline void fake_poison(fake_memory *m, uint64_t lo, uint64_t hi, uint8_t v) {
  for (uint64_t a = lo; a < hi; a += 8) *fake_ptr(m, shadow_of(a)) = v;
}

/* ---- kernel descriptor builder ------------------------------------------- */
typedef struct desc_builder {
  ldsan_kernel_desc h;
  ldsan_var_desc v[32];
  char strings[4096];
  uint32_t strings_len;
  const char *names[4][32];  /* name, source, file per var; [3][0] kernel */
} desc_builder;

static inline void desc_init(desc_builder *b, const char *kernel, uint32_t static_size, uint32_t flags) {
  memset(b, 0, sizeof *b);
  b->h.magic = LDSAN_DESC_MAGIC;
  b->h.abi_version = LDSAN_ABI_VERSION;
  b->h.static_size = static_size;
  b->h.max_align = 16;
  b->h.flags = flags;
  b->names[3][0] = kernel;
}

static inline void desc_var(desc_builder *b, uint32_t offset, uint32_t size, uint32_t redzone, uint32_t flags,
                     const char *name, const char *source, const char *file, uint32_t line) {
  uint32_t i = b->h.var_count++;
  b->v[i].offset = offset;
  b->v[i].size = size;
  b->v[i].redzone = redzone;
  b->v[i].align = 4;
  b->v[i].flags = flags;
  b->v[i].line = line;
  b->names[0][i] = name;
  b->names[1][i] = source;
  b->names[2][i] = file;
}

static inline uint32_t desc_str(desc_builder *b, uint32_t base, const char *s) {
  if (!s) return 0;
  uint32_t off = base + b->strings_len;
  memcpy(b->strings + b->strings_len, s, strlen(s) + 1);
  b->strings_len += (uint32_t)strlen(s) + 1;
  return off;
}

/* Writes the blob at device address `at` (mapping it); returns its size. */
static inline uint32_t desc_place(desc_builder *b, fake_memory *m, uint64_t at) {
  uint32_t base = (uint32_t)(sizeof b->h + b->h.var_count * sizeof(ldsan_var_desc));
  b->h.name = desc_str(b, base, b->names[3][0]);
  for (uint32_t i = 0; i < b->h.var_count; i++) {
    b->v[i].name = desc_str(b, base, b->names[0][i]);
    b->v[i].source_name = desc_str(b, base, b->names[1][i]);
    b->v[i].file = desc_str(b, base, b->names[2][i]);
  }
  b->h.total_size = (base + b->strings_len + 7) & ~7u;
  unsigned char *p = fake_map(m, at, b->h.total_size);
  memcpy(p, &b->h, sizeof b->h);
  memcpy(p + sizeof b->h, b->v, b->h.var_count * sizeof(ldsan_var_desc));
  memcpy(p + base, b->strings, b->strings_len);
  return b->h.total_size;
}

/* ---- output capture ------------------------------------------------------- */
typedef struct capture { FILE *f; char *buf; size_t len; } capture;
static inline void capture_begin(capture *c) { c->buf = NULL; c->len = 0; c->f = open_memstream(&c->buf, &c->len); }
/* Returns the captured text (owned by c until capture_free). */
static inline const char *capture_end(capture *c) { fclose(c->f); c->f = NULL; return c->buf; }
static inline void capture_free(capture *c) { free(c->buf); c->buf = NULL; }

/* ---- the "mini" scenario: kernel k1(int*, int) with int tile[64] and a 36-byte
 * 'other', lowered as amdgpu-sw-lower-lds lays them out, block live at MINI_BLOCK.
 *   LDS offset: [0,8) slot +24 rz | [32,288) tile +64 rz | [352,388) other +60 rz | 448 static end */
#define MINI_DESC 0x9000ull
#define MINI_BLOCK 0x20000ull
#define MINI_STATIC 448u

static inline void mini_setup(fake_memory *m, uint32_t dynamic_size, int with_dynamic_var) {
  desc_builder b;
  desc_init(&b, "_Z2k1Pii", MINI_STATIC, with_dynamic_var ? LDSAN_KERNEL_HAS_DYNAMIC : 0);
  desc_var(&b, 0, 8, 24, LDSAN_VAR_COMPILER_SLOT, "llvm.amdgcn.sw.lds.k1", NULL, NULL, 0);
  desc_var(&b, 32, 256, 64, 0, "_ZZ2k1PiiE4tile", "tile", "mini.hip", 12);
  desc_var(&b, 352, 36, 60, 0, "_ZZ2k1PiiE5other", NULL, "mini.hip", 13);
  if (with_dynamic_var) desc_var(&b, MINI_STATIC, 0, 0, LDSAN_VAR_DYNAMIC, "dyn", "dyn", "mini.hip", 14);
  desc_place(&b, m, MINI_DESC);
  uint64_t used = (MINI_STATIC + dynamic_size + 7) & ~7ull;
  uint64_t chunk = LDSAN_BLOCK_HEADER_SIZE + used + LDSAN_DYNAMIC_TAIL_REDZONE;
  unsigned char *c = fake_map(m, MINI_BLOCK - LDSAN_BLOCK_HEADER_SIZE, chunk);
  ldsan_block_header h = {.magic = LDSAN_BLOCK_MAGIC,
                          .self = MINI_BLOCK,
                          .kernel_desc = MINI_DESC,
                          .block_size = MINI_STATIC + dynamic_size,
                          .dynamic_size = dynamic_size,
                          .chunk_size = chunk,
                          .chunk_seal = ldsan_chunk_seal(MINI_BLOCK, chunk, 0)};
  memcpy(c, &h, sizeof h);
  /* Shadow of 4 KiB around the chunk, poisoned as the device does. */
  fake_map_shadow(m, MINI_BLOCK - 2048, MINI_BLOCK + 2048, 0xfa);
  fake_poison(m, MINI_BLOCK - LDSAN_BLOCK_HEADER_SIZE, MINI_BLOCK, LDSAN_SHADOW_LDS_BLOCK_HEADER);
  fake_poison(m, MINI_BLOCK, MINI_BLOCK + MINI_STATIC, LDSAN_SHADOW_LDS_REDZONE);
  fake_poison(m, MINI_BLOCK, MINI_BLOCK + 32, LDSAN_SHADOW_LDS_COMPILER_SLOT);
  fake_poison(m, MINI_BLOCK + 32, MINI_BLOCK + 288, 0);
  fake_poison(m, MINI_BLOCK + 352, MINI_BLOCK + 384, 0);
  *fake_ptr(m, shadow_of(MINI_BLOCK + 384)) = 4;  /* other ends at 388 */
  fake_poison(m, MINI_BLOCK + MINI_STATIC, MINI_BLOCK + MINI_STATIC + dynamic_size, 0);
  if (dynamic_size % 8) *fake_ptr(m, shadow_of(MINI_BLOCK + MINI_STATIC + dynamic_size)) = dynamic_size % 8;
  fake_poison(m, MINI_BLOCK + used, MINI_BLOCK - LDSAN_BLOCK_HEADER_SIZE + chunk, LDSAN_SHADOW_LDS_DYNAMIC_TAIL);
}

/* A READY bad-access record in the mini kernel at LDS offset `off`. */
static inline ldsan_report_record mini_record(int64_t off, uint32_t size, int write, uint8_t shadow) {
  ldsan_report_record r;
  memset(&r, 0, sizeof r);
  r.state = LDSAN_RECORD_READY;
  r.kind = LDSAN_REPORT_BAD_ACCESS;
  r.address = r.access_address = MINI_BLOCK + (uint64_t)off;
  r.size = size;
  r.pc = 0x7f0000001234ull;
  r.kernel_desc = MINI_DESC;
  r.block = MINI_BLOCK;
  r.flags = write ? LDSAN_ACCESS_WRITE : 0;
  r.shadow_byte = shadow;
  r.workgroup_id[0] = 3; r.workgroup_id[1] = 1;
  r.workitem_id[0] = 64;
  return r;
}

/* A read-after-write race on tile[0] (offset 32): work-item 64 reads at the
 * mini pc what work-item 3 wrote at 0x7f0000005678. */
static inline ldsan_report_record mini_race(void) {
  ldsan_report_record r = mini_record(32, 4, 0, 0);
  r.kind = LDSAN_REPORT_LDS_DATA_RACE;
  r.hazard = LDSAN_HAZARD_RAW;
  r.flags |= LDSAN_REPORT_DEFERRED;
  r.other_pc = 0x7f0000005678ull;
  r.other_workitem_id[0] = 3;
  r.other_lane = 3;
  r.other_size = 4;
  r.other_flags = LDSAN_ACCESS_WRITE;
  return r;
}

static const ldsan_dispatch_info mini_dispatch = {
    .kernel_name = "_Z2k1Pii", .grid_size = {4, 2, 1}, .block_size = {128, 1, 1}, .device = 0,
    .device_name = "gfx90a:xnack+"};

/* ---- a strict JSON checker (RFC 8259, UTF-8) for JSON report lines -------- */
typedef struct json_field {
  char name[64];
  char type;          /* s string, n number, b true/false, z null, a array, o object */
  const char *raw;    /* the value's text, e.g. "\"tile\"" or "[1,2,0]" */
  size_t raw_len;
} json_field;
typedef struct json_object { int n; json_field f[48]; } json_object;

static inline const char *json_value(const char *p, char *type, int depth);
static inline const char *json_ws(const char *p) {
  while (*p == ' ' || *p == '\t' || *p == '\n' || *p == '\r') p++;
  return p;
}
static inline const char *json_string(const char *p) {
  if (*p++ != '"') return NULL;
  for (;;) {
    unsigned char c = (unsigned char)*p;
    if (c == '"') return p + 1;
    if (c < 0x20) return NULL;  /* control characters must be escaped; NUL ends the text */
    if (c == '\\') {
      p++;
      if (*p == 'u') {
        for (int i = 1; i <= 4; i++)
          if (!strchr("0123456789abcdefABCDEF", p[i]) || !p[i]) return NULL;
        p += 5;
      } else if (*p && strchr("\"\\/bfnrt", *p)) {
        p++;
      } else {
        return NULL;
      }
      continue;
    }
    if (c < 0x80) { p++; continue; }
    int n = c >= 0xc2 && c <= 0xdf ? 2 : c >= 0xe0 && c <= 0xef ? 3 : c >= 0xf0 && c <= 0xf4 ? 4 : 0;
    if (!n) return NULL;
    for (int i = 1; i < n; i++)
      if (((unsigned char)p[i] & 0xc0) != 0x80) return NULL;
    p += n;
  }
}
static inline const char *json_number(const char *p) {
  if (*p == '-') p++;
  if (*p == '0') p++;
  else if (*p >= '1' && *p <= '9') while (*p >= '0' && *p <= '9') p++;
  else return NULL;
  if (*p == '.') { p++; if (!(*p >= '0' && *p <= '9')) return NULL; while (*p >= '0' && *p <= '9') p++; }
  if (*p == 'e' || *p == 'E') {
    p++;
    if (*p == '+' || *p == '-') p++;
    if (!(*p >= '0' && *p <= '9')) return NULL;
    while (*p >= '0' && *p <= '9') p++;
  }
  return p;
}
static inline const char *json_value(const char *p, char *type, int depth) {
  char t;
  if (depth > 16) return NULL;
  p = json_ws(p);
  if (*p == '"') { *type = 's'; return json_string(p); }
  if (!strncmp(p, "true", 4)) { *type = 'b'; return p + 4; }
  if (!strncmp(p, "false", 5)) { *type = 'b'; return p + 5; }
  if (!strncmp(p, "null", 4)) { *type = 'z'; return p + 4; }
  if (*p == '[' || *p == '{') {
    char close = *p == '[' ? ']' : '}';
    *type = *p == '[' ? 'a' : 'o';
    p = json_ws(p + 1);
    if (*p == close) return p + 1;
    for (;;) {
      if (close == '}') {
        if (!(p = json_string(json_ws(p)))) return NULL;
        p = json_ws(p);
        if (*p++ != ':') return NULL;
      }
      if (!(p = json_value(p, &t, depth + 1))) return NULL;
      p = json_ws(p);
      if (*p == close) return p + 1;
      if (*p++ != ',') return NULL;
    }
  }
  *type = 'n';
  return json_number(p);
}
/* Parses `line`: exactly one JSON object and a newline. Fills o with its
 * top-level fields in order; returns 0, or -1 (printing where it failed). */
static inline int json_parse_line(const char *line, json_object *o) {
  o->n = 0;
  const char *p = json_ws(line);
  char type;
  const char *end = json_value(p, &type, 0);
  if (!end || type != 'o' || strcmp(end, "\n") != 0) {
    fprintf(stderr, "not one JSON object and a newline (parsed up to byte %ld): %s\n",
            end ? (long)(end - line) : -1L, line);
    return -1;
  }
  p = json_ws(p + 1);
  while (*p == '"') {
    json_field *f = &o->f[o->n++];
    const char *name_end = json_string(p);
    snprintf(f->name, sizeof f->name, "%.*s", (int)(name_end - p - 2), p + 1);
    p = json_ws(json_ws(name_end) + 1);  /* past ':' */
    f->raw = p;
    p = json_value(p, &f->type, 0);
    f->raw_len = (size_t)(p - f->raw);
    p = json_ws(p);
    if (*p == ',') p = json_ws(p + 1);
    if (o->n == 48) break;
  }
  return 0;
}
static inline const json_field *json_get(const json_object *o, const char *name) {
  for (int i = 0; i < o->n; i++)
    if (!strcmp(o->f[i].name, name)) return &o->f[i];
  return NULL;
}
/* The raw text of field `name` ("(missing)" if absent), in a static buffer. */
static inline const char *json_raw(const json_object *o, const char *name) {
  static char buf[4096];
  const json_field *f = json_get(o, name);
  if (!f) return "(missing)";
  snprintf(buf, sizeof buf, "%.*s", (int)f->raw_len, f->raw);
  return buf;
}

/* The documented schema of a JSON report (docs/reports.md, "JSON reports"): every field,
 * in order, with the types it may have. */
static const struct { const char *name, *types; } json_schema[] = {
    {"ldsan_report", "n"}, {"pid", "n"},       {"type", "s"},         {"kernel", "sz"},
    {"variable", "sz"},    {"variable_size", "nz"}, {"offset", "nz"}, {"lds_offset", "nz"},
    {"access", "sz"},      {"size", "n"},      {"workgroup", "a"},    {"threads", "a"},
    {"addresses", "a"},    {"more_work_items", "n"}, {"other_workgroups", "n"}, {"pc", "sz"},
    {"function", "sz"},    {"location", "sz"}, {"device", "sz"},      {"device_index", "n"},
    {"recoverable", "b"},  {"severity", "s"},  {"hazard", "sz"},      {"same_wave", "b"},
    {"other", "oz"},       {"region", "oz"},
};
#define JSON_SCHEMA_FIELDS ((int)(sizeof json_schema / sizeof json_schema[0]))

/* Checks `line` parses and has exactly the schema's fields, in order, with
 * allowed types; fills o. */
#define CHECK_JSON_REPORT(line, o) check_json_report(line, o, __FILE__, __LINE__)
static inline void check_json_report(const char *line, json_object *o, const char *file, int ln) {
  if (json_parse_line(line, o) != 0) {
    fprintf(stderr, "%s:%d: not a JSON report line\n", file, ln);
    test_failures++;
    return;
  }
  if (o->n != JSON_SCHEMA_FIELDS) {
    fprintf(stderr, "%s:%d: JSON report has %d fields, schema %d: %s", file, ln, o->n, JSON_SCHEMA_FIELDS, line);
    test_failures++;
  }
  for (int i = 0; i < o->n && i < JSON_SCHEMA_FIELDS; i++)
    if (strcmp(o->f[i].name, json_schema[i].name) || !strchr(json_schema[i].types, o->f[i].type)) {
      fprintf(stderr, "%s:%d: JSON field %d is \"%s\" of type %c, schema says \"%s\" of type [%s]\n", file, ln, i,
              o->f[i].name, o->f[i].type, json_schema[i].name, json_schema[i].types);
      test_failures++;
    }
}

#endif /* LDSAN_HOST_TEST_H */
