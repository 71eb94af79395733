/* ldsan host library: which records of one drain make one report (option
 * dedup). A record whose bounds report already says it (an uninitialized read
 * of bytes outside every LDS variable) is redundant; the others are keyed by
 * kernel, kind, bug and the code that made them: the source location of the
 * pc (and of a hazard's other pc), so the copies an unrolled or duplicated
 * loop makes of one access fold into one report, else the pc itself.
 * Reads report contexts the drain built (report_ctx.c); prints nothing.
 * Threading: called with the report mutex held (drain.c). */
#include <string.h>

#include "report_ctx.h"

int ldsan_dedup_is_redundant(const report_ctx *c) {
  const ldsan_report_record *r = c->r;
  if (r->kind != LDSAN_REPORT_LDS_UNINIT_READ || !r->block || !r->size || r->size > 64) return 0;
  int outside = c->desc.valid && c->in_block && r->address >= r->block;
  for (uint64_t k = 0; outside && k < r->size; k++)
    outside = ldsan_desc_locate(&c->desc, (int64_t)(r->address - r->block + k), c->dyn).where != LDSAN_WHERE_INSIDE;
  return outside;
}

static uint64_t fnv(uint64_t h, const void *p, size_t n) {
  for (size_t i = 0; i < n; i++) h = (h ^ ((const unsigned char *)p)[i]) * 1099511628211ull;
  return h;
}

/* Where pc's code is in the source, for dedup: a hash of its symbolized frames
 * (function, file, line and column of each inlined frame), so the copies an
 * unrolled or duplicated loop makes of one access fold into one report; 0 when
 * the pc is unknown or has no source line and column (symbolize=0 too, or
 * -gno-column-info: two accesses of one line stay apart): then the pc itself
 * is the key. */
static uint64_t source_site(uint64_t pc, const ldsan_dispatch_info *d) {
  if (!d || !d->symbolize || !ldsan_flags_get()->symbolize) return 0;
  ldsan_frame frames[LDSAN_MAX_FRAMES];
  int n = d->symbolize(d->symbolize_ctx, pc, frames, LDSAN_MAX_FRAMES);
  if (n <= 0 || !frames[0].file || !frames[0].line || !frames[0].column) return 0;
  if (n > LDSAN_MAX_FRAMES) n = LDSAN_MAX_FRAMES;
  uint64_t h = 14695981039346656037ull;
  for (int i = 0; i < n; i++) {
    const char *fn = frames[i].function ? frames[i].function : "", *file = frames[i].file ? frames[i].file : "";
    h = fnv(h, fn, strlen(fn) + 1);
    h = fnv(h, file, strlen(file) + 1);
    h = fnv(h, &frames[i].line, sizeof frames[i].line);
    h = fnv(h, &frames[i].column, sizeof frames[i].column);
  }
  return h ? h : 1;
}

/* The pcs of one drain already looked up (most records share a few pcs),
 * under the report mutex: two per record a drain can hold. */
typedef struct pc_site { uint64_t pc, site; } pc_site;
static pc_site site_cache[2 * (LDSAN_CHANNEL_CAPACITY + LDSAN_CHANNEL_FIRST)];
static uint32_t site_cached;

void ldsan_dedup_forget_sites(void) { site_cached = 0; }

static uint64_t cached_site(uint64_t pc, const ldsan_dispatch_info *d) {
  if (!pc) return 0;
  for (uint32_t i = 0; i < site_cached; i++)
    if (site_cache[i].pc == pc) return site_cache[i].site;
  uint64_t site = source_site(pc, d);
  if (site_cached < sizeof site_cache / sizeof site_cache[0]) site_cache[site_cached++] = (pc_site){pc, site};
  return site;
}

ldsan_dedup_key ldsan_dedup_key_of(const report_ctx *c, int dedup) {
  const ldsan_report_record *r = c->r;
  ldsan_dedup_key k;
  memset(&k, 0, sizeof k);
  k.kind = r->kind;
  k.write = r->flags & LDSAN_ACCESS_WRITE;
  k.kernel_desc = r->kernel_desc;
  k.pc = r->pc;
  k.hazard = r->hazard;
  k.same_wave = r->flags & LDSAN_ACCESS_SAME_WAVE;
  k.other_pc = r->other_pc;
  k.site = dedup ? cached_site(r->pc, c->dispatch) : 0;
  k.other_site = dedup ? cached_site(r->other_pc, c->dispatch) : 0;
  k.where = r->pc ? 0 : r->address - r->block;
  k.bug = c->bug;
  return k;
}

/* The same code: the same source location when both have one, else the same pc. */
static int same_code(uint64_t pc_a, uint64_t site_a, uint64_t pc_b, uint64_t site_b) {
  return site_a && site_b ? site_a == site_b : pc_a == pc_b;
}

int ldsan_dedup_same(const ldsan_dedup_key *a, const ldsan_dedup_key *b) {
  return a->kind == b->kind && a->write == b->write && a->hazard == b->hazard && a->same_wave == b->same_wave &&
         a->kernel_desc == b->kernel_desc && same_code(a->pc, a->site, b->pc, b->site) &&
         same_code(a->other_pc, a->other_site, b->other_pc, b->other_site) && a->where == b->where &&
         strcmp(a->bug, b->bug) == 0;
}
