/* ldsan drivers: what kind of input a command-line word names (input_kind.h).
 * Single-threaded (driver processes). */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE /* strdup, PATH_MAX */
#endif
#include "input_kind.h"

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

int ldsan_cc_ends_with(const char *s, const char *suffix) {
  size_t n = strlen(s), m = strlen(suffix);
  return n >= m && strcmp(s + n - m, suffix) == 0;
}

int ldsan_cc_is_hip_source(const char *path) {
  return ldsan_cc_ends_with(path, ".hip") || ldsan_cc_ends_with(path, ".cu");
}

int ldsan_cc_is_object(const char *path) {
  static const char *const suffixes[] = {".o", ".obj", ".a", ".so", ".lo"};
  for (size_t i = 0; i < sizeof suffixes / sizeof *suffixes; i++)
    if (ldsan_cc_ends_with(path, suffixes[i])) return 1;
  const char *so = strstr(path, ".so.");
  if (!so) return 0;
  for (const char *p = so + 3; *p; p++)
    if (!(*p == '.' || (*p >= '0' && *p <= '9'))) return 0;
  return 1;
}

void ldsan_cc_find_include_dirs(int argc, char **argv, ldsan_cc_include_dirs *dirs) {
  dirs->n = 0;
  for (int i = 1; i < argc && dirs->n < LDSAN_CC_MAX_INCLUDE_DIRS; i++) {
    const char *a = argv[i];
    if ((!strcmp(a, "-I") || !strcmp(a, "-iquote")) && i + 1 < argc) dirs->dir[dirs->n++] = argv[++i];
    else if (!strncmp(a, "-I", 2) && a[2]) dirs->dir[dirs->n++] = a + 2;
    else if (!strncmp(a, "-iquote", 7) && a[7]) dirs->dir[dirs->n++] = a + 7;
  }
}

/* How far the search follows a source's includes: files read, nesting. */
#define INCLUDE_MAX_FILES 256
#define INCLUDE_MAX_DEPTH 16

struct include_search {
  const ldsan_cc_include_dirs *dirs;
  char *seen[INCLUDE_MAX_FILES];
  int nseen;
};

/* Whether text says it uses HIP: the runtime header, a kernel, a launch. */
static int text_uses_hip(const char *text) {
  return strstr(text, "hip/hip_runtime.h") || strstr(text, "__global__") || strstr(text, "hipLaunchKernel") ||
         strstr(text, "<<<");
}

/* Reads at most 1 MiB of path into a new NUL-terminated string (NULs in it
 * become spaces); NULL if it cannot be read. */
static char *read_text(const char *path) {
  FILE *f = fopen(path, "rb");
  if (!f) return NULL;
  enum { kMax = 1 << 20 };
  char *buf = malloc(kMax + 1);
  size_t n = buf ? fread(buf, 1, kMax, f) : 0;
  fclose(f);
  if (!buf) return NULL;
  buf[n] = '\0';
  for (size_t k = 0; k < n; k++)
    if (!buf[k]) buf[k] = ' ';  /* a NUL would end the search early */
  return buf;
}

static int file_uses_hip(struct include_search *s, const char *path, int depth);

/* The file an #include names, looked up as the compiler would: a quoted name
 * beside the including file first, then in the -I/-iquote directories; an
 * angled one in the -I directories only (system headers are not the
 * project's and are not followed). Whether it (or what it includes) uses HIP. */
static int include_uses_hip(struct include_search *s, const char *from, const char *name, int quoted, int depth) {
  char path[PATH_MAX];
  if (name[0] == '/') return file_uses_hip(s, name, depth);
  if (quoted) {
    const char *slash = strrchr(from, '/');
    int dir_len = slash ? (int)(slash - from) : 0;
    snprintf(path, sizeof path, "%.*s%s%s", dir_len, from, slash ? "/" : "", name);
    if (access(path, R_OK) == 0) return file_uses_hip(s, path, depth);
  }
  for (int i = 0; i < s->dirs->n; i++) {
    snprintf(path, sizeof path, "%s/%s", s->dirs->dir[i], name);
    if (access(path, R_OK) == 0) return file_uses_hip(s, path, depth);
  }
  return 0;
}

static int file_uses_hip(struct include_search *s, const char *path, int depth) {
  if (depth > INCLUDE_MAX_DEPTH || s->nseen == INCLUDE_MAX_FILES) return 0;
  for (int i = 0; i < s->nseen; i++)
    if (!strcmp(s->seen[i], path)) return 0;  /* read already (or being read) */
  char *copy = strdup(path);
  if (!copy) return 0;
  s->seen[s->nseen++] = copy;
  char *text = read_text(path);
  if (!text) return 0;
  int yes = text_uses_hip(text);
  for (char *line = text; !yes && line && *line;) {
    char *next = strchr(line, '\n');
    if (next) *next++ = '\0';
    char *p = line + strspn(line, " \t");
    if (*p == '#') {
      p += 1 + strspn(p + 1, " \t");
      if (!strncmp(p, "include", 7)) {
        p += 7 + strspn(p + 7, " \t");
        char close = *p == '"' ? '"' : *p == '<' ? '>' : '\0';
        char *end = close ? strchr(p + 1, close) : NULL;
        if (end) {
          *end = '\0';
          yes = include_uses_hip(s, path, p + 1, close == '"', depth + 1);
        }
      }
    }
    line = next;
  }
  free(text);
  return yes;
}

int ldsan_cc_is_cxx_using_hip(const char *path, const ldsan_cc_include_dirs *dirs) {
  static const char *const cxx[] = {".cpp", ".cc", ".cxx", ".C"};
  int is_cxx = 0;
  for (size_t i = 0; i < sizeof cxx / sizeof *cxx; i++) is_cxx |= ldsan_cc_ends_with(path, cxx[i]);
  if (!is_cxx) return 0;
  static const ldsan_cc_include_dirs none;
  struct include_search s = {.dirs = dirs ? dirs : &none};
  int yes = file_uses_hip(&s, path, 0);
  for (int i = 0; i < s.nseen; i++) free(s.seen[i]);
  return yes;
}

const char *ldsan_cc_lds_checks_option(const char *arg) {
  if (strncmp(arg, "-fsanitize-lds=", 15) == 0) return arg + 15;
  if (strcmp(arg, "-fno-sanitize-lds") == 0) return "none";
  return NULL;
}

int ldsan_cc_sanitize_lds_option(const char *arg, char *rest, size_t size) {
  int sign = !strncmp(arg, "-fsanitize=", 11) ? 1 : !strncmp(arg, "-fno-sanitize=", 14) ? -1 : 0;
  if (!sign || size == 0) return 0;
  const char *list = strchr(arg, '=') + 1;
  int found = 0;
  size_t n = (size_t)snprintf(rest, size, "%.*s", (int)(list - arg), arg);
  int any = 0;
  for (const char *p = list; *p;) {
    const char *end = strchr(p, ',');
    size_t len = end ? (size_t)(end - p) : strlen(p);
    if (len == 3 && !strncmp(p, "lds", 3)) {
      found = 1;
    } else if (len && n < size) {
      n += (size_t)snprintf(rest + n, size - n, "%s%.*s", any ? "," : "", (int)len, p);
      any = 1;
    }
    p += len + (end != NULL);
  }
  if (!found) return 0;
  if (!any) rest[0] = '\0';
  return sign;
}
