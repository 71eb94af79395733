/* ldsan memintrinsics: __asan_memcpy/memmove/memset, which ASan calls in place of
 * llvm.mem* on instrumented code. Each checks its whole ranges (a report names
 * the first poisoned byte) and then does the operation with a byte loop. */
#include "entry_points.h"
#include "runtime.h"

#define PC __ldsan_return_address()
#define ADDR(p) ((uint64_t)(uintptr_t)(p))

LDSAN_ENTRY_FN void *LDSAN_ENTRY(__asan_memcpy)(void *dst, const void *src, size_t n) {
  __ldsan_check_access(ADDR(src), n, LDSAN_ACCESS_RANGE, PC);
  __ldsan_check_access(ADDR(dst), n, LDSAN_ACCESS_RANGE | LDSAN_ACCESS_WRITE, PC);
  unsigned char *d = dst;
  const unsigned char *s = src;
  for (size_t i = 0; i < n; ++i) d[i] = s[i];
  return dst;
}

LDSAN_ENTRY_FN void *LDSAN_ENTRY(__asan_memmove)(void *dst, const void *src, size_t n) {
  __ldsan_check_access(ADDR(src), n, LDSAN_ACCESS_RANGE, PC);
  __ldsan_check_access(ADDR(dst), n, LDSAN_ACCESS_RANGE | LDSAN_ACCESS_WRITE, PC);
  unsigned char *d = dst;
  const unsigned char *s = src;
  if (ADDR(d) < ADDR(s)) { /* overlap-safe: copy away from the other range */
    for (size_t i = 0; i < n; ++i) d[i] = s[i];
  } else {
    for (size_t i = n; i > 0; --i) d[i - 1] = s[i - 1];
  }
  return dst;
}

LDSAN_ENTRY_FN void *LDSAN_ENTRY(__asan_memset)(void *dst, int c, size_t n) {
  __ldsan_check_access(ADDR(dst), n, LDSAN_ACCESS_RANGE | LDSAN_ACCESS_WRITE, PC);
  unsigned char *d = dst;
  for (size_t i = 0; i < n; ++i) d[i] = (unsigned char)c;
  return dst;
}
