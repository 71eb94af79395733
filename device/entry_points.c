/* ldsan compiler ABI: the __asan_{report_,}{load,store}{1..16,_n,N}{,_noabort}
 * and _exp_ matrix, generated from entry_points.def, plus the shadow query and
 * poisoning entry points. Every body is one call; every function is noinline
 * so __ldsan_return_address() is the instrumented caller. The experiment value
 * `exp` of the _exp_ variants carries nothing ldsan records. */
#include "entry_points.h"
#include "runtime.h"

#define PC __ldsan_return_address()
#define WRITE_FLAG(is_write) ((is_write) ? (uint32_t)LDSAN_ACCESS_WRITE : 0u)

#define LDSAN_DEFINE_SIZED(op, is_write, BYTES)                                              \
  LDSAN_ENTRY_FN void LDSAN_ENTRY(__asan_report_##op##BYTES)(uint64_t addr) {                \
    __ldsan_report_access(addr, BYTES, WRITE_FLAG(is_write), PC);                            \
  }                                                                                          \
  LDSAN_ENTRY_FN void LDSAN_ENTRY(__asan_report_##op##BYTES##_noabort)(uint64_t addr) {      \
    __ldsan_report_access(addr, BYTES, WRITE_FLAG(is_write) | LDSAN_ACCESS_NOABORT, PC);     \
  }                                                                                          \
  LDSAN_ENTRY_FN void LDSAN_ENTRY(__asan_report_exp_##op##BYTES)(uint64_t addr, int32_t exp) { \
    (void)exp;                                                                               \
    __ldsan_report_access(addr, BYTES, WRITE_FLAG(is_write), PC);                            \
  }                                                                                          \
  LDSAN_ENTRY_FN void LDSAN_ENTRY(__asan_##op##BYTES)(uint64_t addr) {                       \
    __ldsan_check_access(addr, BYTES, WRITE_FLAG(is_write), PC);                             \
  }                                                                                          \
  LDSAN_ENTRY_FN void LDSAN_ENTRY(__asan_##op##BYTES##_noabort)(uint64_t addr) {             \
    __ldsan_check_access(addr, BYTES, WRITE_FLAG(is_write) | LDSAN_ACCESS_NOABORT, PC);      \
  }                                                                                          \
  LDSAN_ENTRY_FN void LDSAN_ENTRY(__asan_exp_##op##BYTES)(uint64_t addr, int32_t exp) {      \
    (void)exp;                                                                               \
    __ldsan_check_access(addr, BYTES, WRITE_FLAG(is_write), PC);                             \
  }

#define RANGE_FLAGS(is_write) (WRITE_FLAG(is_write) | LDSAN_ACCESS_RANGE)
#define LDSAN_DEFINE_RANGE(op, is_write)                                                          \
  LDSAN_ENTRY_FN void LDSAN_ENTRY(__asan_report_##op##_n)(uint64_t addr, uint64_t size) {         \
    __ldsan_report_access(addr, size, RANGE_FLAGS(is_write), PC);                                 \
  }                                                                                               \
  LDSAN_ENTRY_FN void LDSAN_ENTRY(__asan_report_##op##_n_noabort)(uint64_t addr, uint64_t size) { \
    __ldsan_report_access(addr, size, RANGE_FLAGS(is_write) | LDSAN_ACCESS_NOABORT, PC);          \
  }                                                                                               \
  LDSAN_ENTRY_FN void LDSAN_ENTRY(__asan_report_exp_##op##_n)(uint64_t addr, uint64_t size,       \
                                                              int32_t exp) {                      \
    (void)exp;                                                                                    \
    __ldsan_report_access(addr, size, RANGE_FLAGS(is_write), PC);                                 \
  }                                                                                               \
  LDSAN_ENTRY_FN void LDSAN_ENTRY(__asan_##op##N)(uint64_t addr, uint64_t size) {                 \
    __ldsan_check_access(addr, size, RANGE_FLAGS(is_write), PC);                                  \
  }                                                                                               \
  LDSAN_ENTRY_FN void LDSAN_ENTRY(__asan_##op##N_noabort)(uint64_t addr, uint64_t size) {         \
    __ldsan_check_access(addr, size, RANGE_FLAGS(is_write) | LDSAN_ACCESS_NOABORT, PC);           \
  }                                                                                               \
  LDSAN_ENTRY_FN void LDSAN_ENTRY(__asan_exp_##op##N)(uint64_t addr, uint64_t size, int32_t exp) { \
    (void)exp;                                                                                    \
    __ldsan_check_access(addr, size, RANGE_FLAGS(is_write), PC);                                  \
  }

/* The .def tables give sizes and ops separately: one glue macro per op. */
#define LDSAN_DEFINE_load(BYTES) LDSAN_DEFINE_SIZED(load, 0, BYTES)
#define LDSAN_DEFINE_store(BYTES) LDSAN_DEFINE_SIZED(store, 1, BYTES)
#define LDSAN_DEFINE_OP(op, is_write) LDSAN_ACCESS_SIZES(LDSAN_DEFINE_##op) LDSAN_DEFINE_RANGE(op, is_write)
LDSAN_ACCESS_OPS(LDSAN_DEFINE_OP)

/* Returns the first poisoned address of [beg, beg+size), or 0 if none. */
LDSAN_ENTRY_FN uint64_t LDSAN_ENTRY(__asan_region_is_poisoned)(uint64_t beg, uint64_t size) {
  uint64_t bad = 0;
  return __ldsan_find_poisoned(beg, size, &bad, 0) ? bad : 0;
}

/* The lowered kernel's call on each static LDS variable's right redzone. */
LDSAN_ENTRY_FN void LDSAN_ENTRY(__asan_poison_region)(uint64_t addr, uint64_t size) {
  __ldsan_poison_lanes(addr, size, LDSAN_SHADOW_LDS_REDZONE);
}

/* Public API (sanitizer/asan_interface.h): 0xf7 is ASan's user-poisoned magic. */
LDSAN_ENTRY_FN void LDSAN_ENTRY(__asan_poison_memory_region)(uint64_t addr, uint64_t size) {
  __ldsan_poison_lanes(addr, size, 0xf7u);
}

LDSAN_ENTRY_FN void LDSAN_ENTRY(__asan_unpoison_memory_region)(uint64_t addr, uint64_t size) {
  __ldsan_unpoison_lanes(addr, size);
}

/* The plugin's sized reports (entry_points.def): one access of `size` bytes at
 * addr that the inline check found bad; the record says the access's real size. */
#define LDSAN_DEFINE_REPORT_SIZED(op, is_write)                                                  \
  LDSAN_ENTRY_FN void __ldsan_report_##op##_sized(uint64_t addr, uint64_t size) {                \
    __ldsan_report_access(addr, size, WRITE_FLAG(is_write), PC);                                 \
  }                                                                                              \
  LDSAN_ENTRY_FN void __ldsan_report_##op##_sized_noabort(uint64_t addr, uint64_t size) {        \
    __ldsan_report_access(addr, size, WRITE_FLAG(is_write) | LDSAN_ACCESS_NOABORT, PC);          \
  }
LDSAN_ACCESS_OPS(LDSAN_DEFINE_REPORT_SIZED)
