/* Fuzz target: the options strings (host/flags.c). The input is ASAN_OPTIONS,
 * a NUL, then LDSAN_OPTIONS (to the next NUL or the end), loaded as
 * ldsan_host_init does. Besides memory errors it checks what flags.c promises:
 * the error count matches the "ldsan: error:" messages, every option keeps a
 * value of its type (colour and format from their lists, non-empty log path)
 * and help=1's listing names every option once. Never touches the environment
 * or the file system (log_path is only parsed, never opened). */
#include "fuzz.h"

/* How many options flags.inc declares. */
enum {
#define LDSAN_FLAG(type, name, default_value, description) option_##name,
#include "flags.inc"
#undef LDSAN_FLAG
  option_count
};

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  fuzz_input in = {data, size};
  char *asan = fuzz_string(&in), *ldsan = fuzz_string(&in);

  capture c;
  capture_begin(&c);
  int errors = ldsan_flags_load(asan, ldsan, c.f);
  const char *out = capture_end(&c);
  int error_lines = fuzz_lines_starting(out, "ldsan: error: ");
  /* A quoted value may hold a newline and "ldsan: error: " itself: >=, not ==. */
  PROPERTY(error_lines >= errors, "%d errors, %d error lines:\n%s", errors, error_lines, out);
  PROPERTY((errors == 0) == (strstr(out, "ldsan: error:") == NULL), "%d errors; output:\n%s", errors, out);
  capture_free(&c);

  const ldsan_flags *f = ldsan_flags_get();
  PROPERTY(!strcmp(f->color, "auto") || !strcmp(f->color, "always") || !strcmp(f->color, "never"), "color '%s'",
           f->color);
  PROPERTY(!strcmp(f->report_format, "text") || !strcmp(f->report_format, "json"), "report_format '%s'",
           f->report_format);
  PROPERTY(f->log_path && *f->log_path, "empty log_path");
  PROPERTY(f->external_symbolizer_path != NULL, "no external_symbolizer_path");
  PROPERTY(f->halt_on_error == 0 || f->halt_on_error == 1, "halt_on_error %d", f->halt_on_error);
  PROPERTY(f->dedup == 0 || f->dedup == 1, "dedup %d", f->dedup);

  capture_begin(&c);
  ldsan_host_print_help(c.f);
  out = capture_end(&c);
  int listed = fuzz_lines_starting(out, "ldsan: option ");
  PROPERTY(listed >= option_count, "help lists %d of %d options:\n%s", listed, option_count, out);
  capture_free(&c);

  free(asan);
  free(ldsan);
  return 0;
}
