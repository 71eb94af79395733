/* ldsan host: draining a channel. Dedup counts and the folded-lanes sentence,
 * report_limit, lost and dropped lines, channel header errors, ABORTING,
 * channel reset, log_path (from ASAN_OPTIONS too, any length, shared with host
 * ASan's report file), JSON reports listing every folded work-item of the
 * workgroup, and reports from several threads not interleaving. */
#include "host_test.h"

#include <pthread.h>
#include <sanitizer/common_interface_defs.h>
#include <sys/stat.h>
#include <sys/wait.h>

static fake_memory mem_map;
static ldsan_report_channel ch;

static void channel_reset(void) {
  memset(&ch, 0, sizeof ch);
  ch.abi_version = LDSAN_ABI_VERSION;
  ch.capacity = LDSAN_CHANNEL_CAPACITY;
}

static void push(ldsan_report_record r) { ch.records[ch.next++] = r; }

/* The mini dispatch whose kernel arguments start at args (272 bytes). */
static ldsan_dispatch_info dispatch_at(uint64_t args) {
  ldsan_dispatch_info d = mini_dispatch;
  d.args_begin = args;
  d.args_end = args + 272;
  return d;
}

/* Drains ch for dispatch `d` into a buffer; fills *st. */
static char *drain_for(const ldsan_dispatch_info *d, ldsan_drain_stats *st, int *ret) {
  capture c;
  capture_begin(&c);
  ldsan_log_override(c.f);
  ldsan_device_memory mem = fake_reader(&mem_map);
  *ret = ldsan_host_drain_channel_stats(&ch, &mem, d, st);
  ldsan_log_override(NULL);
  capture_end(&c);
  fputs(c.buf, stderr);
  return c.buf;
}

/* A final drain (no dispatch running: a WRITING slot is lost) of every record. */
static char *drain(ldsan_drain_stats *st, int *ret) {
  ldsan_dispatch_info d = mini_dispatch;
  d.final = 1;
  return drain_for(&d, st, ret);
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
  dead.state = LDSAN_RECORD_WRITING;  /* claimed, never published */
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
  /* 32 lanes of workgroup 3 (the report's), 32 of workgroup 2. */
  CHECK_HAS(out, "    #0 0x7f0000001234  (<unknown module>)\n"
                 "    63 more work-items (31 in this workgroup, 32 in 1 other workgroup) made the same "
                 "lds-buffer-overflow at this pc in this dispatch; LDSAN_OPTIONS=dedup=0 prints each\n");
  CHECK_EQ(count_of(out, "more work-item"), 1);  /* the underflow was alone */
  CHECK_HAS(out, "ldsan: warning: 1 report(s) lost: a lane stopped while writing its report\n");
  CHECK_HAS(out, "ldsan: warning: 5 more report(s) dropped: the report channel holds 256; fix the first reports and rerun\n");
  char line[64];
  snprintf(line, sizeof line, "\n==%ld==ABORTING\n", (long)getpid());
  CHECK_HAS(out, line);
  CHECK_EQ(count_of(out, "ABORTING"), 1);
  /* The first report is the first claimed record, in claim order. */
  CHECK(strstr(out, "lds-buffer-overflow on") < strstr(out, "lds-buffer-underflow on"));
  free(out);
  /* Slots given back (the lost one too: a final drain), tickets keep counting. */
  CHECK_EQ(ch.next, 66);
  CHECK_EQ(ch.dropped, 0);
  CHECK_EQ(ch.records[0].state, LDSAN_RECORD_EMPTY);
  CHECK_EQ(ch.records[64].state, LDSAN_RECORD_EMPTY);
  CHECK_EQ(ch.records[65].state, LDSAN_RECORD_EMPTY);
  /* An empty channel prints nothing. */
  out = drain(&st, &ret);
  CHECK_EQ(ret, 0);
  CHECK_STREQ(out, "");
  CHECK_EQ(st.must_abort, 0);
  free(out);
}

/* Several dispatches share the ring: a drain takes only its dispatch's records
 * (by the implicit-argument pointer each record carries), leaves the others
 * and every slot still being written, and a later drain finds them. */
static void test_ring_attribution(void) {
  channel_reset();
  ch.next = 250;  /* tickets wrap around the ring: oldest first all the same */
  for (int i = 0; i < 8; i++) {
    ldsan_report_record r = mini_record(288, 4, 1, LDSAN_SHADOW_LDS_REDZONE);
    r.flags |= LDSAN_ACCESS_NOABORT;
    r.workgroup_id[0] = (uint32_t)i;
    r.dispatch = i % 2 ? 0x9010 : 0x5010;  /* two dispatches' implicit arguments */
    ch.records[ch.next % LDSAN_CHANNEL_CAPACITY] = r;
    ch.next++;
  }
  ch.records[ch.next % LDSAN_CHANNEL_CAPACITY] = mini_record(288, 4, 1, LDSAN_SHADOW_LDS_REDZONE);
  ch.records[ch.next % LDSAN_CHANNEL_CAPACITY].state = LDSAN_RECORD_WRITING;  /* a lane still writing */
  ch.next++;
  ldsan_flags_parse("dedup=0", stderr);
  ldsan_dispatch_info a = dispatch_at(0x5000);
  ldsan_drain_stats st;
  int ret;
  char *out = drain_for(&a, &st, &ret);
  CHECK_EQ(ret, 4);
  CHECK_EQ(st.lost, 0);
  CHECK_EQ(count_of(out, "of workgroup (0,1,0)"), 1);
  CHECK_EQ(count_of(out, "of workgroup (1,1,0)"), 0);
  CHECK(strstr(out, "of workgroup (0,1,0)") < strstr(out, "of workgroup (6,1,0)"));  /* ticket order across the wrap */
  free(out);
  CHECK_EQ(ch.records[250 % LDSAN_CHANNEL_CAPACITY].state, LDSAN_RECORD_EMPTY);
  CHECK_EQ(ch.records[251 % LDSAN_CHANNEL_CAPACITY].state, LDSAN_RECORD_READY);
  CHECK_EQ(ch.records[258 % LDSAN_CHANNEL_CAPACITY].state, LDSAN_RECORD_WRITING);
  ldsan_dispatch_info b = dispatch_at(0x9000);
  out = drain_for(&b, &st, &ret);
  CHECK_EQ(ret, 4);
  CHECK_EQ(count_of(out, "of workgroup (1,1,0)"), 1);
  CHECK_EQ(count_of(out, "of workgroup (7,1,0)"), 1);
  free(out);
  /* Nothing of a, nothing of b left; the writing slot stays until a final drain. */
  out = drain_for(&a, &st, &ret);
  CHECK_EQ(ret, 0);
  CHECK_STREQ(out, "");
  free(out);
  out = drain(&st, &ret);
  CHECK_EQ(st.lost, 1);
  CHECK_EQ(ch.records[258 % LDSAN_CHANNEL_CAPACITY].state, LDSAN_RECORD_EMPTY);
  free(out);
  ldsan_flags_parse("dedup=1", stderr);
}

/* The first-report reserve (abi.h): dispatch A's 256 records fill the ring;
 * dispatch B's four errors then get one record in the reserve and three drops
 * counted as B's (ldsan_host_channel_post, as the device and the emulator
 * post). B's drain prints its report and says 3 dropped; A's drain prints
 * A's, with none of B's drops; the reserve slot is free again. */
static void test_first_report_reserve(void) {
  channel_reset();
  ldsan_flags_parse("halt_on_error=0", stderr);
  for (int i = 0; i < (int)LDSAN_CHANNEL_CAPACITY; i++) {
    ldsan_report_record r = mini_record(288, 4, 1, LDSAN_SHADOW_LDS_REDZONE);
    r.flags |= LDSAN_ACCESS_NOABORT;
    r.dispatch = 0x5010;
    CHECK_EQ(ldsan_host_channel_post(&ch, &r), 1);
  }
  for (int i = 0; i < 4; i++) {
    ldsan_report_record r = mini_record(-8, 4, 0, LDSAN_SHADOW_LDS_BLOCK_HEADER);
    r.flags |= LDSAN_ACCESS_NOABORT;
    r.dispatch = 0x9010;
    CHECK_EQ(ldsan_host_channel_post(&ch, &r), i == 0);
  }
  CHECK_EQ(ch.dropped, 0);
  ldsan_dispatch_info a = dispatch_at(0x5000), b = dispatch_at(0x9000);
  ldsan_drain_stats st;
  int ret;
  char *out = drain_for(&b, &st, &ret);
  CHECK_EQ(ret, 1);
  CHECK_EQ(st.dropped, 3);
  CHECK_EQ(count_of(out, "ERROR: AddressSanitizer: lds-buffer-underflow"), 1);
  CHECK_HAS(out, "ldsan: warning: 3 more report(s) dropped");
  free(out);
  for (uint32_t k = 0; k < LDSAN_CHANNEL_FIRST; k++) CHECK_EQ(ch.first_owner[k], 0);
  out = drain_for(&a, &st, &ret);
  CHECK_EQ(ret, 1);
  CHECK_EQ(st.dropped, 0);
  CHECK_EQ(st.deduplicated, LDSAN_CHANNEL_CAPACITY - 1);
  CHECK_EQ(count_of(out, "lds-buffer-overflow on"), 1);
  free(out);
  ldsan_flags_parse("halt_on_error=1", stderr);
}

/* fork() while another thread holds the report lock (it is printing): the
 * child must not inherit the lock held by a thread it does not have. With
 * ldsan_host_fork_safe (installed with the first code object) fork waits for
 * the lock and the child's report goes through; without, the child's first
 * report waited for ever (alarm: SIGALRM). */
static pthread_mutex_t held_mu = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t held_cv = PTHREAD_COND_INITIALIZER;
static int held;

static void *hold_report_lock(void *arg) {
  (void)arg;
  ldsan_report_lock();
  pthread_mutex_lock(&held_mu);
  held = 1;
  pthread_cond_signal(&held_cv);
  pthread_mutex_unlock(&held_mu);
  usleep(200 * 1000);
  ldsan_report_unlock();
  return NULL;
}

static void test_fork_while_reporting(void) {
  ldsan_host_fork_safe();
  pthread_t t;
  held = 0;
  CHECK_EQ(pthread_create(&t, NULL, hold_report_lock, NULL), 0);
  pthread_mutex_lock(&held_mu);
  while (!held) pthread_cond_wait(&held_cv, &held_mu);
  pthread_mutex_unlock(&held_mu);
  fflush(NULL);
  pid_t pid = fork();
  if (pid == 0) {
    alarm(10);
    channel_reset();
    push(mini_record(288, 4, 1, LDSAN_SHADOW_LDS_REDZONE));
    FILE *devnull = fopen("/dev/null", "w");
    ldsan_log_override(devnull);
    ldsan_device_memory mem = fake_reader(&mem_map);
    ldsan_flags_parse("halt_on_error=0", stderr);
    _exit(ldsan_host_drain_channel(&ch, &mem, &mini_dispatch) == 1 ? 0 : 2);
  }
  int status = 0;
  waitpid(pid, &status, 0);
  pthread_join(t, NULL);
  CHECK(WIFEXITED(status));
  CHECK_EQ(WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status), 0);
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
  CHECK_LACKS(out, "more work-item");
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
  dead.state = LDSAN_RECORD_WRITING;  /* claimed, never published */
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
}

/* A copy of line k of text (with its newline), or an empty string. */
static char *line_at(const char *text, int k) {
  const char *p = text;
  for (int i = 0; i < k && p; i++) {
    p = strchr(p, '\n');
    if (p) p++;
  }
  if (!p) return strdup("");
  const char *end = strchr(p, '\n');
  return strndup(p, end ? (size_t)(end - p + 1) : strlen(p));
}

/* The folded-lanes sentence: singular and plural, other workgroups counted
 * without the report's own. Records: (workgroup x of each lane). */
static void fold_case(const uint32_t *wgs, int n, const char *want) {
  channel_reset();
  for (int i = 0; i < n; i++) {
    ldsan_report_record r = mini_record(288, 4, 1, LDSAN_SHADOW_LDS_REDZONE);
    r.workgroup_id[0] = wgs[i];
    r.workitem_id[0] = 64 + (uint32_t)i;
    push(r);
  }
  ldsan_drain_stats st;
  int ret;
  char *out = drain(&st, &ret);
  CHECK_EQ(ret, 1);
  CHECK_EQ(st.deduplicated, (uint32_t)n - 1);
  char line[512];
  snprintf(line, sizeof line, "    #0 0x7f0000001234  (<unknown module>)\n    %s made the same lds-buffer-overflow at this pc "
           "in this dispatch; LDSAN_OPTIONS=dedup=0 prints each\n\n", want);
  CHECK_HAS(out, line);
  free(out);
}

static void test_fold_wording(void) {
  fold_case((const uint32_t[]){3, 2}, 2, "1 more work-item (in 1 other workgroup)");
  fold_case((const uint32_t[]){3, 3}, 2, "1 more work-item (in this workgroup)");
  fold_case((const uint32_t[]){3, 3, 3}, 3, "2 more work-items (all in this workgroup)");
  fold_case((const uint32_t[]){3, 0, 1, 2}, 4, "3 more work-items (in 3 other workgroups)");
  fold_case((const uint32_t[]){3, 0, 0, 0}, 4, "3 more work-items (in 1 other workgroup)");
  fold_case((const uint32_t[]){3, 0, 3, 1}, 4, "3 more work-items (1 in this workgroup, 2 in 2 other workgroups)");
  fold_case((const uint32_t[]){3, 3, 0}, 3, "2 more work-items (1 in this workgroup, 1 in 1 other workgroup)");
  /* Without a pc, records fold by LDS offset. */
  channel_reset();
  for (int i = 0; i < 2; i++) {
    ldsan_report_record r = mini_record(288, 4, 1, LDSAN_SHADOW_LDS_REDZONE);
    r.pc = 0;
    push(r);
  }
  ldsan_drain_stats st;
  int ret;
  char *out = drain(&st, &ret);
  CHECK_HAS(out, "    1 more work-item (in this workgroup) made the same lds-buffer-overflow at this LDS offset in this dispatch;");
  free(out);
}

/* A header ldsan cannot trust stops the program whatever halt_on_error says. */
static void test_header_errors(void) {
  ldsan_flags_parse("halt_on_error=0", stderr);
  ldsan_drain_stats st;
  int ret;
  char aborting_line[64];
  snprintf(aborting_line, sizeof aborting_line, "==%ld==ABORTING\n", (long)getpid());

  channel_reset();
  ch.abi_version = 99;
  push(mini_record(288, 4, 1, LDSAN_SHADOW_LDS_REDZONE));
  char *out = drain(&st, &ret);
  char want[512];
  snprintf(want, sizeof want,
           "ldsan: error: report channel has ABI version 99, but this ldsan host library reads only version %u: "
           "no report of this dispatch can be read; build the program and its device code with one ldsan\n%s",
           LDSAN_ABI_VERSION, aborting_line);
  CHECK_STREQ(out, want);
  CHECK_EQ(ret, 0);
  CHECK_EQ(st.errors, 1);
  CHECK_EQ(st.printed, 0);
  CHECK_EQ(st.must_abort, 1);
  free(out);

  channel_reset();
  ch.capacity = 0;
  ch.next = 3;
  ch.dropped = 3;
  out = drain(&st, &ret);
  snprintf(want, sizeof want,
           "ldsan: error: report channel has capacity 0, but a channel holds 1 to 256 records: its header is corrupt "
           "(a stray device write, or never set up); the device could record no report\n"
           "ldsan: warning: 3 more report(s) dropped: the report channel holds 0; fix the first reports and rerun\n%s",
           aborting_line);
  CHECK_STREQ(out, want);
  CHECK_EQ(st.errors, 1);
  CHECK_EQ(st.dropped, 3);
  CHECK_EQ(st.must_abort, 1);
  free(out);

  channel_reset();
  ch.capacity = 1000;
  push(mini_record(288, 4, 1, LDSAN_SHADOW_LDS_REDZONE));
  out = drain(&st, &ret);
  const char *first = "ldsan: error: report channel has capacity 1000, but a channel holds 1 to 256 records: its "
                      "header is corrupt (a stray device write, or never set up); reading the records it has room for\n";
  CHECK(strncmp(out, first, strlen(first)) == 0);
  CHECK_EQ(ret, 1);  /* the records it has are still printed */
  CHECK_EQ(st.errors, 2);
  CHECK_EQ(st.must_abort, 1);
  CHECK_HAS(out, "ERROR: AddressSanitizer: lds-buffer-overflow");
  CHECK_HAS(out, aborting_line);
  free(out);
  ldsan_flags_parse("halt_on_error=1", stderr);
}

/* report_format=json: one line per report listing every work-item of the
 * report's workgroup folded into it; ldsan's own lines stay text. */
static void test_json(void) {
  ldsan_flags_parse("report_format=json", stderr);
  channel_reset();
  static const uint32_t wg[6] = {3, 2, 3, 3, 5, 2};
  for (int i = 0; i < 6; i++) {
    ldsan_report_record r = mini_record(288 + 4 * i, 4, 1, LDSAN_SHADOW_LDS_REDZONE);
    r.workgroup_id[0] = wg[i];
    r.workitem_id[0] = 64 + (uint32_t)i;
    r.workitem_id[1] = (uint32_t)i % 2;
    push(r);
  }
  ldsan_report_record other = mini_record(-8, 4, 0, LDSAN_SHADOW_LDS_BLOCK_HEADER);
  other.pc = 0x7f0000005678ull;
  push(other);
  ldsan_report_record dead = mini_record(288, 4, 1, LDSAN_SHADOW_LDS_REDZONE);
  dead.state = LDSAN_RECORD_WRITING;  /* claimed, never published */
  push(dead);
  ldsan_drain_stats st;
  int ret;
  char *out = drain(&st, &ret);
  CHECK_EQ(ret, 2);
  CHECK_EQ(count_of(out, "\n"), 4);
  char *line = line_at(out, 0);
  json_object o;
  CHECK_JSON_REPORT(line, &o);
  CHECK_STREQ(json_raw(&o, "type"), "\"lds-buffer-overflow\"");
  CHECK_STREQ(json_raw(&o, "workgroup"), "[3,1,0]");
  CHECK_STREQ(json_raw(&o, "threads"), "[[64,0,0],[66,0,0],[67,1,0]]");
  CHECK_STREQ(json_raw(&o, "addresses"), "[\"0x20120\",\"0x20128\",\"0x2012c\"]");
  CHECK_STREQ(json_raw(&o, "more_work_items"), "3");
  CHECK_STREQ(json_raw(&o, "other_workgroups"), "2");
  CHECK_STREQ(json_raw(&o, "variable"), "\"tile\"");
  CHECK_STREQ(json_raw(&o, "offset"), "256");
  free(line);
  line = line_at(out, 1);
  CHECK_JSON_REPORT(line, &o);
  CHECK_STREQ(json_raw(&o, "type"), "\"lds-buffer-underflow\"");
  CHECK_STREQ(json_raw(&o, "threads"), "[[64,0,0]]");
  CHECK_STREQ(json_raw(&o, "more_work_items"), "0");
  free(line);
  line = line_at(out, 2);
  CHECK_STREQ(line, "ldsan: warning: 1 report(s) lost: a lane stopped while writing its report\n");
  free(line);
  line = line_at(out, 3);
  char want[64];
  snprintf(want, sizeof want, "==%ld==ABORTING\n", (long)getpid());
  CHECK_STREQ(line, want);
  free(line);
  free(out);

  /* dedup=0: each record is its own report, listing only itself. */
  ldsan_flags_parse("dedup=0", stderr);
  channel_reset();
  for (int i = 0; i < 2; i++) push(mini_record(288, 4, 1, LDSAN_SHADOW_LDS_REDZONE));
  out = drain(&st, &ret);
  CHECK_EQ(ret, 2);
  CHECK_EQ(count_of(out, "{\"ldsan_report\":1,"), 2);
  CHECK_EQ(count_of(out, "\"threads\":[[64,0,0]],\"addresses\":[\"0x20120\"],\"more_work_items\":0,\"other_workgroups\":0,"), 2);
  free(out);
  ldsan_flags_parse("dedup=1:report_format=text", stderr);
}

/* Several threads drain their own channels into one stream at once. With
 * halt_on_error=0: after an aborting report the first thread ends the process
 * and the others block (die.c), so this test runs first and never aborts. */
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
  ldsan_flags_parse("halt_on_error=0", stderr);
  static ldsan_report_channel chans[4];
  pthread_t t[4];
  for (int i = 0; i < 4; i++) pthread_create(&t[i], NULL, drain_thread, &chans[i]);
  for (int i = 0; i < 4; i++) pthread_join(t[i], NULL);
  ldsan_log_override(NULL);
  const char *out = capture_end(&c);
  CHECK_EQ(count_of(out, "ERROR: AddressSanitizer:"), 120);
  CHECK_EQ(count_of(out, "ABORTING"), 0);
  /* Each report is contiguous: RULE, ERROR ... SUMMARY, then the next RULE. */
  int bad = 0;
  for (const char *p = strstr(out, "ERROR: AddressSanitizer:"); p; ) {
    const char *next = strstr(p + 1, "ERROR: AddressSanitizer:");
    const char *sum = strstr(p, "SUMMARY: AddressSanitizer:");
    const char *rule = strstr(p, "=================================================================\n");
    if (!sum || (next && sum > next) || (rule && rule < sum)) bad++;
    p = next;
  }
  CHECK_EQ(bad, 0);
  free(c.buf);
  ldsan_flags_parse("halt_on_error=1", stderr);
}

/* Drains one overflow record to the configured log; returns the log file's
 * text ("<prefix>.<pid>") and removes the file. */
static char *drain_to_log(const char *prefix) {
  channel_reset();
  push(mini_record(288, 4, 1, LDSAN_SHADOW_LDS_REDZONE));
  ldsan_device_memory mem = fake_reader(&mem_map);
  ldsan_flags_parse("halt_on_error=0", stderr);
  CHECK_EQ(ldsan_host_drain_channel(&ch, &mem, &mini_dispatch), 1);
  ldsan_flags_parse("halt_on_error=1", stderr);
  ldsan_log_close();
  char *file = malloc(strlen(prefix) + 32);
  sprintf(file, "%s.%ld", prefix, (long)getpid());
  char *text = slurp(file);
  CHECK(text != NULL);
  remove(file);
  free(file);
  return text;
}

static void test_log_path(void) {
  char dir[] = "/tmp/ldsan-drain-test-XXXXXX";
  CHECK(mkdtemp(dir) != NULL);
  char opt[160], prefix[128];
  snprintf(prefix, sizeof prefix, "%s/log", dir);

  /* LDSAN_OPTIONS=log_path */
  snprintf(opt, sizeof opt, "log_path=%s", prefix);
  ldsan_flags_parse(opt, stderr);
  char *text = drain_to_log(prefix);
  CHECK_HAS(text, "ERROR: AddressSanitizer: lds-buffer-overflow");
  free(text);

  /* ASAN_OPTIONS=log_path: ldsan's reports go to the same <log_path>.<pid>. */
  ldsan_flags_load(opt, NULL, stderr);
  ldsan_flags_parse("color=never:print_legend=0", stderr);
  text = drain_to_log(prefix);
  CHECK_HAS(text, "ERROR: AddressSanitizer: lds-buffer-overflow");
  free(text);

  /* Host ASan writing its reports to that file too: it truncates the file when
   * it opens it and writes at its own offset, unless ldsan hands it its
   * append-mode descriptor. ASan's report here comes after ldsan's. */
  __sanitizer_set_report_path(prefix);
  ldsan_flags_parse(opt, stderr);
  channel_reset();
  push(mini_record(288, 4, 1, LDSAN_SHADOW_LDS_REDZONE));
  ldsan_device_memory mem = fake_reader(&mem_map);
  ldsan_flags_parse("halt_on_error=0", stderr);
  CHECK_EQ(ldsan_host_drain_channel(&ch, &mem, &mini_dispatch), 1);
  ldsan_flags_parse("halt_on_error=1", stderr);
  __sanitizer_report_error_summary("SUMMARY: from host ASan");
  __sanitizer_set_report_fd((void *)(intptr_t)2);  /* ASan back to stderr before ldsan closes the file */
  ldsan_log_close();
  char file[192];
  snprintf(file, sizeof file, "%s.%ld", prefix, (long)getpid());
  text = slurp(file);
  CHECK(text != NULL);
  CHECK(text && strncmp(text, "=================================================================\n==", 68) == 0);
  CHECK_HAS(text, "\nSUMMARY: AddressSanitizer: lds-buffer-overflow in k1(int*, int)\nSUMMARY: from host ASan\n");
  CHECK(text && strlen(text) > 24 && strcmp(text + strlen(text) - 24, "SUMMARY: from host ASan\n") == 0);
  free(text);
  remove(file);

  /* A 2000-character log_path (nested directories of 199 characters). */
  char path[2001];
  size_t len = (size_t)snprintf(path, sizeof path, "%s", dir);
  while (len < 2000 - 200) {
    path[len++] = '/';
    memset(path + len, 'd', 199);
    len += 199;
    path[len] = 0;
    CHECK(mkdir(path, 0700) == 0);
  }
  path[len++] = '/';
  memset(path + len, 'f', 2000 - len);
  path[2000] = 0;
  char *long_opt = malloc(2100);
  snprintf(long_opt, 2100, "log_path=%s", path);
  ldsan_flags_parse(long_opt, stderr);
  CHECK_EQ(strlen(ldsan_flags_get()->log_path), 2000);
  text = drain_to_log(path);
  CHECK_HAS(text, "ERROR: AddressSanitizer: lds-buffer-overflow");
  free(text);
  free(long_opt);
  while (strlen(path) > strlen(dir)) {  /* remove the directories, innermost first */
    *strrchr(path, '/') = 0;
    if (strlen(path) > strlen(dir)) rmdir(path);
  }
  ldsan_flags_parse("log_path=stderr", stderr);
  rmdir(dir);
}

/* Hazard records: one report per kind and pc pair (a different earlier
 * access is another report), the writer's repeats counted with the folded
 * lanes, warnings counted apart and never aborting. */
static void test_hazards(void) {
  channel_reset();
  ldsan_report_record r = mini_race();
  r.repeats = 5;
  r.repeats_elsewhere = 40;
  r.repeat_workgroups = 3;
  push(r);
  ldsan_report_record again = mini_race();  /* same pcs, another work-item */
  again.workitem_id[0] = 65;
  push(again);
  ldsan_report_record other_pc = mini_race();  /* another earlier access */
  other_pc.other_pc = 0x7f0000009999ull;
  push(other_pc);
  ldsan_report_record warn = mini_race();
  warn.flags |= LDSAN_REPORT_WARNING | LDSAN_ACCESS_SAME_WAVE;
  push(warn);
  ldsan_drain_stats st;
  int printed;
  char *out = drain(&st, &printed);
  CHECK_EQ(printed, 3);
  CHECK_EQ(st.errors, 3u);
  CHECK_EQ(st.warnings, 1u);
  CHECK_EQ(st.deduplicated, 46u);
  CHECK_HAS(out, "    46 more work-items (6 in this workgroup, 40 in 3 other workgroups) made the same lds-data-race");
  CHECK(count_of(out, "ERROR: AddressSanitizer: lds-data-race") == 2);
  CHECK(count_of(out, "WARNING: ldsan: lds-data-race") == 1);
  CHECK(st.must_abort);
  free(out);
  /* Warnings alone: printed, nothing stops. */
  channel_reset();
  push(warn);
  out = drain(&st, &printed);
  CHECK_EQ(printed, 1);
  CHECK_EQ(st.errors, 0u);
  CHECK(!st.must_abort);
  CHECK(!strstr(out, "ABORTING"));
  free(out);
}

/* An uninitialized read of LDS bytes that all lie outside every variable
 * (tile's redzone, the compiler's slot) is the same access as a bounds
 * report: not printed again, its slot given back. One that touches a
 * variable is printed, also when it runs on into the redzone. */
static void test_uninit_out_of_bounds(void) {
  channel_reset();
  ldsan_report_record in_redzone = mini_race(), in_slot = mini_race(), inside = mini_race(), across = mini_race();
  ldsan_report_record *all[] = {&in_redzone, &in_slot, &inside, &across};
  int64_t offsets[] = {288, 0, 36, 284};
  for (int i = 0; i < 4; i++) {
    all[i]->kind = LDSAN_REPORT_LDS_UNINIT_READ;
    all[i]->hazard = 0;
    all[i]->address = all[i]->access_address = MINI_BLOCK + (uint64_t)offsets[i];
    all[i]->pc += (uint64_t)i * 16; /* four sites */
    all[i]->size = i == 3 ? 8 : 4;
    push(*all[i]);
  }
  ldsan_drain_stats st;
  int printed;
  char *out = drain(&st, &printed);
  CHECK_EQ(printed, 2);
  CHECK_EQ(st.errors, 4u);        /* the two not printed are folded into their bounds reports */
  CHECK_EQ(st.deduplicated, 2u);
  CHECK(count_of(out, "lds-uninitialized-read in kernel") == 2);
  CHECK_HAS(out, "is located 4 bytes inside of LDS variable 'tile'");
  for (uint32_t k = 0; k < 4; k++) CHECK_EQ(ch.records[k].state, (uint32_t)LDSAN_RECORD_EMPTY);
  free(out);
}

/* A symbolizer for test_dedup_by_source: pcs 0x1000 and 0x1010 are two
 * copies of k.hip:5:3 (an unrolled loop), 0x1020 is k.hip:5:9, 0x1030 is
 * k.hip:5:3 inlined into another caller, 0x1040 and 0x1050 are k.hip:7 with
 * no column; 0x3000 and 0x3010 have no line. */
static int fake_symbolize(void *ctx, uint64_t pc, ldsan_frame *frames, int max) {
  (void)ctx;
  if (max < 2) return 0;
  ldsan_frame inner = {"tile_step", "k.hip", 5, 3, "k.co", pc};
  ldsan_frame outer = {"kern", "k.hip", 20, 1, "k.co", pc};
  switch (pc) {
  case 0x1000: case 0x1010: frames[0] = inner; frames[1] = outer; return 2;
  case 0x1020: inner.column = 9; frames[0] = inner; frames[1] = outer; return 2;
  case 0x1030: outer.line = 30; frames[0] = inner; frames[1] = outer; return 2;
  case 0x1040: case 0x1050: inner.line = 7; inner.column = 0; frames[0] = inner; frames[1] = outer; return 2;
  default: frames[0] = (ldsan_frame){NULL, NULL, 0, 0, "k.co", pc}; return 1;
  }
}

/* Dedup folds the records of one source location (all its inlined frames
 * alike), not only of one pc; without a source line and column (or with
 * symbolize=0) the pc is the key. Hazards fold by the pair of locations. */
static void test_dedup_by_source(void) {
  ldsan_dispatch_info d = mini_dispatch;
  d.final = 1;
  d.symbolize = fake_symbolize;
  static const uint64_t pcs[] = {0x1000, 0x1010, 0x1020, 0x1030, 0x1040, 0x1050, 0x3000, 0x3010};
  for (int symbolize = 1; symbolize >= 0; symbolize--) {
    ldsan_flags_parse(symbolize ? "symbolize=1" : "symbolize=0", stderr);
    channel_reset();
    for (size_t i = 0; i < sizeof pcs / sizeof pcs[0]; i++) {
      ldsan_report_record r = mini_record(288, 4, 1, LDSAN_SHADOW_LDS_REDZONE);
      r.pc = pcs[i];
      r.workitem_id[0] = 64 + (uint32_t)i;
      push(r);
    }
    ldsan_drain_stats st;
    int printed;
    char *out = drain_for(&d, &st, &printed);
    /* 0x1000 and 0x1010 are one report; the others each their own (a line
     * without a column could hold two accesses). */
    CHECK_EQ(printed, symbolize ? 7 : 8);
    CHECK_EQ(st.deduplicated, symbolize ? 1u : 0u);
    CHECK_EQ(count_of(out, "at this source location in this dispatch"), symbolize ? 1 : 0);
    CHECK_EQ(count_of(out, "more work-item"), symbolize ? 1 : 0);
    free(out);
  }
  ldsan_flags_parse("symbolize=1", stderr);
  /* Races: reads at 0x1000 and 0x1010 of writes at 0x1020 fold; a read at
   * 0x1000 of a write at 0x1030 (another inlined caller) does not. */
  channel_reset();
  static const uint64_t pairs[][2] = {{0x1000, 0x1020}, {0x1010, 0x1020}, {0x1000, 0x1030}};
  for (int i = 0; i < 3; i++) {
    ldsan_report_record r = mini_race();
    r.pc = pairs[i][0];
    r.other_pc = pairs[i][1];
    push(r);
  }
  ldsan_drain_stats st;
  int printed;
  char *out = drain_for(&d, &st, &printed);
  CHECK_EQ(printed, 2);
  CHECK_HAS(out, "    1 more work-item (in this workgroup) made the same lds-data-race at this source location");
  free(out);
}

int main(void) {
  ldsan_host_init();
  ldsan_flags_set_defaults();  /* hermetic: whatever ASAN_OPTIONS the runner has */
  ldsan_flags_parse("color=never:print_legend=0", stderr);
  mini_setup(&mem_map, 0, 0);
  test_threads();
  test_dedup_lost_dropped();
  test_ring_attribution();
  test_first_report_reserve();
  test_fork_while_reporting();
  test_dedup_off_and_limit();
  test_abort_rules();
  test_fold_wording();
  test_header_errors();
  test_json();
  test_hazards();
  test_uninit_out_of_bounds();
  test_dedup_by_source();
  test_log_path();
  fake_free(&mem_map);
  return test_done("drain_test");
}
