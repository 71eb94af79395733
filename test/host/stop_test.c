/* ldsan host unit test: the stop rule (stop.c) as a table, every row a drain's
 * (or one record's) facts under halt_on_error=0 and =1, and the device's share
 * of the rule (ldsan_stop_device_flags). */
#include "host_test.h"

enum { E = 0, R = LDSAN_ACCESS_NOABORT, W = LDSAN_REPORT_WARNING };  /* error, recoverable, warning */

typedef struct row {
  const char *what;
  int flags[3], nrecords;       /* records noted, by flags */
  uint32_t lost, dropped;
  int bad_channel;
  int stop_recover, stop_halt;  /* expected under halt_on_error=0, =1 */
} row;

static const row rows[] = {
  {"nothing", {0}, 0, 0, 0, 0, 0, 0},
  {"one error", {E}, 1, 0, 0, 0, 0, 1},
  {"one recoverable error", {R}, 1, 0, 0, 0, 0, 0},
  {"one warning", {W}, 1, 0, 0, 0, 0, 0},
  {"a recoverable warning", {W | R}, 1, 0, 0, 0, 0, 0},
  {"warning then error", {W, E}, 2, 0, 0, 0, 0, 1},
  {"recoverable then error", {R, E}, 2, 0, 0, 0, 0, 1},
  {"lost, no record", {0}, 0, 1, 0, 0, 0, 1},
  {"dropped, no record", {0}, 0, 0, 3, 0, 0, 1},
  {"lost with a warning only", {W}, 1, 2, 0, 0, 0, 1},
  {"dropped with a recoverable error", {R}, 1, 0, 1, 0, 0, 0},
  {"lost with an error", {E}, 1, 1, 0, 0, 0, 1},
  {"bad channel", {0}, 0, 0, 0, 1, 1, 1},
  {"bad channel, recoverable", {R}, 1, 0, 0, 1, 1, 1},
};

static void test_table(void) {
  for (int halt = 0; halt <= 1; halt++) {
    ldsan_flags_parse(halt ? "halt_on_error=1" : "halt_on_error=0", stderr);
    for (size_t i = 0; i < sizeof rows / sizeof rows[0]; i++) {
      const row *t = &rows[i];
      ldsan_stop_facts f = {0};
      for (int k = 0; k < t->nrecords; k++) {
        ldsan_report_record r;
        memset(&r, 0, sizeof r);
        r.flags = (uint32_t)t->flags[k];
        ldsan_stop_note(&f, &r);
      }
      f.lost = t->lost;
      f.dropped = t->dropped;
      f.bad_channel = t->bad_channel;
      int want = halt ? t->stop_halt : t->stop_recover;
      if (ldsan_stop_decide(&f) != want) {
        fprintf(stderr, "stop_test: %s, halt_on_error=%d: stop %d, want %d\n", t->what, halt, !want, want);
        test_failures++;
      }
    }
    CHECK_EQ(ldsan_stop_device_flags(), halt ? LDSAN_STATE_HALT_ON_ERROR : 0);
  }
}

/* The line before the end, as ASan's. */
static void test_announce(void) {
  char buf[64], want[64];
  FILE *f = fmemopen(buf, sizeof buf, "w");
  ldsan_stop_announce(f);
  fclose(f);
  snprintf(want, sizeof want, "==%ld==ABORTING\n", (long)getpid());
  CHECK_STREQ(buf, want);
}

int main(void) {
  ldsan_host_init();
  ldsan_flags_set_defaults();  /* hermetic: whatever ASAN_OPTIONS the runner has */
  test_table();
  test_announce();
  ldsan_flags_set_defaults();
  return test_done("stop_test");
}
