/* ldsan host library: options, layered as compiler-rt layers common and tool
 * flags: defaults, then the emulator's environment variables of old
 * (LDSAN_EMU_FIBERS, _THREADS, _STACK_KB), then ASAN_OPTIONS (only the options ASan shares with ldsan,
 * flags.inc table 2; every other key there is ASan's business and skipped
 * silently), then LDSAN_OPTIONS over them. Defaults, parser and help=1 are all
 * expanded from flags.inc. A malformed option is an error: ldsan_host_init
 * prints every one and ends the process with status 1, as ASan does; an
 * unknown option in LDSAN_OPTIONS is a warning (ASan's own names are accepted).
 * Threading: ldsan_host_init parses once under a pthread_once; the parse/reset
 * entry points are for that and for tests. */
#define _POSIX_C_SOURCE 200809L
#include <ctype.h>
#include <errno.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "internal.h"

static ldsan_flags flags;
static int flags_ready;

/* ---- per-type default, parse and print ------------------------------------ */
/* strndup that never returns NULL (options are read once, at init). */
static char *dup_n(const char *v, size_t n) {
  char *s = strndup(v, n);
  if (!s) {
    fprintf(stderr, "ldsan: error: out of memory copying an option of %zu bytes\n", n);
    _exit(1);
  }
  return s;
}
static char *dup_string(const char *v) { return dup_n(v, strlen(v)); }

static void set_bool(ldsan_flag_bool *f, int v) { *f = v; }
static void set_int(ldsan_flag_int *f, int v) { *f = v; }
static void set_level(ldsan_flag_level *f, int v) { *f = v; }
static void set_threads(ldsan_flag_threads *f, int v) { *f = v; }
static void set_stack_kb(ldsan_flag_stack_kb *f, int v) { *f = v; }
static void set_seconds(ldsan_flag_seconds *f, int v) { *f = v; }
static void set_size(ldsan_flag_size *f, unsigned long long v) { *f = v; }
static void set_color(ldsan_flag_color *f, const char *v) { snprintf(*f, sizeof *f, "%s", v); }
static void set_format(ldsan_flag_format *f, const char *v) { snprintf(*f, sizeof *f, "%s", v); }
static void set_path(ldsan_flag_path *f, const char *v) { free(*f); *f = dup_string(v); }
static void set_string(ldsan_flag_string *f, const char *v) { free(*f); *f = dup_string(v); }

/* Each parser returns NULL on success, else what was expected. */
static const char *parse_bool(ldsan_flag_bool *f, const char *v) {
  if (!strcmp(v, "1") || !strcmp(v, "true") || !strcmp(v, "yes")) { *f = 1; return NULL; }
  if (!strcmp(v, "0") || !strcmp(v, "false") || !strcmp(v, "no")) { *f = 0; return NULL; }
  return LDSAN_VALUES_bool;
}
static const char *parse_int(ldsan_flag_int *f, const char *v) {
  char *end;
  errno = 0;
  long n = strtol(v, &end, 0);
  if (!*v || *end || errno || n < -2147483647L || n > 2147483647L) return LDSAN_VALUES_int;
  *f = (int)n;
  return NULL;
}
/* An integer in [lo, hi] (or 0 when zero_ok), else `expected`. */
static const char *parse_ranged(int *f, const char *v, long lo, long hi, int zero_ok, const char *expected) {
  char *end;
  errno = 0;
  long n = strtol(v, &end, 0);
  if (!*v || *end || errno || ((n < lo || n > hi) && !(zero_ok && n == 0))) return expected;
  *f = (int)n;
  return NULL;
}
static const char *parse_level(ldsan_flag_level *f, const char *v) { return parse_ranged(f, v, 0, 2, 0, LDSAN_VALUES_level); }
static const char *parse_threads(ldsan_flag_threads *f, const char *v) {
  return parse_ranged(f, v, 1, LDSAN_MAX_EMU_THREADS, 1, LDSAN_VALUES_threads);
}
static const char *parse_stack_kb(ldsan_flag_stack_kb *f, const char *v) {
  return parse_ranged(f, v, LDSAN_MIN_STACK_KB, LDSAN_MAX_STACK_KB, 1, LDSAN_VALUES_stack_kb);
}
static const char *parse_seconds(ldsan_flag_seconds *f, const char *v) {
  return parse_ranged(f, v, 0, LDSAN_MAX_SECONDS, 0, LDSAN_VALUES_seconds);
}
/* Bytes: a number with an optional K, M or G suffix (powers of 1024), at most
 * LDSAN_MAX_LDS_POOL_SIZE (1 TiB: no option of ldsan's wants more, and a size
 * near 2^64 would wrap once added to). */
static const char *parse_size(ldsan_flag_size *f, const char *v) {
  const char *expected = LDSAN_VALUES_size;
  if (!isdigit((unsigned char)*v)) return expected;
  char *end;
  errno = 0;
  unsigned long long n = strtoull(v, &end, 10);
  unsigned shift = 0;
  if (*end == 'K' || *end == 'k') shift = 10;
  else if (*end == 'M' || *end == 'm') shift = 20;
  else if (*end == 'G' || *end == 'g') shift = 30;
  if (shift) end++;
  if (*end || errno || n > (~0ull >> shift) || (n << shift) > LDSAN_MAX_LDS_POOL_SIZE) return expected;
  *f = n << shift;
  return NULL;
}
static const char *parse_color(ldsan_flag_color *f, const char *v) {
  if (strcmp(v, "auto") && strcmp(v, "always") && strcmp(v, "never")) return LDSAN_VALUES_color;
  set_color(f, v);
  return NULL;
}
static const char *parse_format(ldsan_flag_format *f, const char *v) {
  if (strcmp(v, "text") && strcmp(v, "json")) return LDSAN_VALUES_format;
  set_format(f, v);
  return NULL;
}
static const char *parse_path(ldsan_flag_path *f, const char *v) {
  if (!*v) return LDSAN_VALUES_path;
  set_path(f, v);
  return NULL;
}
static const char *parse_string(ldsan_flag_string *f, const char *v) {
  set_string(f, v);
  return NULL;
}
static void print_bool(FILE *o, const ldsan_flag_bool *f) { fprintf(o, "%d", *f); }
static void print_int(FILE *o, const ldsan_flag_int *f) { fprintf(o, "%d", *f); }
static void print_level(FILE *o, const ldsan_flag_level *f) { fprintf(o, "%d", *f); }
static void print_threads(FILE *o, const ldsan_flag_threads *f) { fprintf(o, "%d", *f); }
static void print_stack_kb(FILE *o, const ldsan_flag_stack_kb *f) { fprintf(o, "%d", *f); }
static void print_seconds(FILE *o, const ldsan_flag_seconds *f) { fprintf(o, "%d", *f); }
static void print_size(FILE *o, const ldsan_flag_size *f) { fprintf(o, "%llu", *f); }
static void print_color(FILE *o, const ldsan_flag_color *f) { fprintf(o, "%s", *f); }
static void print_format(FILE *o, const ldsan_flag_format *f) { fprintf(o, "%s", *f); }
static void print_path(FILE *o, const ldsan_flag_path *f) { fprintf(o, "%s", *f); }
static void print_string(FILE *o, const ldsan_flag_string *f) { fprintf(o, "\"%s\"", *f); }

void ldsan_flags_set_defaults(void) {
#define LDSAN_FLAG(type, name, default_value, description) set_##type(&flags.name, default_value);
#include "flags.inc"
#undef LDSAN_FLAG
  flags_ready = 1;
}

/* Heap-held option values are freed; the others need nothing. */
static void release_bool(ldsan_flag_bool *f) { (void)f; }
static void release_int(ldsan_flag_int *f) { (void)f; }
static void release_level(ldsan_flag_level *f) { (void)f; }
static void release_threads(ldsan_flag_threads *f) { (void)f; }
static void release_stack_kb(ldsan_flag_stack_kb *f) { (void)f; }
static void release_seconds(ldsan_flag_seconds *f) { (void)f; }
static void release_size(ldsan_flag_size *f) { (void)f; }
static void release_color(ldsan_flag_color *f) { (void)f; }
static void release_format(ldsan_flag_format *f) { (void)f; }
static void release_path(ldsan_flag_path *f) { free(*f); *f = NULL; }
static void release_string(ldsan_flag_string *f) { free(*f); *f = NULL; }

void ldsan_flags_release(void) {
#define LDSAN_FLAG(type, name, default_value, description) release_##type(&flags.name);
#include "flags.inc"
#undef LDSAN_FLAG
  flags_ready = 0;
}

const ldsan_flags *ldsan_flags_get(void) {
  if (!flags_ready) ldsan_flags_set_defaults();
  return &flags;
}

int ldsan_flags_json(void) { return !strcmp(ldsan_flags_get()->report_format, "json"); }

/* ---- one name=value ---------------------------------------------------------- */
static const char *source_name(ldsan_options_source s) {
  return s == LDSAN_FROM_ASAN_OPTIONS ? "ASAN_OPTIONS" : "LDSAN_OPTIONS";
}

/* The ldsan option `name` (as written in the string) sets, or NULL: its own
 * name in LDSAN_OPTIONS, and in either string the ASan name of a shared one. */
static const char *target_of(const char *name, ldsan_options_source source) {
#define LDSAN_ASAN_FLAG(asan_name, ldsan_name) if (!strcmp(name, #asan_name)) return #ldsan_name;
#include "flags.inc"
#undef LDSAN_ASAN_FLAG
  if (source == LDSAN_FROM_ASAN_OPTIONS) return NULL;
#define LDSAN_FLAG(type, fname, default_value, description) if (!strcmp(name, #fname)) return #fname;
#include "flags.inc"
#undef LDSAN_FLAG
  return NULL;
}

static int is_asan_name(const char *name) {
#define ASAN_FLAG_NAME(n) if (!strcmp(name, #n)) return 1;
#include "asan_flag_names.inc"
#undef ASAN_FLAG_NAME
  return 0;
}

/* Sets ldsan option `target` from `value`; NULL, or what was expected. */
static const char *set_option(const char *target, const char *value) {
#define LDSAN_FLAG(type, fname, default_value, description) \
  if (!strcmp(target, #fname)) return parse_##type(&flags.fname, value);
#include "flags.inc"
#undef LDSAN_FLAG
  return "a known option";  /* not reached: target comes from flags.inc */
}

typedef struct diag { FILE *out; ldsan_options_source source; int warnings, errors; } diag;

/* Applies name=value (value NULL: written without '='). */
static void apply(diag *d, const char *name, const char *value) {
  const char *src = source_name(d->source);
  const char *target = target_of(name, d->source);
  if (!target) {
    if (d->source == LDSAN_FROM_LDSAN_OPTIONS && !is_asan_name(name)) {
      fprintf(d->out, "ldsan: warning: unknown option '%s' in LDSAN_OPTIONS; run with LDSAN_OPTIONS=help=1 to list options\n",
              name);
      d->warnings++;
    }
    return;  /* ASan's business (or unknown to both, which ASan reports itself) */
  }
  if (!value) {
    fprintf(d->out, "ldsan: error: option '%s' in %s has no value; write %s=<value>\n", name, src, name);
    d->errors++;
    return;
  }
  const char *expected = set_option(target, value);
  if (expected) {
    fprintf(d->out, "ldsan: error: invalid value '%s' for option '%s' in %s; expected %s\n", value, name, src,
            expected);
    d->errors++;
  }
}

static int is_sep(char c) { return c == ':' || c == ',' || isspace((unsigned char)c); }

int ldsan_flags_parse_from(const char *options, ldsan_options_source source, FILE *out, int *errors) {
  ldsan_flags_get();
  diag d = {out, source, 0, 0};
  for (const char *p = options ? options : ""; *p;) {
    while (*p && is_sep(*p)) p++;
    if (!*p) break;
    const char *name_start = p;
    while (*p && *p != '=' && !is_sep(*p)) p++;
    char *name = dup_n(name_start, (size_t)(p - name_start));
    char *value = NULL;
    char quote = 0;
    int unterminated = 0;
    if (*p == '=') {
      p++;
      if (*p == '\'' || *p == '"') quote = *p++;
      const char *value_start = p;
      while (*p && (quote ? *p != quote : !is_sep(*p))) p++;
      value = dup_n(value_start, (size_t)(p - value_start));
      if (quote && !*p) unterminated = 1;
      else if (quote) p++;
    }
    /* In ASAN_OPTIONS only the options ASan shares with ldsan are ldsan's to judge. */
    if (source == LDSAN_FROM_ASAN_OPTIONS && !target_of(name, source)) {
      /* skipped: ASan's business */
    } else if (!*name) {
      fprintf(out, "ldsan: error: option with no name ('=%s') in %s; write name=value\n", value ? value : "",
              source_name(source));
      d.errors++;
    } else if (unterminated) {
      fprintf(out, "ldsan: error: value of option '%s' in %s has no closing %c quote\n", name,
              source_name(source), quote);
      d.errors++;
    } else {
      apply(&d, name, value);
    }
    free(name);
    free(value);
  }
  if (errors) *errors = d.errors;
  return d.warnings + d.errors;
}

int ldsan_flags_parse(const char *options, FILE *out) {
  return ldsan_flags_parse_from(options, LDSAN_FROM_LDSAN_OPTIONS, out, NULL);
}

/* The emulator's environment variables of old (LDSAN_EMU_FIBERS, _THREADS,
 * _STACK_KB), deprecated: each sets its option's value before ASAN_OPTIONS
 * and LDSAN_OPTIONS are read, which win (the options are the one place a
 * value is decided, as ASan's), and says once per process which option to
 * use instead. A value the option would refuse is an error. */
#define LEGACY_ENV(type, var, option)                                                                    \
  do {                                                                                                   \
    const char *e_ = getenv(var);                                                                        \
    ldsan_flag_##type v_ = flags.option;                                                                 \
    const char *expected_ = e_ && *e_ ? parse_##type(&v_, e_) : NULL;                                    \
    if (expected_) {                                                                                     \
      fprintf(out, "ldsan: error: invalid value '%s' for environment variable %s; expected %s (or "      \
              "LDSAN_OPTIONS=%s=...)\n", e_, var, expected_, #option);                                   \
      ++*errors;                                                                                         \
    } else if (e_ && *e_) {                                                                              \
      flags.option = v_;                                                                                 \
      fprintf(out, "ldsan: note: environment variable %s is deprecated; use LDSAN_OPTIONS=%s=%s "        \
              "instead (LDSAN_OPTIONS wins where both are set)\n", var, #option, e_);                    \
    }                                                                                                    \
  } while (0)
static void legacy_environment(FILE *out, int *errors) {
  LEGACY_ENV(bool, "LDSAN_EMU_FIBERS", emu_fibers);
  LEGACY_ENV(threads, "LDSAN_EMU_THREADS", emu_threads);
  LEGACY_ENV(stack_kb, "LDSAN_EMU_STACK_KB", emu_stack_kb);
}
#undef LEGACY_ENV

int ldsan_flags_load(const char *asan_options, const char *ldsan_options, FILE *out) {
  int asan_errors = 0, ldsan_errors = 0, env_errors = 0;
  ldsan_flags_set_defaults();
  legacy_environment(out, &env_errors);
  ldsan_flags_parse_from(asan_options, LDSAN_FROM_ASAN_OPTIONS, out, &asan_errors);
  ldsan_flags_parse_from(ldsan_options, LDSAN_FROM_LDSAN_OPTIONS, out, &ldsan_errors);
  return env_errors + asan_errors + ldsan_errors;
}

void ldsan_host_print_help(FILE *out) {
  const ldsan_flags *f = ldsan_flags_get();
  fprintf(out, "ldsan: options (LDSAN_OPTIONS=name=value:name=value; current values shown)\n");
#define LDSAN_FLAG(type, name, default_value, description)                                       \
  fprintf(out, "ldsan: option %-24s = ", #name);                                                 \
  print_##type(out, &f->name);                                                                   \
  fprintf(out, "  (default %s) %s\n", #default_value, description);
#include "flags.inc"
#undef LDSAN_FLAG
  fprintf(out, "ldsan: ASAN_OPTIONS sets these first (LDSAN_OPTIONS wins):");
#define LDSAN_ASAN_FLAG(asan_name, ldsan_name)                                                   \
  fprintf(out, " %s", #asan_name);                                                               \
  if (strcmp(#asan_name, #ldsan_name)) fprintf(out, " (as %s)", #ldsan_name);
#include "flags.inc"
#undef LDSAN_ASAN_FLAG
  fprintf(out, "; ASan's other options are ignored\n");
}

static pthread_once_t init_once = PTHREAD_ONCE_INIT;
static void init(void) {
  if (ldsan_flags_load(getenv("ASAN_OPTIONS"), getenv("LDSAN_OPTIONS"), stderr)) {
    fflush(stderr);
    _exit(1);
  }
  if (flags.help) ldsan_host_print_help(stderr);
}
void ldsan_host_init(void) { pthread_once(&init_once, init); }

void ldsan_flags_emu_options(ldsan_emu_options *out) {
  const ldsan_flags *f = ldsan_flags_get();
  out->fibers = f->emu_fibers != 0;
  out->threads = f->emu_threads;
  out->stack_kb = f->emu_stack_kb;
  out->report_wave_sync = f->report_wave_sync;
  out->detect_races = f->detect_races;
  out->detect_uninit = f->detect_uninit;
  out->abort_on_trap = f->abort_on_trap;
  out->stall_timeout = f->emu_stall_timeout;
}

void ldsan_host_emu_options(ldsan_emu_options *out) {
  ldsan_host_init();
  ldsan_flags_emu_options(out);
}

int ldsan_host_halt_on_error(void) {
  ldsan_host_init();
  return ldsan_flags_get()->halt_on_error;
}

int ldsan_host_exitcode(void) {
  ldsan_host_init();
  return ldsan_flags_get()->exitcode;
}
