/* ldsan host library: what a report record is, whoever asks (drain, dedup,
 * printers): its bug name (ASan's and ldsan's kebab-case names, from the
 * report kind, the recorded shadow value and where the address lies), whether
 * it is a hazard, an error or a warning, and a hazard's second access as a
 * record of its own. Prints nothing. */
#include <string.h>

#include "report_ctx.h"

static const char *kind_name(uint32_t kind) {
  switch (kind) {
#define LDSAN_REPORT_KIND(ENUM, value, name, description) case value: return name;
#include "ldsan/report_kinds.def"
#undef LDSAN_REPORT_KIND
  default: return "unknown-crash";
  }
}

/* Bug name when the recorded shadow value alone does not decide (0, 1..7):
 * from where the address is, else like ASan from the next granule's shadow. */
static const char *inconclusive_name(const ldsan_report_record *r, const ldsan_device_memory *mem,
                                     uint64_t shadow_offset, const ldsan_location *loc) {
  switch (loc ? loc->where : LDSAN_WHERE_UNKNOWN) {
  case LDSAN_WHERE_HEADER: case LDSAN_WHERE_SLOT: return "lds-buffer-underflow";
  case LDSAN_WHERE_DYNAMIC_AFTER: return "dynamic-lds-buffer-overflow";
  case LDSAN_WHERE_UNKNOWN: break;
  default: return "lds-buffer-overflow";
  }
  uint8_t next;
  if (mem && ldsan_shadow_read(mem, shadow_offset, r->address + LDSAN_SHADOW_GRANULE, &next) == 0 && next >= 8) {
    const char *n = ldsan_shadow_bug_name(next);
    if (n) return n;
  }
  return (r->block && r->address >= r->block) ? "lds-buffer-overflow" : "unknown-crash";
}

const char *ldsan_report_bug_of(const ldsan_report_record *r, const ldsan_device_memory *mem, uint64_t shadow_offset,
                                const ldsan_location *loc) {
  if (r->kind != LDSAN_REPORT_BAD_ACCESS) return kind_name(r->kind);
  uint8_t s = (uint8_t)r->shadow_byte;
  if (s < 8) return inconclusive_name(r, mem, shadow_offset, loc);
  /* An LDS redzone byte below a variable (the slot's padding before the first
   * one) is an underflow of that variable, whatever byte the compiler wrote. */
  int lds_byte = s == LDSAN_SHADOW_LDS_REDZONE || s == LDSAN_SHADOW_LDS_BLOCK_HEADER || s == LDSAN_SHADOW_LDS_COMPILER_SLOT;
  if (lds_byte && loc && (loc->where == LDSAN_WHERE_BEFORE || loc->where == LDSAN_WHERE_HEADER || loc->where == LDSAN_WHERE_SLOT))
    return "lds-buffer-underflow";
  const char *n = ldsan_shadow_bug_name(s);
  return n ? n : "unknown-crash";
}

const char *ldsan_host_bug_name(const ldsan_report_record *record) {
  return ldsan_report_bug_of(record, NULL, 0, NULL);
}

int ldsan_report_is_hazard(uint32_t kind) { return kind >= LDSAN_REPORT_LDS_DATA_RACE && kind <= LDSAN_REPORT_BARRIER_DIVERGENCE; }

int ldsan_report_is_error(const ldsan_report_record *r) { return !(r->flags & LDSAN_REPORT_WARNING); }

const char *ldsan_hazard_name(uint32_t hazard) {
  switch (hazard) {
  case LDSAN_HAZARD_RAW: return "read-after-write";
  case LDSAN_HAZARD_WAR: return "write-after-read";
  case LDSAN_HAZARD_WAW: return "write-after-write";
  case LDSAN_HAZARD_BARRIER_SKIPPED: return "skipped-barrier";
  default: return NULL;
  }
}

void ldsan_report_other_record(const ldsan_report_record *r, ldsan_report_record *other) {
  *other = *r;
  other->pc = r->other_pc;
  memcpy(other->workitem_id, r->other_workitem_id, sizeof other->workitem_id);
  other->lane = r->other_lane;
  other->size = r->other_size;
  other->flags = r->other_flags | (r->flags & LDSAN_REPORT_OTHER_UNKNOWN);
}
