// hsa_double/exports_signal_queue.cpp — the exported hsa_signal_* and
// hsa_queue_* symbols. Each calls through the API table (so a tool's
// replacement is what every caller gets); the deprecated _acquire/_release/
// _acq_rel spellings still declared by hsa.h go to the _scacquire/_screlease/
// _scacq_screl entries, as in ROCr.
#include "impl.h"

#define CORE (&::hsad::core_table())

// ---- signals ------------------------------------------------------------------------

#define SIGNAL_RMW(op, order, entry)                                                      \
  extern "C" HSAD_EXPORT void hsa_signal_##op##_##order(hsa_signal_t s, hsa_signal_value_t v) { \
    CORE->hsa_signal_##op##_##entry##_fn(s, v);                                           \
  }
#define SIGNAL_XCHG(order, entry)                                                                       \
  extern "C" HSAD_EXPORT hsa_signal_value_t hsa_signal_exchange_##order(hsa_signal_t s, hsa_signal_value_t v) { \
    return CORE->hsa_signal_exchange_##entry##_fn(s, v);                                                \
  }
#define SIGNAL_CAS(order, entry)                                                                            \
  extern "C" HSAD_EXPORT hsa_signal_value_t hsa_signal_cas_##order(hsa_signal_t s, hsa_signal_value_t e,      \
                                                                   hsa_signal_value_t v) {                   \
    return CORE->hsa_signal_cas_##entry##_fn(s, e, v);                                                      \
  }
#define ALL_ORDERS(M, ...)                                                                              \
  M(__VA_ARGS__ relaxed, relaxed) M(__VA_ARGS__ scacquire, scacquire) M(__VA_ARGS__ screlease, screlease) \
  M(__VA_ARGS__ scacq_screl, scacq_screl) M(__VA_ARGS__ acquire, scacquire) M(__VA_ARGS__ release, screlease) \
  M(__VA_ARGS__ acq_rel, scacq_screl)

ALL_ORDERS(SIGNAL_RMW, and,)
ALL_ORDERS(SIGNAL_RMW, or,)
ALL_ORDERS(SIGNAL_RMW, xor,)
ALL_ORDERS(SIGNAL_RMW, add,)
ALL_ORDERS(SIGNAL_RMW, subtract,)
ALL_ORDERS(SIGNAL_XCHG, )
ALL_ORDERS(SIGNAL_CAS, )

extern "C" {

HSAD_EXPORT hsa_status_t hsa_signal_create(hsa_signal_value_t v, uint32_t n, const hsa_agent_t *consumers,
                                           hsa_signal_t *signal) {
  return CORE->hsa_signal_create_fn(v, n, consumers, signal);
}
HSAD_EXPORT hsa_status_t hsa_signal_destroy(hsa_signal_t s) { return CORE->hsa_signal_destroy_fn(s); }
HSAD_EXPORT hsa_signal_value_t hsa_signal_load_relaxed(hsa_signal_t s) { return CORE->hsa_signal_load_relaxed_fn(s); }
HSAD_EXPORT hsa_signal_value_t hsa_signal_load_scacquire(hsa_signal_t s) { return CORE->hsa_signal_load_scacquire_fn(s); }
HSAD_EXPORT hsa_signal_value_t hsa_signal_load_acquire(hsa_signal_t s) { return CORE->hsa_signal_load_scacquire_fn(s); }
HSAD_EXPORT void hsa_signal_store_relaxed(hsa_signal_t s, hsa_signal_value_t v) { CORE->hsa_signal_store_relaxed_fn(s, v); }
HSAD_EXPORT void hsa_signal_store_screlease(hsa_signal_t s, hsa_signal_value_t v) { CORE->hsa_signal_store_screlease_fn(s, v); }
HSAD_EXPORT void hsa_signal_store_release(hsa_signal_t s, hsa_signal_value_t v) { CORE->hsa_signal_store_screlease_fn(s, v); }
HSAD_EXPORT void hsa_signal_silent_store_relaxed(hsa_signal_t s, hsa_signal_value_t v) {
  CORE->hsa_signal_silent_store_relaxed_fn(s, v);
}
HSAD_EXPORT void hsa_signal_silent_store_screlease(hsa_signal_t s, hsa_signal_value_t v) {
  CORE->hsa_signal_silent_store_screlease_fn(s, v);
}
HSAD_EXPORT hsa_signal_value_t hsa_signal_wait_relaxed(hsa_signal_t s, hsa_signal_condition_t c, hsa_signal_value_t v,
                                                       uint64_t timeout, hsa_wait_state_t w) {
  return CORE->hsa_signal_wait_relaxed_fn(s, c, v, timeout, w);
}
HSAD_EXPORT hsa_signal_value_t hsa_signal_wait_scacquire(hsa_signal_t s, hsa_signal_condition_t c, hsa_signal_value_t v,
                                                         uint64_t timeout, hsa_wait_state_t w) {
  return CORE->hsa_signal_wait_scacquire_fn(s, c, v, timeout, w);
}
HSAD_EXPORT hsa_signal_value_t hsa_signal_wait_acquire(hsa_signal_t s, hsa_signal_condition_t c, hsa_signal_value_t v,
                                                       uint64_t timeout, hsa_wait_state_t w) {
  return CORE->hsa_signal_wait_scacquire_fn(s, c, v, timeout, w);
}

// ---- queues -------------------------------------------------------------------------

HSAD_EXPORT hsa_status_t hsa_queue_create(hsa_agent_t agent, uint32_t size, hsa_queue_type32_t type,
                                          void (*callback)(hsa_status_t, hsa_queue_t *, void *), void *data,
                                          uint32_t private_segment_size, uint32_t group_segment_size,
                                          hsa_queue_t **queue) {
  return CORE->hsa_queue_create_fn(agent, size, type, callback, data, private_segment_size, group_segment_size, queue);
}
HSAD_EXPORT hsa_status_t hsa_queue_destroy(hsa_queue_t *q) { return CORE->hsa_queue_destroy_fn(q); }
HSAD_EXPORT hsa_status_t hsa_queue_inactivate(hsa_queue_t *q) { return CORE->hsa_queue_inactivate_fn(q); }

}  // extern "C"

#define QUEUE_LOAD(which, order, entry)                                                           \
  extern "C" HSAD_EXPORT uint64_t hsa_queue_load_##which##_index_##order(const hsa_queue_t *q) { \
    return CORE->hsa_queue_load_##which##_index_##entry##_fn(q);                                  \
  }
#define QUEUE_STORE(which, order, entry)                                                                   \
  extern "C" HSAD_EXPORT void hsa_queue_store_##which##_index_##order(const hsa_queue_t *q, uint64_t v) { \
    CORE->hsa_queue_store_##which##_index_##entry##_fn(q, v);                                              \
  }
#define QUEUE_ADD(order, entry)                                                                          \
  extern "C" HSAD_EXPORT uint64_t hsa_queue_add_write_index_##order(const hsa_queue_t *q, uint64_t v) { \
    return CORE->hsa_queue_add_write_index_##entry##_fn(q, v);                                           \
  }
#define QUEUE_CAS(order, entry)                                                                                     \
  extern "C" HSAD_EXPORT uint64_t hsa_queue_cas_write_index_##order(const hsa_queue_t *q, uint64_t e, uint64_t v) { \
    return CORE->hsa_queue_cas_write_index_##entry##_fn(q, e, v);                                                   \
  }

QUEUE_LOAD(read, relaxed, relaxed)
QUEUE_LOAD(read, scacquire, scacquire)
QUEUE_LOAD(read, acquire, scacquire)
QUEUE_LOAD(write, relaxed, relaxed)
QUEUE_LOAD(write, scacquire, scacquire)
QUEUE_LOAD(write, acquire, scacquire)
QUEUE_STORE(read, relaxed, relaxed)
QUEUE_STORE(read, screlease, screlease)
QUEUE_STORE(read, release, screlease)
QUEUE_STORE(write, relaxed, relaxed)
QUEUE_STORE(write, screlease, screlease)
QUEUE_STORE(write, release, screlease)
ALL_ORDERS(QUEUE_ADD, )
ALL_ORDERS(QUEUE_CAS, )
