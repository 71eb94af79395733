/* ldsan host: draining a channel. Dedup counts, report_limit, lost and dropped
 * lines, ABORTING, channel reset, log_path, and reports from several threads
 * not interleaving. */
#include "host_test.h"

#include <pthread.h>
#include <sys/stat.h>

static fake_memory mem_map;
static ldsan_report_channel ch;

static void channel_reset(void) {
  memset(&ch, 0, sizeof ch);
  ch.abi_version = LDSAN_ABI_VERSION;
  ch.capacity = LDSAN_CHANNEL_CAPACITY;
}

static void push(ldsan_report_record r) { ch.records[ch.next++] = r; }

/* Drains ch into a buffer; fills *st. */
static char *drain(ldsan_drain_stats *st, int *ret) {
  capture c;
  capture_begin(&c);
  ldsan_log_override(c.f);
  ldsan_device_memory mem = fake_reader(&mem_map);
  *ret = ldsan_host_drain_channel_stats(&ch, &mem, &mini_dispatch, st);
  ldsan_log_override(NULL);
  capture_end(&c);
  fputs(c.buf, stderr);
  return c.buf;
}

static void test_dedup_lost_dropped(void) {
  channel_reset();
  /* 64 lanes of two workgroups overflow tile at one pc ... */
  for (int i = 0; i < 64; i++) {
    ldsan_report_record r = mini_record(288 + 4 * (i % 16), 4, 1, LDSAN_SHADOW_LDS_REDZONE);
    r.workitem_id[0] = 64 + (uint32_t)i;
    r.lane = (uint32_t)i;
    r.workgroup_id[0] = i < 32 ? 3 : 2;
    push(r);
  }
  /* ... one lane at another pc, one lane that died mid-record, 5 dropped. */
  ldsan_report_record other = mini_record(-8, 4, 0, LDSAN_SHADOW_LDS_BLOCK_HEADER);
  other.pc = 0x7f0000005678ull;
  push(other);
  ldsan_report_record dead = mini_record(288, 4, 1, LDSAN_SHADOW_LDS_REDZONE);
  dead.state = LDSAN_RECORD_EMPTY;
  push(dead);
  ch.dropped = 5;
  ldsan_drain_stats st;
  int ret;
  char *out = drain(&st, &ret);
  CHECK_EQ(ret, 2);
  CHECK_EQ(st.errors, 65);
  CHECK_EQ(st.printed, 2);
  CHECK_EQ(st.deduplicated, 63);
  CHECK_EQ(st.lost, 1);
  CHECK_EQ(st.dropped, 5);
  CHECK_EQ(st.must_abort, 1);
  CHECK_EQ(count_of(out, "ERROR: AddressSanitizer: lds-buffer-overflow"), 1);
  CHECK_EQ(count_of(out, "ERROR: AddressSanitizer: lds-buffer-underflow"), 1);
  CHECK_HAS(out, "    (and 63 more lane(s) in 2 workgroup(s) hit lds-buffer-overflow at this pc in this dispatch; LDSAN_OPTIONS=dedup=0 prints each)\n");
  CHECK_HAS(out, "ldsan: warning: 1 report(s) lost: a lane stopped while writing its report\n");
  CHECK_HAS(out, "ldsan: warning: 5 more report(s) dropped: the report channel holds 256; fix the first reports and rerun\n");
  char line[64];
  snprintf(line, sizeof line, "\n==%ld==ABORTING\n", (long)getpid());
  CHECK_HAS(out, line);
  CHECK_EQ(count_of(out, "ABORTING"), 1);
  /* The first report is the first claimed record, in claim order. */
  CHECK(strstr(out, "lds-buffer-overflow on") < strstr(out, "lds-buffer-underflow on"));
  free(out);
  /* Reset for the next dispatch. */
  CHECK_EQ(ch.next, 0);
  CHECK_EQ(ch.dropped, 0);
  CHECK_EQ(ch.records[0].state, LDSAN_RECORD_EMPTY);
  CHECK_EQ(ch.records[64].state, LDSAN_RECORD_EMPTY);
  /* An empty channel prints nothing. */
  out = drain(&st, &ret);
  CHECK_EQ(ret, 0);
  CHECK_STREQ(out, "");
  CHECK_EQ(st.must_abort, 0);
  free(out);
}

static void test_dedup_off_and_limit(void) {
  ldsan_flags_parse("dedup=0", stderr);
  channel_reset();
  for (int i = 0; i < 4; i++) push(mini_record(288, 4, 1, LDSAN_SHADOW_LDS_REDZONE));
  ldsan_drain_stats st;
  int ret;
  char *out = drain(&st, &ret);
  CHECK_EQ(ret, 4);
  CHECK_EQ(count_of(out, "ERROR: AddressSanitizer:"), 4);
  CHECK_LACKS(out, "more lane(s)");
  free(out);

  ldsan_flags_parse("dedup=1:report_limit=2", stderr);
  channel_reset();
  for (int i = 0; i < 5; i++) {
    ldsan_report_record r = mini_record(288, 4, 1, LDSAN_SHADOW_LDS_REDZONE);
    r.pc += (uint64_t)i;
    push(r);
    push(r);  /* a second lane of the same pc */
  }
  out = drain(&st, &ret);
  CHECK_EQ(ret, 2);
  CHECK_EQ(st.printed, 2);
  CHECK_EQ(st.over_limit, 6);
  CHECK_EQ(st.deduplicated, 2);
  CHECK_EQ(count_of(out, "ERROR: AddressSanitizer:"), 2);
  CHECK_HAS(out, "ldsan: 3 more report(s) (6 lane(s)) not printed: report_limit=2 reached; LDSAN_OPTIONS=report_limit=0 prints all\n");
  free(out);
  ldsan_flags_parse("report_limit=20", stderr);
}

static void test_abort_rules(void) {
  ldsan_drain_stats st;
  int ret;
  channel_reset();
  ldsan_report_record r = mini_record(288, 4, 1, LDSAN_SHADOW_LDS_REDZONE);
  r.flags |= LDSAN_ACCESS_NOABORT;
  push(r);
  char *out = drain(&st, &ret);
  CHECK_EQ(st.must_abort, 0);
  CHECK_LACKS(out, "ABORTING");
  free(out);

  ldsan_flags_parse("halt_on_error=0", stderr);
  channel_reset();
  push(mini_record(288, 4, 1, LDSAN_SHADOW_LDS_REDZONE));
  out = drain(&st, &ret);
  CHECK_EQ(st.must_abort, 0);
  CHECK_LACKS(out, "ABORTING");
  CHECK_EQ(ret, 1);
  free(out);
  ldsan_flags_parse("halt_on_error=1", stderr);

  /* Only lost records: still a failed dispatch. */
  channel_reset();
  ldsan_report_record dead = mini_record(288, 4, 1, LDSAN_SHADOW_LDS_REDZONE);
  dead.state = LDSAN_RECORD_EMPTY;
  push(dead);
  push(dead);
  out = drain(&st, &ret);
  CHECK_EQ(ret, 0);
  CHECK_EQ(st.must_abort, 1);
  CHECK_HAS(out, "ldsan: warning: 2 report(s) lost");
  free(out);

  /* next beyond capacity: only capacity records are read, the rest were dropped. */
  channel_reset();
  ch.capacity = 2;
  push(mini_record(288, 4, 1, LDSAN_SHADOW_LDS_REDZONE));
  push(mini_record(288, 4, 1, LDSAN_SHADOW_LDS_REDZONE));
  ch.next = 9;
  ch.dropped = 7;
  out = drain(&st, &ret);
  CHECK_EQ(st.errors, 2);
  CHECK_EQ(st.lost, 0);
  CHECK_HAS(out, "ldsan: warning: 7 more report(s) dropped: the report channel holds 2;");
  free(out);

  /* A channel from another ABI: no records read. */
  channel_reset();
  ch.abi_version = 99;
  push(mini_record(288, 4, 1, LDSAN_SHADOW_LDS_REDZONE));
  out = drain(&st, &ret);
  CHECK_EQ(ret, 0);
  CHECK_HAS(out, "ldsan: warning: report channel has ABI version 99, this library 1: 1 record(s) ignored");
  free(out);
}

/* Several threads drain their own channels into one stream at once. */
static FILE *shared_out;
static void *drain_thread(void *arg) {
  ldsan_report_channel *c = arg;
  ldsan_device_memory mem = fake_reader(&mem_map);
  for (int rep = 0; rep < 10; rep++) {
    c->abi_version = LDSAN_ABI_VERSION;
    c->capacity = LDSAN_CHANNEL_CAPACITY;
    for (int i = 0; i < 3; i++) {
      c->records[i] = mini_record(288, 4, 1, LDSAN_SHADOW_LDS_REDZONE);
      c->records[i].pc += (uint64_t)i;
    }
    c->next = 3;
    ldsan_host_drain_channel(c, &mem, &mini_dispatch);
  }
  return NULL;
}

static void test_threads(void) {
  capture c;
  capture_begin(&c);
  shared_out = c.f;
  ldsan_log_override(shared_out);
  ldsan_flags_parse("print_legend=0", stderr);
  static ldsan_report_channel chans[4];
  pthread_t t[4];
  for (int i = 0; i < 4; i++) pthread_create(&t[i], NULL, drain_thread, &chans[i]);
  for (int i = 0; i < 4; i++) pthread_join(t[i], NULL);
  ldsan_log_override(NULL);
  const char *out = capture_end(&c);
  CHECK_EQ(count_of(out, "ERROR: AddressSanitizer:"), 120);
  CHECK_EQ(count_of(out, "ABORTING"), 40);
  /* Each report is contiguous: RULE, ERROR ... SUMMARY, then RULE or ABORTING. */
  int bad = 0;
  for (const char *p = strstr(out, "ERROR: AddressSanitizer:"); p; ) {
    const char *next = strstr(p + 1, "ERROR: AddressSanitizer:");
    const char *sum = strstr(p, "SUMMARY: AddressSanitizer:");
    if (!sum || (next && sum > next)) bad++;
    p = next;
  }
  CHECK_EQ(bad, 0);
  free(c.buf);
  ldsan_flags_parse("print_legend=1", stderr);
}

static void test_log_path(void) {
  char dir[] = "/tmp/ldsan-drain-test-XXXXXX";
  CHECK(mkdtemp(dir) != NULL);
  char opt[128], file[160];
  snprintf(opt, sizeof opt, "log_path=%s/log", dir);
  ldsan_flags_parse(opt, stderr);
  channel_reset();
  push(mini_record(288, 4, 1, LDSAN_SHADOW_LDS_REDZONE));
  ldsan_device_memory mem = fake_reader(&mem_map);
  CHECK_EQ(ldsan_host_drain_channel(&ch, &mem, &mini_dispatch), 1);
  snprintf(file, sizeof file, "%s/log.%ld", dir, (long)getpid());
  FILE *f = fopen(file, "r");
  CHECK(f != NULL);
  if (f) {
    char buf[8192];
    size_t n = fread(buf, 1, sizeof buf - 1, f);
    buf[n] = 0;
    fclose(f);
    CHECK_HAS(buf, "ERROR: AddressSanitizer: lds-buffer-overflow");
    remove(file);
  }
  rmdir(dir);
}

int main(void) {
  ldsan_host_init();
  ldsan_flags_parse("color=never:print_legend=0", stderr);
  mini_setup(&mem_map, 0, 0);
  test_dedup_lost_dropped();
  test_dedup_off_and_limit();
  test_abort_rules();
  test_threads();
  test_log_path();
  fake_free(&mem_map);
  return test_done("drain_test");
}
