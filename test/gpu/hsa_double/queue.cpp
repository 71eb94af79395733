// hsa_double/queue.cpp — AQL queue objects: hsa_queue_create/destroy/
// inactivate and the live-queue registry.
//
// A queue is ROCr's amd_queue_t (hsa_queue_t first, then the dispatch ids the
// index functions read and write) at the start of a Queue; the handle is its
// address. The ring is host memory of `size` 64-byte packets, every header
// INVALID at creation. Each hardware queue has a packet-processor thread
// (processor.cpp) that sleeps until its doorbell is rung.
//
// Doorbell: the producer stores the id of the last packet it made valid
// (HSA's AQL protocol); the processor consumes packet i only once the doorbell
// holds a value >= i, like a command processor whose write pointer arrives
// through the doorbell. The doorbell starts at -1, so even packet 0 needs a ring.
//
// Creation checks what ROCr checks, in its order (core/runtime/hsa.cpp
// hsa_queue_create, then GpuAgent::QueueCreate; all releases): the size is a
// nonzero power of two and the type at most COOPERATIVE (else
// INVALID_ARGUMENT), the agent is valid (INVALID_AGENT); a CPU agent has no
// packet processor (HSA_STATUS_ERROR); a cooperative queue is the agent's
// shared one (cooperative.cpp); the size is at most 0x20000 packets
// (OUT_OF_RESOURCES) and at least 0x40 (INVALID_ARGUMENT). A NULL callback
// becomes DefaultErrorHandler (queue_errors.cpp). Each hardware queue has an
// exception signal whose handler, on the async thread, reports its errors.
//
// A queue destroyed from its own processor thread (the simulated device) is
// freed by that thread when the dispatch returns.
#include <cstdlib>
#include <cstring>
#include <set>

#include "impl.h"

namespace hsad {
namespace {
std::mutex g_lock;
std::set<Queue *> g_queues;
std::atomic<uint64_t> g_next_id{0};

constexpr uint32_t kMinPackets = 0x40, kMaxPackets = 0x20000;  // as HSA_AGENT_INFO_QUEUE_MIN/MAX_SIZE
}  // namespace

uint64_t queue_next_id() { return g_next_id.fetch_add(1); }

void queue_register(Queue *q) {
  std::lock_guard<std::mutex> lock(g_lock);
  g_queues.insert(q);
}

bool queue_unregister(Queue *q) {
  std::lock_guard<std::mutex> lock(g_lock);
  return g_queues.erase(q) != 0;
}

Queue *queue_from(const hsa_queue_t *h) {
  if (!h) return nullptr;
  auto *q = reinterpret_cast<Queue *>(const_cast<hsa_queue_t *>(h));  // amd.hsa_queue is the first member
  std::lock_guard<std::mutex> lock(g_lock);
  return g_queues.count(q) ? q : nullptr;
}

hsa_status_t queue_create_hw(Agent *agent, uint32_t size, hsa_queue_type32_t type, ErrorCallback cb, void *data,
                             Queue **out) {
  auto *q = new Queue;
  memset(&q->amd, 0, sizeof q->amd);
  q->agent = agent;
  q->size = size;
  q->ring = aligned_alloc(4096, size_t(size) * 64);
  if (!q->ring) {
    delete q;
    return HSA_STATUS_ERROR_OUT_OF_RESOURCES;
  }
  memset(q->ring, 0, size_t(size) * 64);
  for (uint32_t i = 0; i < size; i++) {
    auto *header = reinterpret_cast<uint16_t *>(static_cast<uint8_t *>(q->ring) + size_t(i) * 64);
    *header = HSA_PACKET_TYPE_INVALID << HSA_PACKET_HEADER_TYPE;
  }
  q->doorbell = signal_new(-1);
  q->doorbell->queue_owned = true;
  q->doorbell->abi.queue_ptr = &q->amd;
  q->callback = cb;
  q->callback_data = data;
  q->reported = &q->amd.hsa_queue;
  queue_errors_attach(q);
  hsa_queue_t &h = q->amd.hsa_queue;
  h.type = type;
  h.features = HSA_QUEUE_FEATURE_KERNEL_DISPATCH;
  h.base_address = q->ring;
  h.doorbell_signal = handle_of(q->doorbell);
  h.size = size;
  h.id = queue_next_id();
  q->amd.queue_properties = AMD_QUEUE_PROPERTIES_IS_PTR64;
  q->processor = std::thread(processor_main, q);
  *out = q;
  return HSA_STATUS_SUCCESS;
}

void queue_release(Queue *q) {
  if (q->doorbell) signal_delete(q->doorbell);
  if (q->exception) signal_delete(q->exception);
  free(q->ring);
  q->magic = 0;
  delete q;
}

void queue_free(Queue *q) {
  if (q->wrapped) return intercept_free(q);
  if (q->exception) async_quiesce(q->exception);  // its error handler may be running: wait (ROCr ~AqlQueue)
  q->stop = true;
  wake_waiters();
  if (q->processor.joinable()) {
    if (q->processor.get_id() == std::this_thread::get_id()) {  // from its own callback
      q->processor.detach();
      q->self_release = true;  // processor_main calls queue_release on its way out
      return;
    }
    q->processor.join();
  }
  queue_release(q);
}

void queues_destroy_all() {
  std::vector<Queue *> all;
  {
    std::lock_guard<std::mutex> lock(g_lock);
    all.assign(g_queues.begin(), g_queues.end());
    g_queues.clear();
  }
  for (Queue *q : all)  // intercept queues free the queue they wrap
    if (q->wrapped) queue_free(q);
  for (Queue *q : all)
    if (!q->wrapped) queue_free(q);
}

hsa_status_t queue_validate(hsa_agent_t agent, uint32_t size, hsa_queue_type32_t type, Agent **out) {
  if (size == 0 || (size & (size - 1)) || type > HSA_QUEUE_TYPE_COOPERATIVE) return HSA_STATUS_ERROR_INVALID_ARGUMENT;
  Agent *a = agent_from(agent);
  if (!a) return HSA_STATUS_ERROR_INVALID_AGENT;
  if (a->type != HSA_DEVICE_TYPE_GPU) return HSA_STATUS_ERROR;  // CpuAgent::QueueCreate
  *out = a;
  if (type == HSA_QUEUE_TYPE_COOPERATIVE) return HSA_STATUS_SUCCESS;  // the size is not used
  if (size > kMaxPackets) return HSA_STATUS_ERROR_OUT_OF_RESOURCES;
  if (size < kMinPackets) return HSA_STATUS_ERROR_INVALID_ARGUMENT;
  return HSA_STATUS_SUCCESS;
}

hsa_status_t queue_create(hsa_agent_t agent, uint32_t size, hsa_queue_type32_t type,
                          void (*callback)(hsa_status_t, hsa_queue_t *, void *), void *data,
                          uint32_t private_segment_size, uint32_t group_segment_size, hsa_queue_t **queue) {
  HSAD_CHECK_OPEN();
  (void)private_segment_size;  // scratch and LDS hints: nothing to reserve
  (void)group_segment_size;
  if (!queue) return HSA_STATUS_ERROR_INVALID_ARGUMENT;
  Agent *a;
  hsa_status_t s = queue_validate(agent, size, type, &a);
  if (s != HSA_STATUS_SUCCESS) return s;
  if (type == HSA_QUEUE_TYPE_COOPERATIVE) return coop_acquire(a, queue);  // callback and sizes ignored
  Queue *q;
  s = queue_create_hw(a, size, type, callback, data, &q);
  if (s != HSA_STATUS_SUCCESS) return s;
  queue_register(q);
  *queue = &q->amd.hsa_queue;
  return HSA_STATUS_SUCCESS;
}

hsa_status_t queue_destroy(hsa_queue_t *queue) {
  HSAD_CHECK_OPEN();
  if (!queue) return HSA_STATUS_ERROR_INVALID_ARGUMENT;
  Queue *q = queue_from(queue);
  if (q && coop_release(q)) return HSA_STATUS_SUCCESS;  // AqlQueue::Destroy: GWSRelease
  if (!q || !queue_unregister(q)) return HSA_STATUS_ERROR_INVALID_QUEUE;
  queue_free(q);
  return HSA_STATUS_SUCCESS;
}

// The processor stops taking packets; those left in the ring stay unprocessed.
hsa_status_t queue_inactivate(hsa_queue_t *queue) {
  HSAD_CHECK_OPEN();
  Queue *q = queue_from(queue);
  if (!q) return HSA_STATUS_ERROR_INVALID_QUEUE;
  q->inactive = true;
  if (q->wrapped) q->wrapped->inactive = true;
  wake_waiters();
  return HSA_STATUS_SUCCESS;
}

}  // namespace hsad
