/* ldsan host library: the report stream (option log_path, ASan's naming
 * "<log_path>.<pid>"). Opened once, on the first report, in append mode, and
 * kept open; callers hold the report mutex.
 * With host ASan in the process writing its reports to the same file
 * (ASAN_OPTIONS=log_path), ASan would open that file on its first report with
 * O_TRUNC and write at its own offset, erasing ldsan's reports. So when
 * ASan's report file is the one ldsan opens, ldsan hands ASan its own
 * append-mode descriptor (__sanitizer_set_report_fd) and both append. */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "internal.h"

/* compiler-rt's sanitizer interface; NULL without host ASan. */
extern const char *__sanitizer_get_report_path(void) __attribute__((weak));
extern void __sanitizer_set_report_fd(void *fd) __attribute__((weak));

static FILE *override_stream;
static FILE *log_file;

void ldsan_log_override(FILE *f) { override_stream = f; }

void ldsan_log_close(void) {
  if (log_file && log_file != stderr) fclose(log_file);
  log_file = NULL;
}

/* ASan's report file, if ASan is here and writes to a file (opening it now,
 * before ldsan writes anything, so its O_TRUNC cannot erase ldsan's reports). */
static const char *asan_report_path(void) {
  if (!__sanitizer_get_report_path || !__sanitizer_set_report_fd) return NULL;
  const char *p = __sanitizer_get_report_path();
  return p && *p ? p : NULL;
}

FILE *ldsan_log_stream(void) {
  if (override_stream) return override_stream;
  ldsan_host_init();
  const char *path = ldsan_flags_get()->log_path;
  if (!strcmp(path, "stderr")) return stderr;
  if (!strcmp(path, "stdout")) return stdout;
  if (log_file) return log_file;
  size_t len = strlen(path) + 24;
  char *name = malloc(len);
  if (!name) {
    fprintf(stderr, "ldsan: warning: out of memory naming the log file (log_path of %zu bytes); writing reports to stderr\n",
            strlen(path));
    return log_file = stderr;
  }
  snprintf(name, len, "%s.%ld", path, (long)getpid());
  const char *asan = asan_report_path();
  int fd = open(name, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0666);
  log_file = fd >= 0 ? fdopen(fd, "a") : NULL;
  if (!log_file) {
    fprintf(stderr, "ldsan: warning: cannot open log file '%s' (log_path=%s): %s; writing reports to stderr\n",
            name, path, strerror(errno));
    if (fd >= 0) close(fd);
    log_file = stderr;
  } else if (asan && !strcmp(asan, name)) {
    __sanitizer_set_report_fd((void *)(intptr_t)fd);
  }
  free(name);
  return log_file;
}
