/* ldsan host: options. LDSAN_OPTIONS parsing (separators, quoting, bad names
 * and values), ASAN_OPTIONS layered under it (shared options, ASan's own names
 * ignored), defaults, help, log paths of any length, and the environment path
 * through ldsan_host_init: a malformed option stops the process with status 1,
 * abort_on_error makes ldsan_host_die abort. */
#include "host_test.h"

#include <fcntl.h>
#include <signal.h>
#include <sys/resource.h>
#include <sys/wait.h>

/* Parses `opts` from defaults; returns the messages (caller frees). */
static char *parse(const char *opts, int *messages) {
  capture c;
  capture_begin(&c);
  ldsan_flags_set_defaults();
  *messages = ldsan_flags_parse(opts, c.f);
  capture_end(&c);
  return c.buf;
}

/* ldsan_flags_load(asan, ldsan): returns the messages, *errors the error count. */
static char *load(const char *asan, const char *ldsan, int *errors) {
  capture c;
  capture_begin(&c);
  *errors = ldsan_flags_load(asan, ldsan, c.f);
  capture_end(&c);
  return c.buf;
}

static void test_defaults(void) {
  ldsan_flags_set_defaults();
  const ldsan_flags *f = ldsan_flags_get();
  CHECK_EQ(f->halt_on_error, 1);
  CHECK_EQ(f->exitcode, 1);
  CHECK_EQ(f->abort_on_error, 0);
  CHECK_STREQ(f->color, "auto");
  CHECK_STREQ(f->log_path, "stderr");
  CHECK_STREQ(f->report_format, "text");
  CHECK_EQ(ldsan_flags_json(), 0);
  CHECK_EQ(f->print_summary, 1);
  CHECK_EQ(f->print_legend, 1);
  CHECK_EQ(f->symbolize, 1);
  CHECK_STREQ(f->external_symbolizer_path, "");
  CHECK_EQ(f->report_limit, 20);
  CHECK_EQ(f->dedup, 1);
  CHECK_EQ(f->abort_on_trap, 1);
  CHECK_EQ(f->help, 0);
}

static void test_separators(void) {
  int w;
  char *out = parse("halt_on_error=0:exitcode=42", &w);
  CHECK_EQ(w, 0);
  CHECK_STREQ(out, "");
  CHECK_EQ(ldsan_flags_get()->halt_on_error, 0);
  CHECK_EQ(ldsan_flags_get()->exitcode, 42);
  free(out);
  out = parse(" report_limit=5, dedup=false color=never\tprint_legend=no ", &w);
  CHECK_EQ(w, 0);
  CHECK_EQ(ldsan_flags_get()->report_limit, 5);
  CHECK_EQ(ldsan_flags_get()->dedup, 0);
  CHECK_STREQ(ldsan_flags_get()->color, "never");
  CHECK_EQ(ldsan_flags_get()->print_legend, 0);
  free(out);
  out = parse("log_path='/tmp/a b/log':exitcode=0x10", &w);
  CHECK_EQ(w, 0);
  CHECK_STREQ(ldsan_flags_get()->log_path, "/tmp/a b/log");
  CHECK_EQ(ldsan_flags_get()->exitcode, 16);
  free(out);
  out = parse("report_format=json:abort_on_error=1:print_summary=0:symbolize=0:"
              "external_symbolizer_path=\"/opt/llvm 22/bin/llvm-symbolizer\"", &w);
  CHECK_EQ(w, 0);
  CHECK_STREQ(out, "");
  CHECK_STREQ(ldsan_flags_get()->report_format, "json");
  CHECK_EQ(ldsan_flags_json(), 1);
  CHECK_EQ(ldsan_flags_get()->abort_on_error, 1);
  CHECK_EQ(ldsan_flags_get()->print_summary, 0);
  CHECK_EQ(ldsan_flags_get()->symbolize, 0);
  CHECK_STREQ(ldsan_flags_get()->external_symbolizer_path, "/opt/llvm 22/bin/llvm-symbolizer");
  free(out);
  /* An empty external_symbolizer_path is valid: "search PATH". */
  out = parse("external_symbolizer_path=/x:external_symbolizer_path=", &w);
  CHECK_EQ(w, 0);
  CHECK_STREQ(ldsan_flags_get()->external_symbolizer_path, "");
  free(out);
  out = parse("", &w);
  CHECK_EQ(w, 0);
  free(out);
}

static void test_bad_input(void) {
  int w;
  char *out = parse("halt_on_eror=0:exitcode=3", &w);
  CHECK_EQ(w, 1);
  CHECK_STREQ(out, "ldsan: warning: unknown option 'halt_on_eror' in LDSAN_OPTIONS; run with LDSAN_OPTIONS=help=1 to list options\n");
  CHECK_EQ(ldsan_flags_get()->halt_on_error, 1);  /* unchanged */
  CHECK_EQ(ldsan_flags_get()->exitcode, 3);       /* the rest still applies */
  free(out);
  out = parse("exitcode=abc", &w);
  CHECK_EQ(w, 1);
  CHECK_STREQ(out, "ldsan: error: invalid value 'abc' for option 'exitcode' in LDSAN_OPTIONS; expected an integer\n");
  CHECK_EQ(ldsan_flags_get()->exitcode, 1);
  free(out);
  out = parse("color=purple:halt_on_error=2:dedup", &w);
  CHECK_EQ(w, 3);
  CHECK_STREQ(out,
              "ldsan: error: invalid value 'purple' for option 'color' in LDSAN_OPTIONS; expected auto, always or never\n"
              "ldsan: error: invalid value '2' for option 'halt_on_error' in LDSAN_OPTIONS; expected 0 or 1\n"
              "ldsan: error: option 'dedup' in LDSAN_OPTIONS has no value; write dedup=<value>\n");
  CHECK_STREQ(ldsan_flags_get()->color, "auto");
  CHECK_EQ(ldsan_flags_get()->halt_on_error, 1);
  free(out);
  out = parse("exitcode=99999999999:log_path=:report_format=xml", &w);
  CHECK_EQ(w, 3);
  CHECK_HAS(out, "ldsan: error: invalid value '99999999999' for option 'exitcode' in LDSAN_OPTIONS; expected an integer\n");
  CHECK_HAS(out, "ldsan: error: invalid value '' for option 'log_path' in LDSAN_OPTIONS; expected stderr, stdout or a path\n");
  CHECK_HAS(out, "ldsan: error: invalid value 'xml' for option 'report_format' in LDSAN_OPTIONS; expected text or json\n");
  CHECK_STREQ(ldsan_flags_get()->log_path, "stderr");
  CHECK_STREQ(ldsan_flags_get()->report_format, "text");
  free(out);
  out = parse("log_path='/tmp/x:exitcode=4", &w);
  CHECK_EQ(w, 1);
  CHECK_STREQ(out, "ldsan: error: value of option 'log_path' in LDSAN_OPTIONS has no closing ' quote\n");
  CHECK_STREQ(ldsan_flags_get()->log_path, "stderr");
  CHECK_EQ(ldsan_flags_get()->exitcode, 1);  /* swallowed by the open quote */
  free(out);
  out = parse("=1:exitcode=5", &w);
  CHECK_EQ(w, 1);
  CHECK_STREQ(out, "ldsan: error: option with no name ('=1') in LDSAN_OPTIONS; write name=value\n");
  CHECK_EQ(ldsan_flags_get()->exitcode, 5);
  free(out);
  char longname[200];
  memset(longname, 'x', sizeof longname - 1);
  longname[sizeof longname - 1] = 0;
  out = parse(longname, &w);
  CHECK_EQ(w, 1);
  char want[400];
  snprintf(want, sizeof want, "ldsan: warning: unknown option '%s' in LDSAN_OPTIONS; run with LDSAN_OPTIONS=help=1 to list options\n", longname);
  CHECK_STREQ(out, want);
  free(out);
}

/* Sizes: bytes with K/M/G (powers of 1024) up to 1 TiB; anything else, or a
 * larger value (a size near 2^64 wrapped once added to), is an error that
 * keeps the previous value. */
static void test_sizes(void) {
  int w;
  char *out = parse("lds_pool_size=65536", &w);
  CHECK_EQ(w, 0);
  CHECK_EQ(ldsan_flags_get()->lds_pool_size, 65536ull);
  free(out);
  out = parse("lds_pool_size=64K", &w);
  CHECK_EQ(ldsan_flags_get()->lds_pool_size, 65536ull);
  free(out);
  out = parse("lds_pool_size=3m", &w);
  CHECK_EQ(ldsan_flags_get()->lds_pool_size, 3ull << 20);
  free(out);
  out = parse("lds_pool_size=2G", &w);
  CHECK_EQ(ldsan_flags_get()->lds_pool_size, 2ull << 30);
  free(out);
  out = parse("lds_pool_size=1024G", &w);
  CHECK_EQ(w, 0);
  CHECK_EQ(ldsan_flags_get()->lds_pool_size, 1ull << 40);
  free(out);
  ldsan_flags_set_defaults();
  const char *bad[] = {"lds_pool_size=abc", "lds_pool_size=-1", "lds_pool_size=1T", "lds_pool_size=1KB",
                       "lds_pool_size=0x10", "lds_pool_size=+5", "lds_pool_size=17179869184G", "lds_pool_size=99999999999999999999",
                       "lds_pool_size=1025G", "lds_pool_size=18446744073709551615"};
  for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
    out = parse(bad[i], &w);
    CHECK_EQ(w, 1);
    CHECK_HAS(out, "for option 'lds_pool_size' in LDSAN_OPTIONS; expected a size in bytes up to 1 TiB (optionally with K, M or G)\n");
    CHECK_EQ(ldsan_flags_get()->lds_pool_size, 0ull);  /* the default stays */
    free(out);
  }
}

/* Options with a range: a value outside it is an error that keeps the default. */
static void test_ranges(void) {
  struct { const char *option, *expected; } bad[] = {
      {"detect_races=3", "for option 'detect_races' in LDSAN_OPTIONS; expected 0, 1 or 2\n"},
      {"detect_races=-1", "expected 0, 1 or 2\n"},
      {"emu_threads=100000", "for option 'emu_threads' in LDSAN_OPTIONS; expected 0 (one per core, at most 64) or 1 to 1024 workers\n"},
      {"emu_threads=-2", "expected 0 (one per core, at most 64) or 1 to 1024 workers\n"},
      {"emu_stack_kb=-1", "for option 'emu_stack_kb' in LDSAN_OPTIONS; expected 0 (the built-in size) or 16 to 1048576 KiB\n"},
      {"emu_stack_kb=8", "expected 0 (the built-in size) or 16 to 1048576 KiB\n"},
      {"emu_stall_timeout=-1", "for option 'emu_stall_timeout' in LDSAN_OPTIONS; expected 0 (never) or 1 to 1000000 seconds\n"},
      {"emu_stall_timeout=1000001", "expected 0 (never) or 1 to 1000000 seconds\n"},
      {"emu_stall_timeout=1.5", "expected 0 (never) or 1 to 1000000 seconds\n"},
  };
  int w;
  for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
    ldsan_flags_set_defaults();
    char *out = parse(bad[i].option, &w);
    CHECK_EQ(w, 1);
    CHECK_HAS(out, bad[i].expected);
    free(out);
    const ldsan_flags *f = ldsan_flags_get();
    CHECK_EQ(f->detect_races + f->emu_threads + f->emu_stack_kb, 0);
    CHECK_EQ(f->emu_stall_timeout, 60);
  }
  char *out = parse("detect_races=2:emu_threads=1024:emu_stack_kb=16", &w);
  CHECK_EQ(w, 0);
  free(out);
  CHECK_EQ(ldsan_flags_get()->detect_races, 2);
  CHECK_EQ(ldsan_flags_get()->emu_threads, 1024);
  CHECK_EQ(ldsan_flags_get()->emu_stack_kb, 16);
  ldsan_flags_set_defaults();
}

/* The emulator's knobs: options; the LDSAN_EMU_* environment variables set
 * them before ASAN_OPTIONS and LDSAN_OPTIONS, which win. */
static void test_emu_options(void) {
  unsetenv("LDSAN_EMU_FIBERS");
  unsetenv("LDSAN_EMU_THREADS");
  unsetenv("LDSAN_EMU_STACK_KB");
  int w;
  char *out = parse("emu_fibers=1:emu_threads=3:emu_stack_kb=64:abort_on_trap=0:emu_stall_timeout=0", &w);
  CHECK_EQ(w, 0);
  free(out);
  ldsan_emu_options o;
  ldsan_flags_emu_options(&o);
  CHECK_EQ(o.abort_on_trap, 0);
  CHECK_EQ(o.stall_timeout, 0);
  CHECK_EQ(o.fibers, 1);
  CHECK_EQ(o.threads, 3);
  CHECK_EQ(o.stack_kb, 64);
  setenv("LDSAN_EMU_FIBERS", "1", 1);
  setenv("LDSAN_EMU_THREADS", "5", 1);
  out = load(NULL, "emu_stack_kb=32", &w); /* the environment's values where the options say nothing */
  CHECK_EQ(w, 0);
  CHECK_STREQ(out, "ldsan: note: environment variable LDSAN_EMU_FIBERS is deprecated; use LDSAN_OPTIONS=emu_fibers=1 "
                   "instead (LDSAN_OPTIONS wins where both are set)\n"
                   "ldsan: note: environment variable LDSAN_EMU_THREADS is deprecated; use LDSAN_OPTIONS=emu_threads=5 "
                   "instead (LDSAN_OPTIONS wins where both are set)\n");
  free(out);
  ldsan_flags_emu_options(&o);
  CHECK_EQ(o.fibers, 1);
  CHECK_EQ(o.threads, 5);
  CHECK_EQ(o.stack_kb, 32);
  out = load("", "emu_fibers=0:emu_threads=2", &w); /* the options win */
  CHECK_EQ(w, 0);
  free(out);
  ldsan_flags_emu_options(&o);
  CHECK_EQ(o.fibers, 0);
  CHECK_EQ(o.threads, 2);
  CHECK_EQ(o.stack_kb, 0);
  setenv("LDSAN_EMU_STACK_KB", "8", 1); /* below 16: refused as the option would be */
  out = load(NULL, NULL, &w);
  CHECK_EQ(w, 1);
  CHECK(strstr(out, "ldsan: error: invalid value '8' for environment variable LDSAN_EMU_STACK_KB; expected ") != NULL);
  free(out);
  unsetenv("LDSAN_EMU_STACK_KB");
  unsetenv("LDSAN_EMU_FIBERS");
  unsetenv("LDSAN_EMU_THREADS");
  ldsan_flags_set_defaults();
  ldsan_flags_emu_options(&o);
  CHECK_EQ(o.fibers + o.threads + o.stack_kb, 0);
  CHECK_EQ(o.abort_on_trap, 1);
  CHECK_EQ(o.stall_timeout, 60);
  out = parse("emu_stall_timeout=1000000", &w);
  CHECK_EQ(w, 0);
  free(out);
  ldsan_flags_emu_options(&o);
  CHECK_EQ(o.stall_timeout, 1000000);
  ldsan_flags_set_defaults();
}

/* ASAN_OPTIONS first, LDSAN_OPTIONS over it; ASan's own names are not ldsan's business. */
static void test_asan_layering(void) {
  int e;
  char *out = load("halt_on_error=0:exitcode=23:abort_on_error=1:color=never:log_path=/tmp/asan-log:"
                   "print_summary=0:print_legend=0:symbolize=0:external_symbolizer_path=/usr/bin/llvm-symbolizer-22:"
                   "suppress_equal_pcs=0", NULL, &e);
  CHECK_EQ(e, 0);
  CHECK_STREQ(out, "");
  const ldsan_flags *f = ldsan_flags_get();
  CHECK_EQ(f->halt_on_error, 0);
  CHECK_EQ(f->exitcode, 23);
  CHECK_EQ(f->abort_on_error, 1);
  CHECK_STREQ(f->color, "never");
  CHECK_STREQ(f->log_path, "/tmp/asan-log");
  CHECK_EQ(f->print_summary, 0);
  CHECK_EQ(f->print_legend, 0);
  CHECK_EQ(f->symbolize, 0);
  CHECK_STREQ(f->external_symbolizer_path, "/usr/bin/llvm-symbolizer-22");
  CHECK_EQ(f->dedup, 0);
  free(out);

  /* LDSAN_OPTIONS wins; what it does not set keeps the ASAN_OPTIONS value. */
  out = load("halt_on_error=0:exitcode=5:log_path=/tmp/a", "halt_on_error=1:log_path=stdout", &e);
  CHECK_EQ(e, 0);
  CHECK_STREQ(out, "");
  CHECK_EQ(f->halt_on_error, 1);
  CHECK_EQ(f->exitcode, 5);
  CHECK_STREQ(f->log_path, "stdout");
  free(out);

  /* In ASAN_OPTIONS: ASan's other options, ldsan-only options and unknown
   * names are skipped silently (ASan reports its own unknown options). */
  out = load("detect_leaks=0:quarantine_size_mb=64:report_limit=3:dedup=0:report_format=json:bogus_key=1:"
             "redzone=abc:verbosity:include_if_exists=/nonexistent", NULL, &e);
  CHECK_EQ(e, 0);
  CHECK_STREQ(out, "");
  CHECK_EQ(f->report_limit, 20);
  CHECK_EQ(f->dedup, 1);
  CHECK_STREQ(f->report_format, "text");
  free(out);

  /* In LDSAN_OPTIONS: ASan's names are accepted without a warning (ignored,
   * except the shared ones); other unknown names still warn. */
  out = load(NULL, "detect_leaks=1:quarantine_size_mb=1:handle_segv=0:suppress_equal_pcs=0:bogus_key=1", &e);
  CHECK_EQ(e, 0);
  CHECK_STREQ(out, "ldsan: warning: unknown option 'bogus_key' in LDSAN_OPTIONS; run with LDSAN_OPTIONS=help=1 to list options\n");
  CHECK_EQ(f->dedup, 0);
  free(out);

  /* A malformed shared option in ASAN_OPTIONS is an error naming ASAN_OPTIONS. */
  out = load("halt_on_error=maybe:exitcode:color=never", "exitcode=x", &e);
  CHECK_EQ(e, 3);
  CHECK_STREQ(out,
              "ldsan: error: invalid value 'maybe' for option 'halt_on_error' in ASAN_OPTIONS; expected 0 or 1\n"
              "ldsan: error: option 'exitcode' in ASAN_OPTIONS has no value; write exitcode=<value>\n"
              "ldsan: error: invalid value 'x' for option 'exitcode' in LDSAN_OPTIONS; expected an integer\n");
  CHECK_STREQ(f->color, "never");
  free(out);
  out = load("suppress_equal_pcs=2", NULL, &e);
  CHECK_EQ(e, 1);
  CHECK_STREQ(out, "ldsan: error: invalid value '2' for option 'suppress_equal_pcs' in ASAN_OPTIONS; expected 0 or 1\n");
  free(out);
  /* An unterminated quote on an ASan-only option is ASan's to report. */
  out = load("color=always:suppressions='/tmp/supp", NULL, &e);
  CHECK_EQ(e, 0);
  CHECK_STREQ(out, "");
  CHECK_STREQ(f->color, "always");
  free(out);
  ldsan_flags_set_defaults();
}

/* log_path of any length (the parser once cut it at 511 bytes). */
static void test_long_path(void) {
  char path[2001], opt[2100];
  memset(path, 'p', sizeof path - 1);
  path[sizeof path - 1] = 0;
  for (int i = 0; i < 2000; i += 200) path[i] = '/';
  snprintf(opt, sizeof opt, "log_path=%s", path);
  int w;
  char *out = parse(opt, &w);
  CHECK_EQ(w, 0);
  CHECK_STREQ(out, "");
  CHECK_EQ(strlen(ldsan_flags_get()->log_path), 2000);
  CHECK_STREQ(ldsan_flags_get()->log_path, path);
  free(out);
  int e;
  out = load(opt, NULL, &e);  /* the same through ASAN_OPTIONS */
  CHECK_EQ(e, 0);
  CHECK_STREQ(ldsan_flags_get()->log_path, path);
  free(out);
  ldsan_flags_set_defaults();
}

static void test_help(void) {
  capture c;
  capture_begin(&c);
  ldsan_flags_set_defaults();
  ldsan_host_print_help(c.f);
  const char *out = capture_end(&c);
  CHECK_HAS(out, "ldsan: option halt_on_error            = 1  (default 1) stop the dispatch");
  CHECK_HAS(out, "ldsan: option color                    = auto  (default \"auto\") colour reports");
  CHECK_HAS(out, "ldsan: option report_limit             = 20");
  CHECK_HAS(out, "ldsan: option abort_on_error           = 0  (default 0) stop a program after a fatal report with abort()");
  CHECK_HAS(out, "ldsan: option report_format            = text  (default \"text\") text: ASan-style reports; json:");
  CHECK_HAS(out, "ldsan: option print_summary            = 1  (default 1)");
  CHECK_HAS(out, "ldsan: option symbolize                = 1  (default 1)");
  CHECK_HAS(out, "ldsan: option external_symbolizer_path = \"\"  (default \"\") the llvm-symbolizer to run; empty: llvm-symbolizer-22, then llvm-symbolizer, found on PATH\n");
  CHECK_HAS(out, "ldsan: option help");
  CHECK_HAS(out, "ldsan: option lds_pool_size            = 0  (default 0) bytes of LDS backing store");
  CHECK_EQ(count_of(out, "ldsan: option "), 22);
  CHECK_HAS(out, "ldsan: option emu_stall_timeout        = 60  (default 60) CPU emulator: when a running kernel passes no barrier");
  CHECK_HAS(out, "ldsan: option abort_on_trap            = 1  (default 1) CPU emulator: a device trap");
  CHECK_HAS(out, "ldsan: option report_wave_sync         = 0  (default 0) CPU emulator: warn when a lane reads LDS");
  CHECK_HAS(out, "ldsan: option emu_threads              = 0  (default 0) CPU emulator: workers running workgroups");
  CHECK_HAS(out, "ldsan: ASAN_OPTIONS sets these first (LDSAN_OPTIONS wins): halt_on_error exitcode abort_on_error "
                 "color log_path print_summary print_legend symbolize external_symbolizer_path suppress_equal_pcs "
                 "(as dedup); ASan's other options are ignored\n");
  free(c.buf);
}

/* Runs fn in a child with stderr in a file; returns the wait status, *text its stderr. */
static int in_child(void (*fn)(void), char *text, size_t len) {
  char path[] = "/tmp/ldsan-flags-child-XXXXXX";
  int fd = mkstemp(path);
  CHECK(fd >= 0);
  fflush(NULL);
  pid_t pid = fork();
  if (pid == 0) {
    dup2(fd, 2);
    struct rlimit no_core = {0, 0};
    setrlimit(RLIMIT_CORE, &no_core);
    fn();
    _exit(99);  /* fn returned */
  }
  int status = 0;
  waitpid(pid, &status, 0);
  ssize_t n = pread(fd, text, len - 1, 0);
  text[n > 0 ? n : 0] = 0;
  close(fd);
  remove(path);
  return status;
}

static void init_bad_ldsan(void) {
  setenv("ASAN_OPTIONS", "detect_leaks=0", 1);
  setenv("LDSAN_OPTIONS", "halt_on_error=maybe:report_format=yaml:bogus=1", 1);
  ldsan_host_init();
}
/* An environment override the option would refuse ends the program as a bad option does. */
static void emu_env_bad(void) {
  unsetenv("LDSAN_OPTIONS");
  setenv("LDSAN_EMU_THREADS", "abc", 1);
  ldsan_emu_options o;
  ldsan_host_emu_options(&o);
}
static void init_bad_asan(void) {
  setenv("ASAN_OPTIONS", "abort_on_error=sometimes", 1);
  unsetenv("LDSAN_OPTIONS");
  ldsan_host_init();
}
static void die_abort(void) {
  unsetenv("ASAN_OPTIONS");
  setenv("LDSAN_OPTIONS", "abort_on_error=1:exitcode=42", 1);
  ldsan_host_init();
  ldsan_host_die();
}
static void die_exitcode(void) {
  setenv("ASAN_OPTIONS", "exitcode=42", 1);
  unsetenv("LDSAN_OPTIONS");
  ldsan_host_init();
  ldsan_host_die();
}

/* Runs before anything calls ldsan_host_init in this process (children inherit it). */
static void test_init_errors(void) {
  char text[4096];
  int st = in_child(init_bad_ldsan, text, sizeof text);
  CHECK(WIFEXITED(st));
  CHECK_EQ(WEXITSTATUS(st), 1);
  CHECK_STREQ(text,
              "ldsan: error: invalid value 'maybe' for option 'halt_on_error' in LDSAN_OPTIONS; expected 0 or 1\n"
              "ldsan: error: invalid value 'yaml' for option 'report_format' in LDSAN_OPTIONS; expected text or json\n"
              "ldsan: warning: unknown option 'bogus' in LDSAN_OPTIONS; run with LDSAN_OPTIONS=help=1 to list options\n");
  st = in_child(init_bad_asan, text, sizeof text);
  CHECK(WIFEXITED(st));
  CHECK_EQ(WEXITSTATUS(st), 1);
  CHECK_STREQ(text, "ldsan: error: invalid value 'sometimes' for option 'abort_on_error' in ASAN_OPTIONS; expected 0 or 1\n");
  st = in_child(emu_env_bad, text, sizeof text);
  CHECK(WIFEXITED(st));
  CHECK_EQ(WEXITSTATUS(st), 1);
  CHECK_STREQ(text, "ldsan: error: invalid value 'abc' for environment variable LDSAN_EMU_THREADS; expected 0 (one "
                    "per core, at most 64) or 1 to 1024 workers (or LDSAN_OPTIONS=emu_threads=...)\n");
  st = in_child(die_abort, text, sizeof text);
  CHECK(WIFSIGNALED(st));
  CHECK_EQ(WIFSIGNALED(st) ? WTERMSIG(st) : 0, SIGABRT);
  st = in_child(die_exitcode, text, sizeof text);
  CHECK(WIFEXITED(st));
  CHECK_EQ(WEXITSTATUS(st), 42);
}

/* ldsan_host_init reads ASAN_OPTIONS then LDSAN_OPTIONS once; warnings and help go to stderr. */
static void test_env(void) {
  setenv("ASAN_OPTIONS", "exitcode=9:halt_on_error=0:detect_leaks=1:report_limit=2", 1);
  setenv("LDSAN_OPTIONS", "help=1:bogus=1:halt_on_error=1", 1);
  char path[] = "/tmp/ldsan-flags-test-XXXXXX";
  int fd = mkstemp(path);
  CHECK(fd >= 0);
  fflush(stderr);
  int saved = dup(2);
  dup2(fd, 2);
  ldsan_host_init();
  ldsan_host_init();  /* idempotent: nothing printed twice */
  fflush(stderr);
  dup2(saved, 2);
  close(saved);
  char buf[8192];
  ssize_t n = pread(fd, buf, sizeof buf - 1, 0);
  buf[n > 0 ? n : 0] = 0;
  close(fd);
  remove(path);
  CHECK_EQ(ldsan_host_exitcode(), 9);
  CHECK_EQ(ldsan_host_halt_on_error(), 1);
  CHECK_EQ(ldsan_flags_get()->report_limit, 20);
  CHECK_EQ(count_of(buf, "unknown option 'bogus'"), 1);
  CHECK_EQ(count_of(buf, "ldsan: option exitcode                 = 9  (default 1)"), 1);
  CHECK_LACKS(buf, "ldsan: error");
  unsetenv("ASAN_OPTIONS");
  unsetenv("LDSAN_OPTIONS");
}

int main(void) {
  test_init_errors();
  test_defaults();
  test_separators();
  test_bad_input();
  test_sizes();
  test_ranges();
  test_emu_options();
  test_asan_layering();
  test_long_path();
  test_help();
  test_env();
  return test_done("flags_test");
}
