// hsa_double/signal_ops.cpp — the hsa_signal_* API over signal.cpp. One
// implementation per operation serves every memory-order variant (all
// seq_cst). Operations on an invalid handle do nothing (loads return 0):
// ROCr does not check there either, the double just avoids crashing.
// Timeouts are in system-timestamp ticks; the double's timestamp runs at
// 1 GHz, so ticks are nanoseconds.
#include "impl.h"

namespace hsad {
namespace {

// ROCr core/runtime/hsa_ext_amd.cpp hsa_amd_signal_create (hsa_signal_create
// is it with no attributes; all releases): an interrupt signal unless it is
// IPC, GPU_ONLY, interrupts are off, or it has consumers and none is a CPU;
// repeated consumers are refused. Only the kind matters here: which signals
// hsa_amd_signal_async_handler accepts (async.cpp).
hsa_status_t create(hsa_signal_value_t initial, uint32_t num_consumers, const hsa_agent_t *consumers,
                    uint64_t attributes, hsa_signal_t *signal) {
  HSAD_CHECK_OPEN();
  if (!signal || (num_consumers && !consumers)) return HSA_STATUS_ERROR_INVALID_ARGUMENT;
  bool ipc = attributes & HSA_AMD_SIGNAL_IPC;
  bool plain = ipc || (attributes & HSA_AMD_SIGNAL_AMD_GPU_ONLY) || !flags().interrupt;
  if (!plain && num_consumers) {
    plain = true;
    for (uint32_t i = 0; i < num_consumers; i++) {
      for (uint32_t k = 0; k < i; k++)
        if (consumers[k].handle == consumers[i].handle) return HSA_STATUS_ERROR_INVALID_ARGUMENT;
      const Agent *a = agent_from(consumers[i]);
      if (a && a->type == HSA_DEVICE_TYPE_CPU) plain = false;
    }
  }
  for (uint32_t i = 0; i < num_consumers; i++)  // (ROCr does not look at them further)
    if (!agent_from(consumers[i])) return HSA_STATUS_ERROR_INVALID_ARGUMENT;
  Signal *s = signal_new(initial);
  s->interrupt = !plain;
  s->ipc = ipc;
  *signal = handle_of(s);
  return HSA_STATUS_SUCCESS;
}

template <class Op>
int64_t rmw(hsa_signal_t h, Op op) {
  Signal *s = signal_from(h);
  if (!s) return 0;
  int64_t old = op(&s->abi.value);
  wake_waiters();
  return old;
}

}  // namespace

hsa_status_t signal_create(hsa_signal_value_t initial, uint32_t num_consumers, const hsa_agent_t *consumers,
                           hsa_signal_t *signal) {
  return create(initial, num_consumers, consumers, 0, signal);
}

// IPC signals are not shared with other processes here.
hsa_status_t amd_signal_create(hsa_signal_value_t initial, uint32_t num_consumers, const hsa_agent_t *consumers,
                               uint64_t attributes, hsa_signal_t *signal) {
  return create(initial, num_consumers, consumers, attributes, signal);
}

hsa_status_t signal_destroy(hsa_signal_t signal) {
  HSAD_CHECK_OPEN();
  Signal *s = signal_from(signal);
  if (!s || s->queue_owned) return HSA_STATUS_ERROR_INVALID_SIGNAL;
  signal_delete(s);
  return HSA_STATUS_SUCCESS;
}

hsa_status_t amd_signal_value_pointer(hsa_signal_t signal, volatile hsa_signal_value_t **value_ptr) {
  HSAD_CHECK_OPEN();
  Signal *s = signal_from(signal);
  if (!s) return HSA_STATUS_ERROR_INVALID_SIGNAL;
  if (!value_ptr) return HSA_STATUS_ERROR_INVALID_ARGUMENT;
  *value_ptr = &s->abi.value;  // writes through it wake no waiter, as on ROCr
  return HSA_STATUS_SUCCESS;
}

hsa_signal_value_t signal_load_scacquire(hsa_signal_t signal) {
  Signal *s = signal_from(signal);
  return s ? signal_load(s) : 0;
}

void signal_store_screlease(hsa_signal_t signal, hsa_signal_value_t value) {
  if (Signal *s = signal_from(signal)) signal_store(s, value);
}

// "Silent": no waiter is woken; a sleeping waiter sees the value when
// something else wakes it or its timeout expires.
void signal_silent_store_screlease(hsa_signal_t signal, hsa_signal_value_t value) {
  if (Signal *s = signal_from(signal)) __atomic_store_n(&s->abi.value, value, __ATOMIC_SEQ_CST);
}

hsa_signal_value_t signal_exchange_scacq_screl(hsa_signal_t signal, hsa_signal_value_t value) {
  return rmw(signal, [&](volatile int64_t *p) { return __atomic_exchange_n(p, value, __ATOMIC_SEQ_CST); });
}

hsa_signal_value_t signal_cas_scacq_screl(hsa_signal_t signal, hsa_signal_value_t expected, hsa_signal_value_t value) {
  return rmw(signal, [&](volatile int64_t *p) {
    int64_t e = expected;
    __atomic_compare_exchange_n(p, &e, value, false, __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST);
    return e;  // the observed value, as hsa_signal_cas returns
  });
}

void signal_add_scacq_screl(hsa_signal_t signal, hsa_signal_value_t value) {
  rmw(signal, [&](volatile int64_t *p) { return __atomic_fetch_add(p, value, __ATOMIC_SEQ_CST); });
}

void signal_subtract_scacq_screl(hsa_signal_t signal, hsa_signal_value_t value) {
  rmw(signal, [&](volatile int64_t *p) { return __atomic_fetch_sub(p, value, __ATOMIC_SEQ_CST); });
}

void signal_and_scacq_screl(hsa_signal_t signal, hsa_signal_value_t value) {
  rmw(signal, [&](volatile int64_t *p) { return __atomic_fetch_and(p, value, __ATOMIC_SEQ_CST); });
}

void signal_or_scacq_screl(hsa_signal_t signal, hsa_signal_value_t value) {
  rmw(signal, [&](volatile int64_t *p) { return __atomic_fetch_or(p, value, __ATOMIC_SEQ_CST); });
}

void signal_xor_scacq_screl(hsa_signal_t signal, hsa_signal_value_t value) {
  rmw(signal, [&](volatile int64_t *p) { return __atomic_fetch_xor(p, value, __ATOMIC_SEQ_CST); });
}

// Returns the value last observed: it satisfies the condition unless the
// timeout expired first (the double never returns early otherwise).
hsa_signal_value_t signal_wait_scacquire(hsa_signal_t signal, hsa_signal_condition_t condition,
                                         hsa_signal_value_t compare_value, uint64_t timeout_hint,
                                         hsa_wait_state_t) {
  Signal *s = signal_from(signal);
  if (!s) return 0;
  int64_t value = 0;
  wait_until(deadline_after(timeout_hint), [&] {
    value = signal_load(s);
    return cond_holds(condition, value, compare_value);
  });
  return value;
}

// Index of the first satisfied pair, UINT32_MAX on timeout (as ROCr).
uint32_t amd_signal_wait_any(uint32_t count, hsa_signal_t *signals, hsa_signal_condition_t *conds,
                             hsa_signal_value_t *values, uint64_t timeout_hint, hsa_wait_state_t,
                             hsa_signal_value_t *satisfying_value) {
  if (!signals || !conds || !values) return UINT32_MAX;
  uint32_t index = UINT32_MAX;
  int64_t value = 0;
  wait_until(deadline_after(timeout_hint), [&] {
    for (uint32_t i = 0; i < count; i++) {
      Signal *s = signal_from(signals[i]);
      if (!s) continue;
      value = signal_load(s);
      if (cond_holds(conds[i], value, values[i])) {
        index = i;
        return true;
      }
    }
    return false;
  });
  if (index != UINT32_MAX && satisfying_value) *satisfying_value = value;
  return index;
}

}  // namespace hsad
