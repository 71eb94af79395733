/* ldsan host library: draining a report channel after a dispatch.
 * Takes the records one finished dispatch published out of the channel's ring
 * (protocol in abi.h; other dispatches' records stay), builds each one's report
 * context once (report_ctx.c) and hands it to the redundancy test and the dedup
 * key (dedup.c: lanes that hit the same bug at the same source location fold)
 * and, for up to report_limit groups, to the printer (report.c); counts lost
 * and dropped ones, asks stop.c whether it all stops the program, and gives
 * the slots back.
 * Threading: one process-wide mutex serializes every print, so reports from
 * several host threads (queues) never interleave. */
#define _POSIX_C_SOURCE 200809L
#include <pthread.h>
#include <string.h>

#include "report_ctx.h"

/* Records a drain can hold: the ring's and the first-report reserve's. */
#define MAX_RECORDS (LDSAN_CHANNEL_CAPACITY + LDSAN_CHANNEL_FIRST)

/* Whether the dispatch whose implicit-argument pointer is `ptr` is d (any
 * when d is unknown). */
static int dispatch_wrote(uint64_t ptr, const ldsan_dispatch_info *d) {
  if (!d || d->args_begin == d->args_end) return 1;
  return ptr >= d->args_begin && ptr < d->args_end;
}

/* Looks at slot r for the drain of `dispatch`: returns 1 for a record of the
 * dispatch to print, its report context built in *c; counts and empties one
 * folded into its access's bounds report, and one its writer never finished
 * (final: no dispatch runs any more). */
static int take_record(ldsan_report_record *r, report_ctx *c, const ldsan_device_memory *mem,
                       const ldsan_dispatch_info *dispatch, int final, ldsan_drain_stats *st, ldsan_stop_facts *stop) {
  /* Acquire pairs with the device's release store of READY: every field is final. */
  uint32_t state = __atomic_load_n(&r->state, __ATOMIC_ACQUIRE);
  if (state == LDSAN_RECORD_READY && dispatch_wrote(r->dispatch, dispatch)) {
    ldsan_report_ctx_init(c, r, mem, dispatch);
    if (!ldsan_dedup_is_redundant(c)) return 1;
    ldsan_report_ctx_free(c);
    /* Folded into its access's bounds report: counted as such, not printed. */
    if (ldsan_report_is_error(r)) st->errors++;
    else st->warnings++;
    ldsan_stop_note(stop, r);
    st->deduplicated += 1 + r->repeats + r->repeats_elsewhere;
    __atomic_store_n(&r->state, LDSAN_RECORD_EMPTY, __ATOMIC_RELEASE);
  } else if (state == LDSAN_RECORD_WRITING && final) {
    st->lost++;  /* no dispatch runs any more: its writer died mid-record */
    __atomic_store_n(&r->state, LDSAN_RECORD_EMPTY, __ATOMIC_RELEASE);
  }
  return 0;
}

static int same_workgroup(const ldsan_report_record *a, const ldsan_report_record *b) {
  return !memcmp(a->workgroup_id, b->workgroup_id, sizeof a->workgroup_id);
}

/* Checks the channel's header (capacity: its capacity field, as read):
 * returns how many ring slots to read (0 when none can be trusted). A header
 * ldsan cannot trust is an error that stops the program whatever
 * halt_on_error says: a kernel may have trapped with no readable report. It
 * counts as one error (st->errors), so callers that count errors see it. */
static uint32_t check_header(const ldsan_report_channel *ch, uint32_t capacity, FILE *out, ldsan_drain_stats *st,
                             ldsan_stop_facts *stop) {
  if (ch->abi_version != LDSAN_ABI_VERSION) {
    fprintf(out, "ldsan: error: report channel has ABI version %u, but this ldsan host library reads only "
            "version %u: no report of this dispatch can be read; build the program and its device code "
            "with one ldsan\n", ch->abi_version, LDSAN_ABI_VERSION);
    capacity = 0;
    st->errors++;
    stop->bad_channel = 1;
  } else if (capacity == 0 || capacity > LDSAN_CHANNEL_CAPACITY) {
    fprintf(out, "ldsan: error: report channel has capacity %u, but a channel holds 1 to %u records: its "
            "header is corrupt (a stray device write, or never set up); %s\n", capacity, LDSAN_CHANNEL_CAPACITY,
            capacity ? "reading the records it has room for" : "the device could record no report");
    capacity = capacity ? LDSAN_CHANNEL_CAPACITY : 0;
    st->errors++;
    stop->bad_channel = 1;
  }
  return capacity;
}

/* Each record's report context (ctx[i] of rec[i]), built once per drain, and
 * its dedup key (keys[i]). */
static report_ctx ctx[MAX_RECORDS];       /* under the report lock (locks.c) */
static ldsan_dedup_key keys[MAX_RECORDS]; /* under the report lock (locks.c) */

/* This dispatch's records, oldest ticket first: the slot `next` names is the
 * one written longest ago (abi.h protocol); then its first-report reserve
 * slots (the records that found the ring full come after it). Each record's
 * report context is built here, once. Returns how many records rec holds;
 * own[0..*owned) are the reserve slots the dispatch owns. */
static uint32_t take_records(ldsan_report_channel *ch, uint32_t capacity, uint32_t next, const ldsan_device_memory *mem,
                             const ldsan_dispatch_info *dispatch, ldsan_report_record **rec, uint32_t *own,
                             uint32_t *owned, ldsan_drain_stats *st, ldsan_stop_facts *stop) {
  uint32_t n = 0;
  int final = dispatch && dispatch->final;
  uint32_t oldest = capacity ? next % capacity : 0;  /* not (next + k) % capacity: next + k wraps */
  for (uint32_t k = 0; k < capacity; k++) {
    ldsan_report_record *r = &ch->records[(oldest + k) % capacity];
    if (take_record(r, &ctx[n], mem, dispatch, final, st, stop)) rec[n++] = r;
  }
  for (uint32_t k = 0; capacity && k < LDSAN_CHANNEL_FIRST; k++) {
    uint64_t owner = __atomic_load_n(&ch->first_owner[k], __ATOMIC_ACQUIRE);
    if (!owner || !dispatch_wrote(owner, dispatch)) continue;
    own[(*owned)++] = k;
    if (take_record(&ch->first[k], &ctx[n], mem, dispatch, final, st, stop)) rec[n++] = &ch->first[k];
  }
  return n;
}

/* Groups the records: group[i] is the index of the first record of i's group;
 * lanes[g] and wgs[g] count group g's work-items and workgroups. */
static void group_records(ldsan_report_record *const *rec, uint32_t n, const ldsan_flags *f, int *group,
                          uint32_t *lanes, uint32_t *wgs, ldsan_drain_stats *st, ldsan_stop_facts *stop) {
  ldsan_dedup_forget_sites();  /* another dispatch's pcs may be another code object's */
  for (uint32_t i = 0; i < n; i++) {
    lanes[i] = wgs[i] = 0;
    if (ldsan_report_is_error(rec[i])) st->errors++;
    else st->warnings++;
    ldsan_stop_note(stop, rec[i]);
    keys[i] = ldsan_dedup_key_of(&ctx[i], f->dedup);
    group[i] = (int)i;
    if (f->dedup)
      for (uint32_t j = 0; j < i; j++)
        if (group[j] == (int)j && ldsan_dedup_same(&keys[j], &keys[i])) { group[i] = (int)j; break; }
    if (group[i] != (int)i) ldsan_report_ctx_free(&ctx[i]);  /* folded: only its group's first is printed */
    uint32_t g = (uint32_t)group[i];
    lanes[g] += 1 + rec[i]->repeats + rec[i]->repeats_elsewhere;  /* the writer's own folding */
    int new_wg = 1;
    for (uint32_t j = g; j < i && new_wg; j++)
      if (group[j] == (int)g && same_workgroup(rec[j], rec[i])) new_wg = 0;
    wgs[g] += (uint32_t)new_wg + rec[i]->repeat_workgroups;
  }
}

/* Prints each group's first record, up to report_limit groups, and frees the
 * groups' report contexts. Returns how many groups report_limit left out. */
static uint32_t print_groups(FILE *out, ldsan_report_record *const *rec, uint32_t n, const ldsan_flags *f,
                             const int *group, const uint32_t *lanes, const uint32_t *wgs, ldsan_drain_stats *st) {
  uint32_t groups_over = 0;
  for (uint32_t i = 0; i < n; i++) {
    if (group[i] != (int)i) continue;
    if (f->report_limit > 0 && st->printed >= (uint32_t)f->report_limit) {
      groups_over++;
      st->over_limit += lanes[i];
      continue;
    }
    /* The group's records of this record's workgroup (JSON lists them all). */
    const ldsan_report_record *folded[MAX_RECORDS];
    ldsan_report_extra extra = {lanes[i] - 1, wgs[i], folded, 0, 0, keys[i].site != 0};
    for (uint32_t j = i; j < n; j++)
      if (group[j] == (int)i && same_workgroup(rec[j], rec[i])) {
        folded[extra.folded_count++] = rec[j];
        extra.folded_repeats += rec[j]->repeats;
      }
    ldsan_report_ctx_symbolize(&ctx[i]);  /* only the printed records' pcs */
    ldsan_report_print(out, &ctx[i], &extra);
    st->printed++;
  }
  for (uint32_t i = 0; i < n; i++)
    if (group[i] == (int)i) ldsan_report_ctx_free(&ctx[i]);
  return groups_over;
}

/* The drain's counts after printing: the report_limit note, the folded
 * work-items, the lost records, the dropped reports and warnings. */
static void count_unprinted(ldsan_report_channel *ch, FILE *out, uint32_t n, const ldsan_flags *f, const int *group,
                            const uint32_t *lanes, uint32_t groups_over, const uint32_t *own, uint32_t owned,
                            ldsan_drain_stats *st) {
  if (groups_over)
    fprintf(out, "ldsan: %u more report(s) (%u lane(s)) not printed: report_limit=%d reached; "
            "LDSAN_OPTIONS=report_limit=0 prints all\n", groups_over, st->over_limit, f->report_limit);
  /* Work-items folded into printed reports (over_limit counts those of unprinted ones). */
  for (uint32_t i = 0; i < n; i++)
    if (group[i] == (int)i) st->deduplicated += lanes[i] - 1;
  st->deduplicated -= st->over_limit - groups_over;
  if (st->lost)
    fprintf(out, "ldsan: warning: %u report(s) lost: a lane stopped while writing its report\n", st->lost);
  /* Its own drops (counted in its reserve slots), and those no slot took. */
  st->dropped = __atomic_exchange_n(&ch->dropped, 0u, __ATOMIC_ACQ_REL);
  for (uint32_t i = 0; i < owned; i++) st->dropped += __atomic_exchange_n(&ch->first_dropped[own[i]], 0u, __ATOMIC_ACQ_REL);
  if (st->dropped)
    fprintf(out, "ldsan: warning: %u more report(s) dropped: the report channel holds %u; fix the first "
            "reports and rerun\n", st->dropped, ch->capacity);
  uint32_t dropped_warnings = __atomic_exchange_n(&ch->dropped_warnings, 0u, __ATOMIC_ACQ_REL);
  if (dropped_warnings)
    fprintf(out, "ldsan: warning: %u more warning(s) dropped: the report channel holds %u\n", dropped_warnings,
            ch->capacity);
}

/* Gives the printed slots back; release: the device's CAS that takes a slot
 * again sees EMPTY only after this drain is done reading it. */
static void give_back(ldsan_report_channel *ch, ldsan_report_record *const *rec, uint32_t n, const uint32_t *own,
                      uint32_t owned) {
  for (uint32_t i = 0; i < n; i++) __atomic_store_n(&rec[i]->state, LDSAN_RECORD_EMPTY, __ATOMIC_RELEASE);
  /* Then its reserve slots, last (a slot whose record a writer still holds stays its). */
  for (uint32_t i = 0; i < owned; i++)
    if (__atomic_load_n(&ch->first[own[i]].state, __ATOMIC_ACQUIRE) == LDSAN_RECORD_EMPTY)
      __atomic_store_n(&ch->first_owner[own[i]], 0, __ATOMIC_RELEASE);
}

int ldsan_host_drain_channel_stats(ldsan_report_channel *ch, const ldsan_device_memory *mem,
                                   const ldsan_dispatch_info *dispatch, ldsan_drain_stats *stats) {
  ldsan_drain_stats st;
  memset(&st, 0, sizeof st);
  ldsan_stop_facts stop = {0};
  if (stats) *stats = st;
  if (!ch) return 0;
  ldsan_host_init();
  const ldsan_flags *f = ldsan_flags_get();
  ldsan_report_lock();
  /* Another thread is ending the process after its report: print nothing more. */
  if (ldsan_dying_elsewhere()) { ldsan_report_unlock(); ldsan_block_forever(); }
  FILE *out = ldsan_log_stream();

  uint32_t capacity = ch->capacity, next = __atomic_load_n(&ch->next, __ATOMIC_ACQUIRE);
  capacity = check_header(ch, capacity, out, &st, &stop);
  ldsan_report_record *rec[MAX_RECORDS];
  uint32_t own[LDSAN_CHANNEL_FIRST], owned = 0;
  uint32_t n = take_records(ch, capacity, next, mem, dispatch, rec, own, &owned, &st, &stop);
  int group[MAX_RECORDS];
  uint32_t lanes[MAX_RECORDS], wgs[MAX_RECORDS];
  group_records(rec, n, f, group, lanes, wgs, &st, &stop);
  uint32_t groups_over = print_groups(out, rec, n, f, group, lanes, wgs, &st);
  count_unprinted(ch, out, n, f, group, lanes, groups_over, own, owned, &st);
  stop.lost = st.lost;
  stop.dropped = st.dropped;
  st.must_abort = ldsan_stop_decide(&stop);
  /* Claimed under the report mutex: no other thread prints after ABORTING. */
  if (st.must_abort) { ldsan_die_claim(); ldsan_stop_announce(out); }
  fflush(out);
  give_back(ch, rec, n, own, owned);
  ldsan_report_unlock();
  if (stats) *stats = st;
  return (int)st.printed;
}

int ldsan_host_drain_channel(ldsan_report_channel *channel, const ldsan_device_memory *mem,
                             const ldsan_dispatch_info *dispatch) {
  return ldsan_host_drain_channel_stats(channel, mem, dispatch, NULL);
}
