// hsa_double/intercept.cpp — intercept queues (hsa_amd_queue_intercept_create
// and _register, hsa_api_trace.h), with the semantics of ROCr's InterceptQueue.
//
// The caller gets a queue of its own ring; the packets go to a hidden hardware
// queue (`wrapped`, same agent and size) only through the interceptors:
//
//   user packet --> handler[n-1] --writer--> handler[n-2] ... handler[1] --writer--> submit --> wrapped ring
//
// Order: interceptors[0] is the final submission, installed at creation;
// hsa_amd_queue_intercept_register appends. ROCr's InterceptQueue::StoreRelaxed
// starts each packet at `interceptors.size() - 1` and its PacketWriter
// calls `interceptors[--index]`: the handler registered LAST sees the user's
// packet first, the one registered first is closest to the hardware. The
// double does the same, one user packet per call (pkt_count 1), with
// user_pkt_index = the packet's index in the intercept queue; a writer may be
// called any number of times with any number of packets.
//
// Like ROCr, the handlers run synchronously in the thread that stores to the
// intercept queue's doorbell (signal_store calls intercept_doorbell), under the
// queue's lock; the writer passed to them works only in that thread, during
// that call. A doorbell store made from inside a handler is deferred until the
// outermost one finishes (ROCr hands it to its async-events thread instead).
// Submission waits for room in the wrapped queue when it is full (ROCr parks
// the packets behind a retry barrier instead); if the wrapped queue has
// failed, the packets are dropped.
#include <cstdlib>
#include <cstring>
#include <deque>

#include "impl.h"

namespace hsad {
namespace {

thread_local Queue *t_queue = nullptr;  // intercept queue whose handlers run in this thread
thread_local size_t t_index = 0;        // interceptor being called
thread_local uint64_t t_user_index = 0;
thread_local std::deque<Queue *> t_deferred;

constexpr uint16_t kInvalidHeader = HSA_PACKET_TYPE_INVALID << HSA_PACKET_HEADER_TYPE;

uint8_t *slot(Queue *q, uint64_t index) { return static_cast<uint8_t *>(q->ring) + (index & (q->size - 1)) * 64; }

void writer(const void *pkts, uint64_t count) {
  if (!t_queue || t_index == 0) return;  // not inside a handler, or called by the final submission
  Interceptor next = t_queue->interceptors[--t_index];
  next.first(pkts, count, t_user_index, next.second, writer);
  ++t_index;  // the same handler may write again
}

// Writes `count` packets into the wrapped queue: body first with the header
// still INVALID, then the first header (release), then the doorbell.
void submit_chunk(Queue *w, const uint8_t *pkts, uint64_t count) {
  uint64_t write = __atomic_fetch_add(&w->amd.write_dispatch_id, count, __ATOMIC_SEQ_CST);
  bool room = wait_until(UINT64_MAX, [&] {
    if (w->stop || w->failed || w->inactive) return false;
    return write + count - __atomic_load_n(&w->amd.read_dispatch_id, __ATOMIC_ACQUIRE) <= w->size;
  });
  if (!room) return;
  for (uint64_t k = count; k-- > 0;) {
    uint8_t *dst = slot(w, write + k);
    if (k) memcpy(dst, pkts + k * 64, 64);
    else memcpy(dst + 2, pkts + 2, 62);
  }
  uint16_t header;
  memcpy(&header, pkts, sizeof header);
  __atomic_store_n(reinterpret_cast<uint16_t *>(slot(w, write)), header, __ATOMIC_RELEASE);
  signal_store(w->doorbell, int64_t(write + count - 1));
}

// interceptors[0]: the last step, into the hardware queue.
void submit(const void *pkts, uint64_t count, uint64_t, void *data, hsa_amd_queue_intercept_packet_writer) {
  Queue *w = static_cast<Queue *>(data)->wrapped;
  auto *p = static_cast<const uint8_t *>(pkts);
  while (count) {
    uint64_t n = count < w->size ? count : w->size;
    submit_chunk(w, p, n);
    p += n * 64;
    count -= n;
  }
}

// Runs the handlers over every valid packet written since the last call.
void process(Queue *iq) {
  std::lock_guard<std::recursive_mutex> lock(iq->intercept_lock);
  t_queue = iq;
  uint64_t end = __atomic_load_n(&iq->amd.write_dispatch_id, __ATOMIC_ACQUIRE);
  if (end > iq->next_packet + iq->size) end = iq->next_packet + iq->size;  // only what the ring holds
  uint64_t i = iq->next_packet;
  for (; i < end; i++) {
    auto *header = reinterpret_cast<uint16_t *>(slot(iq, i));
    if (((__atomic_load_n(header, __ATOMIC_ACQUIRE) >> HSA_PACKET_HEADER_TYPE) & 0xff) == HSA_PACKET_TYPE_INVALID) break;
    t_index = iq->interceptors.size() - 1;
    t_user_index = i;
    Interceptor first = iq->interceptors[t_index];
    first.first(slot(iq, i), 1, i, first.second, writer);
    __atomic_store_n(header, kInvalidHeader, __ATOMIC_RELEASE);
  }
  iq->next_packet = i;
  t_queue = nullptr;
  __atomic_store_n(&iq->amd.read_dispatch_id, i, __ATOMIC_RELEASE);
  wake_waiters();
}

}  // namespace

void intercept_doorbell(Queue *iq) {
  if (t_queue) {  // a handler rang a doorbell: finish the current packets first
    for (Queue *q : t_deferred)
      if (q == iq) return;
    t_deferred.push_back(iq);
    return;
  }
  process(iq);
  while (!t_deferred.empty()) {
    Queue *next = t_deferred.front();
    t_deferred.pop_front();
    if (queue_from(&next->amd.hsa_queue)) process(next);
  }
}

hsa_status_t amd_queue_intercept_create(hsa_agent_t agent, uint32_t size, hsa_queue_type32_t type,
                                        void (*callback)(hsa_status_t, hsa_queue_t *, void *), void *data,
                                        uint32_t private_segment_size, uint32_t group_segment_size,
                                        hsa_queue_t **queue) {
  HSAD_CHECK_OPEN();
  (void)private_segment_size;
  (void)group_segment_size;
  if (!queue || size < 3) return HSA_STATUS_ERROR_INVALID_ARGUMENT;  // ROCr's minimum for an intercept queue
  Agent *a;
  hsa_status_t s = queue_validate(agent, size, type, &a);  // the runtime's own queue create, not the table's
  if (s != HSA_STATUS_SUCCESS) return s;
  Queue *w;
  s = queue_create_hw(a, size, type, callback, data, &w);
  if (s != HSA_STATUS_SUCCESS) return s;
  auto *iq = new Queue;
  memset(&iq->amd, 0, sizeof iq->amd);
  iq->agent = a;
  iq->size = size;
  iq->wrapped = w;
  iq->ring = aligned_alloc(4096, size_t(size) * 64);
  if (!iq->ring) {
    queue_free(iq);
    return HSA_STATUS_ERROR_OUT_OF_RESOURCES;
  }
  memset(iq->ring, 0, size_t(size) * 64);
  for (uint32_t i = 0; i < size; i++) *reinterpret_cast<uint16_t *>(slot(iq, i)) = kInvalidHeader;
  iq->doorbell = signal_new(0);
  iq->doorbell->queue_owned = true;
  iq->doorbell->intercept = iq;
  iq->amd.hsa_queue = w->amd.hsa_queue;  // same type, features, size and id as the queue it wraps
  iq->amd.hsa_queue.base_address = iq->ring;
  iq->amd.hsa_queue.doorbell_signal = handle_of(iq->doorbell);
  iq->amd.queue_properties = w->amd.queue_properties;
  iq->interceptors.push_back({submit, iq});
  w->reported = &iq->amd.hsa_queue;  // errors name the queue the caller knows
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
