/* ldsan fuzz targets (libFuzzer): what every target shares. host_test.h's fake
 * device memory and descriptor builder, an input reader that takes the
 * fuzzer's bytes field by field (bytes past the end read as 0), and
 * PROPERTY(), which aborts (libFuzzer then saves the input as a crash) when a
 * promise of the code under test does not hold: crashes and sanitizer reports
 * are not the only failures a fuzzer finds. Header-only, one target per .c. */
#ifndef LDSAN_FUZZ_H
#define LDSAN_FUZZ_H

#include "host_test.h"

#define PROPERTY(cond, ...)                                                           \
  do {                                                                                \
    if (!(cond)) {                                                                    \
      fprintf(stderr, "%s:%d: property failed: %s\n    ", __FILE__, __LINE__, #cond); \
      fprintf(stderr, __VA_ARGS__);                                                   \
      fputc('\n', stderr);                                                            \
      abort();                                                                        \
    }                                                                                 \
  } while (0)

typedef struct fuzz_input { const uint8_t *p; size_t n; } fuzz_input;

/* Takes the bytes up to the next NUL (or the end of the input) as a new
 * heap string; the NUL is consumed. */
static inline char *fuzz_string(fuzz_input *in) {
  const uint8_t *nul = memchr(in->p, 0, in->n);
  size_t len = nul ? (size_t)(nul - in->p) : in->n;
  char *s = malloc(len + 1);
  if (!s) abort();
  memcpy(s, in->p, len);
  s[len] = 0;
  in->p += len + (nul != NULL);
  in->n -= len + (nul != NULL);
  return s;
}

/* Takes n bytes into dst; what the input lacks is zero. */
static inline void fuzz_bytes(fuzz_input *in, void *dst, size_t n) {
  size_t k = n < in->n ? n : in->n;
  memset(dst, 0, n);
  memcpy(dst, in->p, k);
  in->p += k;
  in->n -= k;
}

/* Occurrences of the line start `prefix` in text (at its start or after '\n'). */
static inline int fuzz_lines_starting(const char *text, const char *prefix) {
  int n = 0;
  size_t len = strlen(prefix);
  for (const char *p = text; p && *p; p = strchr(p, '\n'), p = p ? p + 1 : NULL)
    if (!strncmp(p, prefix, len)) n++;
  return n;
}

#endif /* LDSAN_FUZZ_H */
