/* ldsan host library: posting a finished record into a report channel from
 * the host, as the device's writers do (abi.h protocol: a slot of the ring,
 * else for an error the first-report reserve; device/report.c is the device's
 * side). The CPU emulator posts its run-time LDS checks' findings this way. */
#include <stddef.h>
#include <string.h>

#include "internal.h"

/* Takes slot r (EMPTY -> WRITING), copies the record in and publishes it. */
static int fill_slot(ldsan_report_record *r, const ldsan_report_record *record) {
  uint32_t empty = LDSAN_RECORD_EMPTY;
  if (!__atomic_compare_exchange_n(&r->state, &empty, LDSAN_RECORD_WRITING, 0, __ATOMIC_ACQUIRE, __ATOMIC_RELAXED))
    return 0;
  /* Every field but state: a plain store of state, even for an instant,
   * could let a device lane of another dispatch take the slot. */
  _Static_assert(offsetof(ldsan_report_record, state) == 0, "state is the record's first field");
  memcpy((char *)r + sizeof r->state, (const char *)record + sizeof r->state, sizeof *r - sizeof r->state);
  __atomic_store_n(&r->state, LDSAN_RECORD_READY, __ATOMIC_RELEASE);
  return 1;
}

int ldsan_host_channel_post(ldsan_report_channel *ch, const ldsan_report_record *record) {
  uint32_t capacity = ch->capacity < LDSAN_CHANNEL_CAPACITY ? ch->capacity : LDSAN_CHANNEL_CAPACITY;
  uint32_t ticket = __atomic_fetch_add(&ch->next, 1u, __ATOMIC_RELAXED);
  if (capacity && fill_slot(&ch->records[ticket % capacity], record)) return 1;
  if (record->flags & LDSAN_REPORT_WARNING) {
    __atomic_fetch_add(&ch->dropped_warnings, 1u, __ATOMIC_RELAXED);
    return 0;
  }
  uint64_t dispatch = record->dispatch;
  uint32_t start = ldsan_first_slot(dispatch);
  for (uint32_t i = 0; capacity && dispatch && i < LDSAN_CHANNEL_FIRST; i++) {
    uint32_t k = (start + i) % LDSAN_CHANNEL_FIRST;
    uint64_t owner = 0;
    if (__atomic_compare_exchange_n(&ch->first_owner[k], &owner, dispatch, 0, __ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE)) {
      if (fill_slot(&ch->first[k], record)) return 1;
      break; /* not EMPTY (the host empties a record before it frees its slot): counted below */
    }
    if (owner == dispatch) {
      __atomic_fetch_add(&ch->first_dropped[k], 1u, __ATOMIC_RELAXED);
      return 0;
    }
  }
  __atomic_fetch_add(&ch->dropped, 1u, __ATOMIC_RELAXED);
  return 0;
}
