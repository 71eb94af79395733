// hsa_double/cooperative.cpp — cooperative queues (HSA_QUEUE_TYPE_COOPERATIVE)
// and the notifier for queues the runtime creates for itself.
//
// ROCr core/runtime/amd_gpu_agent.cpp GpuAgent::QueueCreate, InitGWS and
// GWSRelease (all releases): each GPU agent has one cooperative (GWS) queue,
// created at the first request by CreateInterceptibleQueue() with
// core::Queue::DefaultErrorHandler and no data, then EnableGWS(1), which makes
// its type COOPERATIVE. Every hsa_queue_create of that type gets that same
// queue and adds a reference: the caller's callback, data, size and segment
// sizes are ignored. An error in it goes to DefaultErrorHandler, which prints
// "Queue at %p inactivated due to async error:" and aborts (queue_errors.cpp).
// hsa_queue_destroy of it drops a reference (AqlQueue::Destroy: GWSRelease);
// the last one destroys the queue, and the next request creates a new one.
// Its size: minAqlSize_ (0x40 packets) until 6.3, 0x4000 in develop ("7").
// An agent without GWS (NumGws == 0) refuses with INVALID_QUEUE_CREATION; the
// double's agents all have it.
//
// CreateInterceptibleQueue tells the notifier of
// hsa_amd_runtime_queue_create_register about the new queue (Runtime::
// InternalQueueCreateNotify); ROCr keeps one notifier and refuses a second
// (Runtime::SetInternalQueueCreateNotifier, HSA_STATUS_ERROR). The double's
// only internal queues are these.
#include <map>

#include "impl.h"

namespace hsad {
namespace {

struct Gws {
  Queue *queue = nullptr;
  uint32_t refs = 0;
};

std::mutex g_lock;  // ROCr's gws_queue_.lock_ (one per agent; one here)
std::map<Agent *, Gws> g_gws;
hsa_amd_runtime_queue_notifier g_notifier = nullptr;
void *g_notifier_data = nullptr;

}  // namespace

hsa_status_t coop_acquire(Agent *agent, hsa_queue_t **out) {
  std::lock_guard<std::mutex> lock(g_lock);
  Gws &g = g_gws[agent];
  if (!g.queue) {
    Queue *q;
    hsa_status_t s =
        queue_create_hw(agent, release().gws_queue_packets, HSA_QUEUE_TYPE_MULTI, default_error_handler, nullptr, &q);
    if (s != HSA_STATUS_SUCCESS) return s;
    q->amd.hsa_queue.type = HSA_QUEUE_TYPE_COOPERATIVE;  // AqlQueue::EnableGWS
    queue_register(q);
    g.queue = q;
    g.refs = 0;
    if (g_notifier) g_notifier(&q->amd.hsa_queue, handle_of(agent), g_notifier_data);
  }
  g.refs++;
  *out = &g.queue->amd.hsa_queue;
  return HSA_STATUS_SUCCESS;
}

bool coop_release(Queue *q) {
  Queue *last = nullptr;
  {
    std::lock_guard<std::mutex> lock(g_lock);
    auto it = g_gws.find(q->agent);
    if (it == g_gws.end() || it->second.queue != q) return false;
    if (--it->second.refs == 0) {
      last = q;
      g_gws.erase(it);
    }
  }
  if (last && queue_unregister(last)) queue_free(last);
  return true;
}

void coop_forget_all() {
  std::lock_guard<std::mutex> lock(g_lock);
  g_gws.clear();
  g_notifier = nullptr;
  g_notifier_data = nullptr;
}

hsa_status_t amd_runtime_queue_create_register(hsa_amd_runtime_queue_notifier callback, void *user_data) {
  HSAD_CHECK_OPEN();
  if (!callback) return HSA_STATUS_ERROR_INVALID_ARGUMENT;  // (ROCr would store and call NULL)
  std::lock_guard<std::mutex> lock(g_lock);
  if (g_notifier) return HSA_STATUS_ERROR;
  g_notifier = callback;
  g_notifier_data = user_data;
  return HSA_STATUS_SUCCESS;
}

}  // namespace hsad
