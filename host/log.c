/* ldsan host library: the report stream (option log_path). Opened once, on the
 * first report, and kept open; callers hold the report mutex. */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "internal.h"

static FILE *override_stream;
static FILE *log_file;

void ldsan_log_override(FILE *f) { override_stream = f; }

FILE *ldsan_log_stream(void) {
  if (override_stream) return override_stream;
  ldsan_host_init();
  const char *path = ldsan_flags_get()->log_path;
  if (!strcmp(path, "stderr")) return stderr;
  if (!strcmp(path, "stdout")) return stdout;
  if (log_file) return log_file;
  char name[sizeof(ldsan_flag_path) + 24];
  snprintf(name, sizeof name, "%s.%ld", path, (long)getpid());
  log_file = fopen(name, "a");
  if (!log_file) {
    fprintf(stderr, "ldsan: warning: cannot open log file '%s' (log_path=%s); writing reports to stderr\n",
            name, path);
    log_file = stderr;
  }
  return log_file;
}
