/* Fuzz target: report channels and records (host/drain.c, report.c,
 * report_json.c, shadow_dump.c). The device writes the channel, so its header
 * and records are untrusted. The input, in order:
 *   LDSAN_OPTIONS string, NUL      (loaded over the defaults for this run)
 *   symbolizer answer, NUL         (what the fake symbolizer says for every pc:
 *                                   frames "function|file|line|column|module"
 *                                   separated by ';', none: nothing known;
 *                                   '\n' and '=' become '_')
 *   dispatch: args_begin, args_end (u64 each), flags (u32: 1 final, 2 no dispatch info)
 *   channel header (abi_version, capacity, next, dropped: u32 each)
 *   records, sizeof(ldsan_report_record) (160) bytes each, into slots 0, 1, ... (at most 256)
 * The fake device memory holds the "mini" kernel of test/host/host_test.h
 * (descriptor at 0x9000, a live block at 0x20000 and its shadow), so records
 * naming them get full reports. Reports go to a memory stream (log_path is
 * never opened), and a fatal drain only claims death for this thread (drain.c
 * never exits; ldsan_host_die is not reached), so no input stops the run.
 * Checks: the drain's statistics add up (records read = errors + warnings;
 * their work-items = printed + deduplicated + over the limit), one headline
 * (ERROR, or WARNING for a hazard within one wave) per printed report and
 * one ABORTING line exactly when must_abort, JSON lines parse and follow the
 * documented schema, other JSON-mode lines start with "ldsan:" or "==PID==",
 * and every printed slot is given back.
 * LDSAN_FUZZ_SHOW=1 prints each drain's output and statistics to stderr (to
 * look at what a seed does: build/test/fuzz/drain test/fuzz/corpus/drain/x). */
#include "fuzz.h"

static fake_memory device;
static ldsan_device_memory mem;
static ldsan_report_channel channel;
static char sym_text[512];

/* The answer is frames separated by ';', each "function|file|line|column|module"
 * (an empty field is unknown). */
static char frame_text[LDSAN_MAX_FRAMES][5][128];
static int fake_symbolize(void *ctx, uint64_t pc, ldsan_frame *frames, int max_frames) {
  (void)ctx;
  int n = 0;
  for (const char *p = sym_text; *p && n < max_frames && n < LDSAN_MAX_FRAMES; n++) {
    const char *end = strchr(p, ';');
    size_t len = end ? (size_t)(end - p) : strlen(p);
    char (*f)[128] = frame_text[n];
    memset(f, 0, sizeof frame_text[n]);
    for (int k = 0, start = 0; k < 5 && (size_t)start <= len; k++) {
      const char *bar = memchr(p + start, '|', len - (size_t)start);
      size_t flen = bar ? (size_t)(bar - (p + start)) : len - (size_t)start;
      snprintf(f[k], sizeof f[k], "%.*s", (int)flen, p + start);
      start += (int)flen + 1;
      if (!bar) break;
    }
    memset(&frames[n], 0, sizeof frames[n]);
    frames[n].function = f[0][0] ? f[0] : NULL;
    frames[n].file = f[1][0] ? f[1] : NULL;
    frames[n].line = (uint32_t)strtoul(f[2], NULL, 0);
    frames[n].column = (uint32_t)strtoul(f[3], NULL, 0);
    frames[n].module = f[4][0] ? f[4] : NULL;
    frames[n].module_offset = pc;
    p = end ? end + 1 : p + len;
  }
  return n;
}

int LLVMFuzzerInitialize(int *argc, char ***argv) {
  (void)argc; (void)argv;
  ldsan_host_init();  /* once, so later drains keep the options each run loads */
  mini_setup(&device, 40, 1);
  mem = fake_reader(&device);
  return 0;
}

/* Checks the text of one drain against what it returned. */
static void check_output(const char *out, const ldsan_drain_stats *st, int json) {
  char head[64], warn_head[64], abort_line[64];
  snprintf(head, sizeof head, "==%ld==ERROR: AddressSanitizer: ", (long)getpid());
  snprintf(warn_head, sizeof warn_head, "==%ld==WARNING: ldsan: ", (long)getpid()); /* hazards within one wave */
  snprintf(abort_line, sizeof abort_line, "==%ld==ABORTING", (long)getpid());
  PROPERTY(count_of(out, abort_line) == (st->must_abort ? 1 : 0), "must_abort %d; output:\n%s", st->must_abort, out);
  if (!json) {
    PROPERTY(count_of(out, head) + count_of(out, warn_head) == (int)st->printed, "%u printed; output:\n%s",
             st->printed, out);
    return;
  }
  char prefix[32];
  snprintf(prefix, sizeof prefix, "==%ld==", (long)getpid());
  int objects = 0;
  for (const char *line = out; *line;) {
    const char *nl = strchr(line, '\n');
    PROPERTY(nl != NULL, "unterminated last line: %s", line);
    if (*line == '{') {
      char *one = strndup(line, (size_t)(nl - line + 1));
      json_object o;
      CHECK_JSON_REPORT(one, &o);
      PROPERTY(test_failures == 0, "bad JSON report line: %s", one);
      free(one);
      objects++;
    } else {
      PROPERTY(!strncmp(line, "ldsan:", 6) || !strncmp(line, prefix, strlen(prefix)),
               "JSON mode line neither JSON nor ldsan's: %.*s", (int)(nl - line), line);
    }
    line = nl + 1;
  }
  PROPERTY(objects == (int)st->printed, "%d JSON objects, %u printed", objects, st->printed);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  fuzz_input in = {data, size};
  char *options = fuzz_string(&in), *sym = fuzz_string(&in);
  snprintf(sym_text, sizeof sym_text, "%s", sym);
  for (char *p = sym_text; *p; p++)
    if (*p == '\n' || *p == '=') *p = '_';
  free(sym);

  FILE *devnull = fopen("/dev/null", "w");
  int option_errors = ldsan_flags_load(NULL, options, devnull);
  fclose(devnull);
  free(options);
  if (option_errors) return 0;  /* ldsan_host_init would exit(1) */

  struct { uint64_t args_begin, args_end; uint32_t flags; } d;
  fuzz_bytes(&in, &d, 20);
  ldsan_dispatch_info dispatch = mini_dispatch;
  dispatch.args_begin = d.args_begin;
  dispatch.args_end = d.args_end;
  dispatch.final = d.flags & 1;
  dispatch.symbolize = fake_symbolize;

  memset(&channel, 0, sizeof channel);
  fuzz_bytes(&in, &channel, 16);
  uint32_t n = 0;
  while (in.n && n < LDSAN_CHANNEL_CAPACITY) fuzz_bytes(&in, &channel.records[n++], sizeof(ldsan_report_record));
  ldsan_report_channel before = channel;

  capture c;
  capture_begin(&c);
  ldsan_log_override(c.f);
  ldsan_drain_stats st;
  int printed = ldsan_host_drain_channel_stats(&channel, &mem, (d.flags & 2) ? NULL : &dispatch, &st);
  ldsan_log_override(NULL);
  const char *out = capture_end(&c);

  int bad_header = before.abi_version != LDSAN_ABI_VERSION || before.capacity == 0 ||
                   before.capacity > LDSAN_CHANNEL_CAPACITY;
  PROPERTY(printed == (int)st.printed, "returned %d, printed %u", printed, st.printed);
  PROPERTY(!bad_header || st.must_abort, "bad channel header without must_abort");
  PROPERTY(st.dropped == before.dropped && channel.dropped == 0, "dropped %u of %u, left %u", st.dropped,
           before.dropped, channel.dropped);
  /* The records read are the READY slots given back; each stands for itself
   * and the work-items its writer folded into it (repeats, repeats_elsewhere:
   * u32 sums, wrapping as the drain's do). */
  uint32_t emptied = 0, lanes = 0;
  for (uint32_t i = 0; i < LDSAN_CHANNEL_CAPACITY; i++) {
    uint32_t was = before.records[i].state, now = channel.records[i].state;
    if (was != now) {
      PROPERTY(now == LDSAN_RECORD_EMPTY && (was == LDSAN_RECORD_READY || was == LDSAN_RECORD_WRITING),
               "slot %u went from 0x%x to 0x%x", i, was, now);
      if (was == LDSAN_RECORD_READY) {
        emptied++;
        lanes += 1u + before.records[i].repeats + before.records[i].repeats_elsewhere;
      }
    }
  }
  /* Every record read is an error or a warning (hazards within one wave)... */
  PROPERTY(emptied == st.errors + st.warnings - (uint32_t)bad_header, "%u READY slots emptied, %u records read",
           emptied, st.errors + st.warnings - (uint32_t)bad_header);
  /* ...and its work-items are printed, folded into a printed report, or over the limit. */
  PROPERTY(lanes == st.printed + st.deduplicated + st.over_limit,
           "%u work-items != printed %u + deduplicated %u + over_limit %u", lanes, st.printed, st.deduplicated,
           st.over_limit);
  if (getenv("LDSAN_FUZZ_SHOW"))
    fprintf(stderr, "%s---- errors %u printed %u deduplicated %u over_limit %u lost %u dropped %u must_abort %d\n",
            out, st.errors, st.printed, st.deduplicated, st.over_limit, st.lost, st.dropped, st.must_abort);
  check_output(out, &st, ldsan_flags_json());
  capture_free(&c);
  return 0;
}
