/* ldsan host: LDSAN_OPTIONS parsing (separators, quoting, bad names and
 * values), defaults, help, and the environment path through ldsan_host_init. */
#include "host_test.h"

#include <fcntl.h>

/* Parses `opts` from defaults; returns the warnings text (caller frees). */
static char *parse(const char *opts, int *warnings) {
  capture c;
  capture_begin(&c);
  ldsan_flags_set_defaults();
  *warnings = ldsan_flags_parse(opts, c.f);
  capture_end(&c);
  return c.buf;
}

static void test_defaults(void) {
  ldsan_flags_set_defaults();
  const ldsan_flags *f = ldsan_flags_get();
  CHECK_EQ(f->halt_on_error, 1);
  CHECK_EQ(f->exitcode, 1);
  CHECK_STREQ(f->color, "auto");
  CHECK_STREQ(f->log_path, "stderr");
  CHECK_EQ(f->print_legend, 1);
  CHECK_EQ(f->report_limit, 20);
  CHECK_EQ(f->dedup, 1);
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
  CHECK_HAS(out, "ldsan: warning: invalid value 'abc' for option 'exitcode' in LDSAN_OPTIONS; expected an integer\n");
  CHECK_EQ(ldsan_flags_get()->exitcode, 1);
  free(out);
  out = parse("color=purple:halt_on_error=2:dedup", &w);
  CHECK_EQ(w, 3);
  CHECK_HAS(out, "invalid value 'purple' for option 'color' in LDSAN_OPTIONS; expected auto, always or never\n");
  CHECK_HAS(out, "invalid value '2' for option 'halt_on_error' in LDSAN_OPTIONS; expected 0 or 1\n");
  CHECK_HAS(out, "ldsan: warning: option 'dedup' in LDSAN_OPTIONS has no value; write dedup=<value>\n");
  CHECK_STREQ(ldsan_flags_get()->color, "auto");
  free(out);
  out = parse("exitcode=99999999999:log_path=", &w);
  CHECK_EQ(w, 2);
  CHECK_HAS(out, "expected an integer");
  CHECK_HAS(out, "invalid value '' for option 'log_path' in LDSAN_OPTIONS; expected a non-empty path");
  free(out);
  char longname[200];
  memset(longname, 'x', sizeof longname - 1);
  longname[sizeof longname - 1] = 0;
  out = parse(longname, &w);
  CHECK_EQ(w, 1);
  CHECK_HAS(out, "ldsan: warning: unknown option 'xxxx");
  free(out);
}

static void test_help(void) {
  capture c;
  capture_begin(&c);
  ldsan_flags_set_defaults();
  ldsan_host_print_help(c.f);
  const char *out = capture_end(&c);
  CHECK_HAS(out, "ldsan: option halt_on_error  = 1  (default 1) stop the dispatch");
  CHECK_HAS(out, "ldsan: option color          = auto  (default \"auto\") colour reports");
  CHECK_HAS(out, "ldsan: option report_limit   = 20");
  CHECK_HAS(out, "ldsan: option help");
  CHECK_EQ(count_of(out, "ldsan: option "), 8);
  free(c.buf);
}

/* ldsan_host_init reads LDSAN_OPTIONS once; warnings and help go to stderr. */
static void test_env(void) {
  setenv("LDSAN_OPTIONS", "exitcode=7:help=1:bogus=1", 1);
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
  CHECK_EQ(ldsan_host_exitcode(), 7);
  CHECK_EQ(ldsan_host_halt_on_error(), 1);
  CHECK_EQ(count_of(buf, "unknown option 'bogus'"), 1);
  CHECK_EQ(count_of(buf, "ldsan: option exitcode"), 1);
}

int main(void) {
  test_defaults();
  test_separators();
  test_bad_input();
  test_help();
  test_env();
  return test_done("flags_test");
}
