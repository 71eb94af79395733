// hsa_double/intercept.cpp — intercept queues (hsa_amd_queue_intercept_create
// and _register, hsa_api_trace.h), with the semantics of ROCr's InterceptQueue
// (core/runtime/intercept_queue.cpp; rewritten in 6.0, differences below).
//
// The caller gets a queue of its own ring; the packets go to a hidden hardware
// queue (`wrapped`, same agent and size) only through the interceptors:
//
//   user packet --> handler[n-1] --writer--> handler[n-2] ... handler[1] --writer--> submit --> wrapped ring
//
// interceptors[0] is ROCr's Submit, installed at creation (intercept_submit.cpp);
// hsa_amd_queue_intercept_register appends. StoreRelaxed starts each packet at
// `interceptors.size() - 1` and PacketWriter calls `interceptors[--index]`: the
// handler registered LAST sees the user's packet first. One user packet per
// call (pkt_count 1), user_pkt_index = its index in the intercept queue. 6.0+
// PacketWriter restores the index, so a handler may call the writer any number
// of times; 5.x does not: a second call goes one handler further down, and
// past Submit ROCr reads outside its vector (the double stops there with a
// message instead).
//
// Threads (InterceptQueue::StoreRelaxed, HandleAsyncDoorbell): the handlers run
// in the thread that stores to the intercept queue's doorbell, under the
// queue's lock. A doorbell store made while any intercept handler runs in that
// thread ("If called recursively defer to async doorbell thread") goes to the
// queue's async doorbell instead, and its packets are processed on the
// async-events thread; so are the packets left over when the hardware ring was
// full, once ROCr's retry barrier completes (intercept_submit.cpp). Overflow
// packets go first; 6.0+ stops processing new packets while any are left over.
// The intercept queue's read index advances as the handlers consume packets,
// not when the GPU is done with them.
//
// Creation (core/runtime/hsa_ext_amd.cpp hsa_amd_queue_intercept_create):
// 6.0+ first refuses size < 3; the lower queue comes from the runtime's own
// hsa_queue_create (not the API table: a tool's hook is not called), with the
// caller's callback (NULL: DefaultErrorHandler) and its errors name the
// intercept queue.
#include <cstdio>
#include <cstdlib>
#include <cstring>

#include "impl.h"

namespace hsad {
namespace {

thread_local Queue *t_queue = nullptr;  // ROCr's Cursor: the intercept queue whose handlers run here
thread_local size_t t_index = 0;        // interceptor being called
thread_local uint64_t t_user_index = 0;

constexpr uint16_t kInvalidHeader = HSA_PACKET_TYPE_INVALID << HSA_PACKET_HEADER_TYPE;
constexpr int64_t kDoorbellMax = -1;  // DOORBELL_MAX, 0xFFFFFFFFFFFFFFFF

uint8_t *slot(Queue *q, uint64_t index) { return static_cast<uint8_t *>(q->ring) + (index & (q->size - 1)) * 64; }

void writer(const void *pkts, uint64_t count) {
  if (!t_queue) return;  // not inside a handler
  if (t_index == 0) {
    fprintf(stderr, "hsa_double: an intercept handler called the packet writer once too often: ROCm %s's "
            "PacketWriter would index its interceptors at -1\n", release().name);
    abort();
  }
  Interceptor next = t_queue->interceptors[--t_index];
  next.first(pkts, count, t_user_index, next.second, writer);
  if (release().intercept_v6) ++t_index;  // the same handler may write again
}

// InterceptQueue::StoreRelaxed: runs the handlers over the packets written
// since the last call.
void process(Queue *iq, int64_t value) {
  if (!iq->active) return;
  if (t_queue) {  // recursive: defer to the async doorbell thread
    signal_store(iq->async_doorbell, value);
    return;
  }
  std::lock_guard<std::recursive_mutex> lock(iq->intercept_lock);
  bool v6 = release().intercept_v6;
  if (!iq->overflow.empty()) {  // "Submit overflow packets."
    uint64_t n = intercept_submit(iq, iq->overflow.data(), iq->overflow.size());
    if (n < iq->overflow.size()) {
      if (v6) iq->overflow.erase(iq->overflow.begin(), iq->overflow.begin() + long(n));
      return;
    }
    iq->overflow.clear();
  }
  t_queue = iq;
  uint64_t end = __atomic_load_n(&iq->amd.write_dispatch_id, __ATOMIC_ACQUIRE);
  if (end > iq->next_packet + iq->size) end = iq->next_packet + iq->size;  // only what the ring holds
  uint64_t i = iq->next_packet;
  while (i < end) {
    auto *header = reinterpret_cast<uint16_t *>(slot(iq, i));
    if (((__atomic_load_n(header, __ATOMIC_ACQUIRE) >> HSA_PACKET_HEADER_TYPE) & 0xff) == HSA_PACKET_TYPE_INVALID) break;
    t_index = iq->interceptors.size() - 1;
    t_user_index = i;
    Interceptor first = iq->interceptors[t_index];
    first.first(slot(iq, i), 1, i, first.second, writer);
    __atomic_store_n(header, kInvalidHeader, __ATOMIC_RELEASE);
    ++i;
    if (v6 && !iq->overflow.empty()) break;  // one rewrite at most waits in overflow
  }
  iq->next_packet = i;
  t_queue = nullptr;
  __atomic_store_n(&iq->amd.read_dispatch_id, i, __ATOMIC_RELEASE);
  wake_waiters();
}

void release_storage(Queue *iq) {
  queue_free(iq->wrapped);
  if (iq->async_doorbell) signal_delete(iq->async_doorbell);
  if (iq->doorbell) signal_delete(iq->doorbell);
  free(iq->ring);
  iq->magic = 0;
  delete iq;
}

// InterceptQueue::HandleAsyncDoorbell, on the async-events thread.
bool async_doorbell(hsa_signal_value_t value, void *arg) {
  auto *iq = static_cast<Queue *>(arg);
  signal_store(iq->async_doorbell, kDoorbellMax);
  iq->in_async = true;
  process(iq, value);
  iq->in_async = false;
  if (iq->destroy_requested) {  // hsa_queue_destroy from one of its own handlers
    release_storage(iq);
    return false;
  }
  return true;
}

}  // namespace

void intercept_doorbell(Queue *iq, int64_t value) { process(iq, value); }

// ~InterceptQueue: no more processing, then its async doorbell handler is
// stopped (waited for, if it runs on another thread), then the lower queue goes.
void intercept_free(Queue *iq) {
  iq->active = false;
  if (iq->in_async && on_async_thread()) {
    iq->destroy_requested = true;  // async_doorbell frees it when its processing returns
    return;
  }
  async_quiesce(iq->async_doorbell);
  release_storage(iq);
}

hsa_status_t amd_queue_intercept_create(hsa_agent_t agent, uint32_t size, hsa_queue_type32_t type,
                                        void (*callback)(hsa_status_t, hsa_queue_t *, void *), void *data,
                                        uint32_t private_segment_size, uint32_t group_segment_size,
                                        hsa_queue_t **queue) {
  HSAD_CHECK_OPEN();
  (void)private_segment_size;
  (void)group_segment_size;
  if (!queue) return HSA_STATUS_ERROR_INVALID_ARGUMENT;
  if (release().intercept_v6 && size < 3) return HSA_STATUS_ERROR_INVALID_ARGUMENT;
  Agent *a;
  hsa_status_t s = queue_validate(agent, size, type, &a);  // the runtime's own queue create, not the table's
  if (s != HSA_STATUS_SUCCESS) return s;
  if (type == HSA_QUEUE_TYPE_COOPERATIVE) return HSA_STATUS_ERROR_INVALID_QUEUE_CREATION;  // not modelled
  Queue *w;
  s = queue_create_hw(a, size, type, callback, data, &w);
  if (s != HSA_STATUS_SUCCESS) return s;
  void *ring = aligned_alloc(4096, size_t(size) * 64);
  if (!ring) {
    queue_free(w);
    return HSA_STATUS_ERROR_OUT_OF_RESOURCES;
  }
  auto *iq = new Queue;
  memset(&iq->amd, 0, sizeof iq->amd);
  iq->agent = a;
  iq->size = size;
  iq->wrapped = w;
  iq->ring = ring;
  memset(iq->ring, 0, size_t(size) * 64);
  for (uint32_t i = 0; i < size; i++) *reinterpret_cast<uint16_t *>(slot(iq, i)) = kInvalidHeader;
  iq->doorbell = signal_new(0);
  iq->doorbell->queue_owned = true;
  iq->doorbell->intercept = iq;
  iq->async_doorbell = signal_new(kDoorbellMax);
  iq->async_doorbell->queue_owned = true;
  iq->amd.hsa_queue = w->amd.hsa_queue;  // a copy of the queue it wraps (QueueWrapper), but its own ring
  iq->amd.hsa_queue.base_address = iq->ring;
  iq->amd.hsa_queue.doorbell_signal = handle_of(iq->doorbell);
  iq->amd.queue_properties = w->amd.queue_properties;
  iq->interceptors.push_back({intercept_submit_handler, iq});
  w->reported = &iq->amd.hsa_queue;  // errors name the queue the caller knows
  async_add(iq->async_doorbell, HSA_SIGNAL_CONDITION_NE, kDoorbellMax, async_doorbell, iq, Lane::Signals);
  queue_register(iq);
  *queue = &iq->amd.hsa_queue;
  return HSA_STATUS_SUCCESS;
}

hsa_status_t amd_queue_intercept_register(hsa_queue_t *queue, hsa_amd_queue_intercept_handler callback,
                                          void *user_data) {
  HSAD_CHECK_OPEN();
  Queue *q = queue_from(queue);
  if (!q || !q->wrapped) return HSA_STATUS_ERROR_INVALID_QUEUE;
  if (!callback) return HSA_STATUS_ERROR_INVALID_ARGUMENT;
  std::lock_guard<std::recursive_mutex> lock(q->intercept_lock);
  q->interceptors.push_back({callback, user_data});
  return HSA_STATUS_SUCCESS;
}

}  // namespace hsad
