/* ldsan host library: LDSAN_OPTIONS parsing, defaults and help, all expanded
 * from flags.inc. Threading: ldsan_host_init parses once under a pthread_once;
 * the parse/reset entry points are for that and for tests. */
#define _POSIX_C_SOURCE 200809L
#include <ctype.h>
#include <errno.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"

static ldsan_flags flags;
static int flags_ready;

/* ---- per-type default, parse and print ------------------------------------ */
static void set_bool(ldsan_flag_bool *f, int v) { *f = v; }
static void set_int(ldsan_flag_int *f, int v) { *f = v; }
static void set_color(ldsan_flag_color *f, const char *v) { snprintf(*f, sizeof *f, "%s", v); }
static void set_path(ldsan_flag_path *f, const char *v) { snprintf(*f, sizeof *f, "%s", v); }

/* Each parser returns NULL on success, else what was expected. */
static const char *parse_bool(ldsan_flag_bool *f, const char *v) {
  if (!strcmp(v, "1") || !strcmp(v, "true") || !strcmp(v, "yes")) { *f = 1; return NULL; }
  if (!strcmp(v, "0") || !strcmp(v, "false") || !strcmp(v, "no")) { *f = 0; return NULL; }
  return "0 or 1";
}
static const char *parse_int(ldsan_flag_int *f, const char *v) {
  char *end;
  errno = 0;
  long n = strtol(v, &end, 0);
  if (!*v || *end || errno || n < -2147483647L || n > 2147483647L) return "an integer";
  *f = (int)n;
  return NULL;
}
static const char *parse_color(ldsan_flag_color *f, const char *v) {
  if (strcmp(v, "auto") && strcmp(v, "always") && strcmp(v, "never")) return "auto, always or never";
  set_color(f, v);
  return NULL;
}
static const char *parse_path(ldsan_flag_path *f, const char *v) {
  if (!*v) return "a non-empty path";
  if (strlen(v) >= sizeof *f) return "a shorter path";
  set_path(f, v);
  return NULL;
}
static void print_bool(FILE *o, const ldsan_flag_bool *f) { fprintf(o, "%d", *f); }
static void print_int(FILE *o, const ldsan_flag_int *f) { fprintf(o, "%d", *f); }
static void print_color(FILE *o, const ldsan_flag_color *f) { fprintf(o, "%s", *f); }
static void print_path(FILE *o, const ldsan_flag_path *f) { fprintf(o, "%s", *f); }

void ldsan_flags_set_defaults(void) {
#define LDSAN_FLAG(type, name, default_value, description) set_##type(&flags.name, default_value);
#include "flags.inc"
#undef LDSAN_FLAG
  flags_ready = 1;
}

const ldsan_flags *ldsan_flags_get(void) {
  if (!flags_ready) ldsan_flags_set_defaults();
  return &flags;
}

/* Applies name=value; returns 0, or prints one warning and returns 1. */
static int apply(const char *name, const char *value, FILE *warn) {
#define LDSAN_FLAG(type, fname, default_value, description)                                      \
  if (!strcmp(name, #fname)) {                                                                   \
    if (!value) {                                                                                \
      fprintf(warn, "ldsan: warning: option '%s' in LDSAN_OPTIONS has no value; write %s=<value>\n", \
              name, name);                                                                       \
      return 1;                                                                                  \
    }                                                                                            \
    const char *expected = parse_##type(&flags.fname, value);                                    \
    if (expected) {                                                                              \
      fprintf(warn, "ldsan: warning: invalid value '%s' for option '%s' in LDSAN_OPTIONS; expected %s\n", \
              value, name, expected);                                                            \
      return 1;                                                                                  \
    }                                                                                            \
    return 0;                                                                                    \
  }
#include "flags.inc"
#undef LDSAN_FLAG
  fprintf(warn, "ldsan: warning: unknown option '%s' in LDSAN_OPTIONS; run with LDSAN_OPTIONS=help=1 to list options\n",
          name);
  return 1;
}

static int is_sep(char c) { return c == ':' || c == ',' || isspace((unsigned char)c); }

int ldsan_flags_parse(const char *options, FILE *warn) {
  ldsan_flags_get();
  if (!options) return 0;
  int warnings = 0;
  const char *p = options;
  char name[64], value[sizeof(ldsan_flag_path)];
  while (*p) {
    while (*p && is_sep(*p)) p++;
    if (!*p) break;
    size_t n = 0;
    int too_long = 0;
    while (*p && *p != '=' && !is_sep(*p)) {
      if (n + 1 < sizeof name) name[n++] = *p; else too_long = 1;
      p++;
    }
    name[n] = 0;
    if (too_long) {
      fprintf(warn, "ldsan: warning: unknown option '%s...' in LDSAN_OPTIONS; run with LDSAN_OPTIONS=help=1 to list options\n", name);
      warnings++;
      while (*p && !is_sep(*p)) p++;
      continue;
    }
    const char *v = NULL;
    if (*p == '=') {
      p++;
      n = 0;
      char quote = (*p == '\'' || *p == '"') ? *p++ : 0;
      while (*p && (quote ? *p != quote : !is_sep(*p))) {
        if (n + 1 < sizeof value) value[n++] = *p;
        p++;
      }
      if (quote && *p == quote) p++;
      value[n] = 0;
      v = value;
    }
    warnings += apply(name, v, warn);
  }
  return warnings;
}

void ldsan_host_print_help(FILE *out) {
  const ldsan_flags *f = ldsan_flags_get();
  fprintf(out, "ldsan: options (LDSAN_OPTIONS=name=value:name=value; current values shown)\n");
#define LDSAN_FLAG(type, name, default_value, description)                                       \
  fprintf(out, "ldsan: option %-14s = ", #name);                                                 \
  print_##type(out, &f->name);                                                                   \
  fprintf(out, "  (default %s) %s\n", #default_value, description);
#include "flags.inc"
#undef LDSAN_FLAG
}

static pthread_once_t init_once = PTHREAD_ONCE_INIT;
static void init(void) {
  ldsan_flags_set_defaults();
  ldsan_flags_parse(getenv("LDSAN_OPTIONS"), stderr);
  if (flags.help) ldsan_host_print_help(stderr);
}
void ldsan_host_init(void) { pthread_once(&init_once, init); }

int ldsan_host_halt_on_error(void) {
  ldsan_host_init();
  return ldsan_flags_get()->halt_on_error;
}

int ldsan_host_exitcode(void) {
  ldsan_host_init();
  return ldsan_flags_get()->exitcode;
}
