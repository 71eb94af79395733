/* ldsan reports: fill one ldsan_report_record in the channel (protocol in
 * abi.h), then stop the wave unless the report does not abort or the host
 * cleared LDSAN_STATE_HALT_ON_ERROR. Called by the failing lanes only; each
 * lane claims its own slot of the ring, so lanes never wait for each other.
 * The record carries the dispatch's implicit-argument pointer, so the host
 * knows which of several running dispatches wrote it. No text. */
#include "runtime.h"

/* Returns this workgroup's live block from LDS[0], or 0 if that does not hold one
 * (kernel lowered without ldsan, no LDS, or not inside a kernel's block). */
static uint64_t current_block(void) {
  uint64_t block = __ldsan_lds0_read();
  return __ldsan_block_lookup(block) ? block : 0;
}

static LDSAN_GLOBAL ldsan_report_channel *current_channel(void) {
  uint64_t channel = __ldsan_device_state.channel;
  return channel ? (LDSAN_GLOBAL ldsan_report_channel *)(uintptr_t)channel
                 : &__ldsan_builtin_channel;
}

/* Claims a slot of the ring (abi.h protocol, steps 1-2); NULL if none is free. */
static LDSAN_GLOBAL ldsan_report_record *claim_slot(LDSAN_GLOBAL ldsan_report_channel *ch) {
  uint32_t capacity = ch->capacity < LDSAN_CHANNEL_CAPACITY ? ch->capacity : LDSAN_CHANNEL_CAPACITY;
  /* Relaxed ticket: the record is published by its own release store. */
  uint32_t ticket = __ldsan_atomic_add_u32(&ch->next, 1u, LDSAN_SCOPE_SYSTEM);
  if (capacity == 0) return 0;
  LDSAN_GLOBAL ldsan_report_record *r = &ch->records[ticket % capacity];
  /* Only an EMPTY slot is taken: an undrained record is never overwritten. */
  if (__ldsan_atomic_cas_u32(&r->state, LDSAN_RECORD_EMPTY, LDSAN_RECORD_WRITING, LDSAN_SCOPE_SYSTEM) !=
      LDSAN_RECORD_EMPTY)
    return 0;
  return r;
}

/* For an error whose ring slot was taken: the calling dispatch's record in
 * the channel's first-report reserve (abi.h), or NULL with the drop counted
 * (in the dispatch's own slot, or in `dropped` when every slot is another
 * dispatch's). */
static LDSAN_GLOBAL ldsan_report_record *claim_first_slot(LDSAN_GLOBAL ldsan_report_channel *ch, uint64_t dispatch) {
  uint32_t start = ldsan_first_slot(dispatch);
  for (uint32_t i = 0; dispatch && i < LDSAN_CHANNEL_FIRST; i++) {
    uint32_t k = (start + i) % LDSAN_CHANNEL_FIRST;
    uint64_t owner = __ldsan_load_relaxed_u64(&ch->first_owner[k], LDSAN_SCOPE_SYSTEM);
    if (owner == 0) owner = __ldsan_atomic_cas_u64(&ch->first_owner[k], 0, dispatch, LDSAN_SCOPE_SYSTEM);
    if (owner == 0) { /* ours; the host empties the record before it frees the slot */
      LDSAN_GLOBAL ldsan_report_record *r = &ch->first[k];
      if (__ldsan_atomic_cas_u32(&r->state, LDSAN_RECORD_EMPTY, LDSAN_RECORD_WRITING, LDSAN_SCOPE_SYSTEM) ==
          LDSAN_RECORD_EMPTY)
        return r;
      break;
    }
    if (owner == dispatch) {
      __ldsan_atomic_add_u32(&ch->first_dropped[k], 1u, LDSAN_SCOPE_SYSTEM);
      return 0;
    }
  }
  __ldsan_atomic_add_u32(&ch->dropped, 1u, LDSAN_SCOPE_SYSTEM);
  return 0;
}

/* A slot for a report with these flags (abi.h protocol): the ring's, else
 * for an error of a dispatch the first-report reserve's; NULL with the drop
 * counted (a warning in dropped_warnings). */
static LDSAN_GLOBAL ldsan_report_record *claim_record(LDSAN_GLOBAL ldsan_report_channel *ch, uint32_t flags) {
  LDSAN_GLOBAL ldsan_report_record *r = claim_slot(ch);
  if (r) return r;
  if (flags & LDSAN_REPORT_WARNING) {
    __ldsan_atomic_add_u32(&ch->dropped_warnings, 1u, LDSAN_SCOPE_SYSTEM);
    return 0;
  }
  if (ch->capacity) return claim_first_slot(ch, __ldsan_implicitarg_ptr());
  __ldsan_atomic_add_u32(&ch->dropped, 1u, LDSAN_SCOPE_SYSTEM);
  return 0;
}

/* Fills what every record says about where it comes from (block, kernel,
 * ids, dispatch) and zeroes the hazard fields. */
static void fill_origin(LDSAN_GLOBAL ldsan_report_record *r) {
  uint64_t block = current_block();
  const LDSAN_GLOBAL ldsan_block_header *h = block ? (const LDSAN_GLOBAL ldsan_block_header *)(uintptr_t)(block - LDSAN_BLOCK_HEADER_SIZE) : 0;
  r->kernel_desc = h ? h->kernel_desc : 0;
  r->block = block;
  r->workgroup_id[0] = __ldsan_workgroup_id_x();
  r->workgroup_id[1] = __ldsan_workgroup_id_y();
  r->workgroup_id[2] = __ldsan_workgroup_id_z();
  r->workitem_id[0] = __ldsan_workitem_id_x();
  r->workitem_id[1] = __ldsan_workitem_id_y();
  r->workitem_id[2] = __ldsan_workitem_id_z();
  r->lane = __ldsan_lane_id();
  r->dynamic_size = h ? h->dynamic_size : 0;
  r->dispatch = __ldsan_implicitarg_ptr();
  r->other_pc = 0;
  r->other_workitem_id[0] = r->other_workitem_id[1] = r->other_workitem_id[2] = 0;
  r->other_lane = r->other_size = r->other_flags = r->hazard = 0;
  r->repeats = r->repeats_elsewhere = r->repeat_workgroups = 0;
}

/* Publishes r (release at system scope: the host reading READY sees every
 * field), then traps if the report aborts and the host asked to halt. */
static void publish(LDSAN_GLOBAL ldsan_report_record *r, uint32_t flags) {
  if (r) __ldsan_store_release_u32(&r->state, LDSAN_RECORD_READY, LDSAN_SCOPE_SYSTEM);
  if (!(flags & (LDSAN_ACCESS_NOABORT | LDSAN_REPORT_WARNING)) && (__ldsan_device_state.flags & LDSAN_STATE_HALT_ON_ERROR))
    __ldsan_target_trap();
}

__attribute__((noinline, cold)) uint64_t __ldsan_report(uint32_t kind, uint64_t address, uint64_t access_address, uint64_t size,
                    uint32_t flags, uint32_t shadow_byte, uint64_t pc) {
  LDSAN_GLOBAL ldsan_report_channel *ch = current_channel();
  LDSAN_GLOBAL ldsan_report_record *r = claim_record(ch, flags);
  if (r) {
    fill_origin(r);
    r->kind = kind;
    r->address = address;
    r->access_address = access_address;
    r->size = size;
    r->pc = pc;
    r->flags = flags;
    r->shadow_byte = shadow_byte;
    r->freed_block = shadow_byte == LDSAN_SHADOW_LDS_FREED ? __ldsan_freed_block_at(address) : 0;
  }
  publish(r, flags);
  return 0;
}

__attribute__((noinline, cold)) LDSAN_GLOBAL ldsan_report_record *__ldsan_report_hazard(const ldsan_hz_report *h) {
  LDSAN_GLOBAL ldsan_report_channel *ch = current_channel();
  LDSAN_GLOBAL ldsan_report_record *r = claim_record(ch, h->flags);
  if (r) {
    fill_origin(r);
    r->kind = h->kind;
    r->address = r->access_address = h->address;
    r->size = h->size;
    r->pc = h->pc;
    r->flags = h->flags;
    r->shadow_byte = 0;
    r->freed_block = 0;
    r->hazard = h->hazard;
    r->other_pc = h->other_pc;
    r->other_size = h->other_size;
    r->other_flags = h->other_flags;
    if (!(h->flags & LDSAN_REPORT_OTHER_UNKNOWN) && h->kind != LDSAN_REPORT_LDS_UNINIT_READ) {
      /* The other work-item's ids from its flat id (waves are consecutive flat ids). */
      uint32_t d[3];
      __ldsan_group_size(d);
      uint32_t dx = d[0], dy = d[1];
      r->other_workitem_id[0] = h->other_item % dx;
      r->other_workitem_id[1] = h->other_item / dx % dy;
      r->other_workitem_id[2] = h->other_item / (dx * dy);
      r->other_lane = h->other_item % __ldsan_wave_size();
    }
  }
  publish(r, h->flags);
  return r;
}

__attribute__((noinline, cold)) void __ldsan_report_access(uint64_t addr, uint64_t size, uint32_t flags, uint64_t pc) {
  uint64_t bad = addr;
  uint8_t shadow = *__ldsan_shadow_of(addr);
  __ldsan_find_poisoned(addr, size ? size : 1u, &bad, &shadow);
  /* Like ASan's bug naming: a partial granule (1..7) says nothing about what
   * was overrun; the next granule's magic does. */
  if (shadow >= 1u && shadow < LDSAN_SHADOW_GRANULE) {
    uint8_t next = *__ldsan_shadow_of(bad + LDSAN_SHADOW_GRANULE);
    if (next >= LDSAN_SHADOW_GRANULE) shadow = next;
  }
  (void)__ldsan_report(LDSAN_REPORT_BAD_ACCESS, bad, addr, size, flags, shadow, pc);
}

void __ldsan_check_access(uint64_t addr, uint64_t size, uint32_t flags, uint64_t pc) {
  if (__ldsan_access_is_bad(addr, size)) __ldsan_report_access(addr, size, flags, pc);
}
