/* ldsan host library: the report stream (option log_path, ASan's naming
 * "<log_path>.<pid>"). Opened once, on the first report, in append mode, and
 * kept open; callers hold the report mutex.
 * The file is opened as ASan opens its own: mode 0660, close-on-exec, and
 * never through a symbolic link at its name (one someone else planted there
 * would send the reports wherever it points): reports then go to stderr.
 * Reports must never be lost: when a write to the file fails (a full disk,
 * RLIMIT_FSIZE), one line on stderr says so and every report from then on
 * (that one whole, from the start of the failed write) goes to stderr.
 * With host ASan in the process writing its reports to the same file
 * (ASAN_OPTIONS=log_path), ASan would open that file on its first report with
 * O_TRUNC and write at its own offset, erasing ldsan's reports. So when
 * ASan's report file is the one ldsan opens, ldsan hands ASan its own
 * append-mode descriptor (__sanitizer_set_report_fd) and both append. */
#define _GNU_SOURCE  /* fopencookie */
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "internal.h"

/* compiler-rt's sanitizer interface; NULL without host ASan. */
extern const char *__sanitizer_get_report_path(void) __attribute__((weak));
extern void __sanitizer_set_report_fd(void *fd) __attribute__((weak));

static FILE *override_stream;
static FILE *log_file;
static pid_t log_pid; /* the process that opened log_file */

/* The open log file behind log_file: a stdio stream whose buffer this writes
 * out (fopencookie), so a failed write still has the text to send elsewhere. */
typedef struct log_sink {
  int fd;              /* the file */
  int out;             /* where writes go: fd; after a failed write stderr, or -1 (nowhere) */
  const char *path;    /* log_path, for the message (a copy, in text) */
  char *name;          /* "<log_path>.<pid>" (in text) */
  char text[];
} log_sink;

/* Room for a drain's reports in one write (a drain flushes after them): the
 * text of a failed write, sent to stderr whole, then starts where a report does. */
#define LOG_BUFFER_SIZE (64 * 1024)

/* Writes all n bytes to fd; 0, or -1 with errno set. */
static int write_all(int fd, const char *buf, size_t n) {
  while (n) {
    ssize_t w = write(fd, buf, n);
    if (w < 0 && errno == EINTR) continue;
    if (w < 0) return -1;
    if (w == 0) { errno = EIO; return -1; }
    buf += w;
    n -= (size_t)w;
  }
  return 0;
}

/* Whether descriptors a and b are one open file (then writing to the other
 * does not help). A closed b counts as the same: nothing can go there. */
static int same_file(int a, int b) {
  struct stat sa, sb;
  if (a == b || fstat(b, &sb) != 0) return 1;
  return fstat(a, &sa) == 0 && sa.st_dev == sb.st_dev && sa.st_ino == sb.st_ino;
}

static ssize_t sink_write(void *cookie, const char *buf, size_t n) {
  log_sink *s = cookie;
  if (s->out == s->fd) {
    if (write_all(s->fd, buf, n) == 0) return (ssize_t)n;
    /* Straight to the descriptor: no stdio lock taken inside a stdio callback. */
    dprintf(STDERR_FILENO, "ldsan: warning: cannot write reports to log file '%s' (log_path=%s): %s; writing "
            "them to stderr from now on (free space on its file system, raise the file size limit, or set "
            "log_path to another place)\n", s->name, s->path, strerror(errno));
    /* stderr is that file, or closed: the reports have nowhere to go. */
    s->out = same_file(s->fd, STDERR_FILENO) ? -1 : STDERR_FILENO;
  }
  if (s->out >= 0) write_all(s->out, buf, n);
  /* Written, whatever happened: else stdio keeps the text and fails every
   * later write to the stream. */
  return (ssize_t)n;
}

static int sink_close(void *cookie) {
  log_sink *s = cookie;
  int rc = close(s->fd);
  free(s);
  return rc;
}

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

/* Why "<log_path>.<pid>" could not be opened (errno from open), on stderr. */
static void open_failed(const char *name, const char *path) {
  int err = errno;
  struct stat st;
  if (err == ELOOP && lstat(name, &st) == 0 && S_ISLNK(st.st_mode))
    fprintf(stderr, "ldsan: warning: log file '%s' (log_path=%s) is a symbolic link: not following it, "
            "reports go to stderr; remove it or set log_path to a directory only you can write\n", name, path);
  else
    fprintf(stderr, "ldsan: warning: cannot open log file '%s' (log_path=%s): %s; writing reports to stderr\n",
            name, path, strerror(err));
}

/* Opens "<path>.<pid>" for appending; NULL after saying why on stderr. */
static FILE *open_log(const char *path) {
  size_t path_len = strlen(path), name_len = path_len + 24;
  log_sink *s = malloc(sizeof *s + path_len + 1 + name_len);
  if (!s) {
    fprintf(stderr, "ldsan: warning: out of memory naming the log file (log_path of %zu bytes); writing reports to stderr\n",
            path_len);
    return NULL;
  }
  memcpy(s->text, path, path_len + 1);
  s->path = s->text;
  s->name = s->text + path_len + 1;
  snprintf(s->name, name_len, "%s.%ld", path, (long)getpid());
  s->fd = s->out = open(s->name, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC | O_NOFOLLOW, 0660);
  if (s->fd < 0) {
    open_failed(s->name, path);
    free(s);
    return NULL;
  }
  cookie_io_functions_t io = {.write = sink_write, .close = sink_close};
  FILE *f = fopencookie(s, "a", io);
  if (!f) {
    fprintf(stderr, "ldsan: warning: cannot open a stream on log file '%s' (log_path=%s): %s; writing reports "
            "to stderr\n", s->name, path, strerror(errno));
    close(s->fd);
    free(s);
    return NULL;
  }
  setvbuf(f, NULL, _IOFBF, LOG_BUFFER_SIZE);
  const char *asan = asan_report_path();
  if (asan && !strcmp(asan, s->name)) __sanitizer_set_report_fd((void *)(intptr_t)s->fd);
  return f;
}

FILE *ldsan_log_stream(void) {
  if (override_stream) return override_stream;
  ldsan_host_init();
  const char *path = ldsan_flags_get()->log_path;
  if (!strcmp(path, "stderr")) return stderr;
  if (!strcmp(path, "stdout")) return stdout;
  if (log_file && log_pid != getpid()) {
    /* A forked child: its reports go to its own "<log_path>.<pid>", as
     * ASan's (ReportFile reopens when the pid changes). The parent's stream
     * is flushed after every drain, so closing this copy writes nothing. */
    ldsan_log_close();
  }
  if (!log_file) {
    log_file = open_log(path);
    if (!log_file) log_file = stderr;
    log_pid = getpid();
  }
  return log_file;
}
