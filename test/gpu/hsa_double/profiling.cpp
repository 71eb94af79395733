// hsa_double/profiling.cpp — dispatch timestamps (ROCr core/runtime/
// hsa_ext_amd.cpp hsa_amd_profiling_set_profiler_enabled and
// hsa_amd_profiling_get_dispatch_time, the same in every release).
//
// set_profiler_enabled sets or clears AMD_QUEUE_PROPERTIES_ENABLE_PROFILING
// (bit 3) of the queue's amd_queue_t.queue_properties (core/inc/queue.h
// Queue::SetProfiling); an intercept queue forwards it to the queue it wraps
// and keeps its own properties as they were (core/inc/intercept_queue.h
// QueueWrapper::SetProfiling). With the bit set, the packet processor writes
// the packet's start and end times into amd_signal_t.start_ts/end_ts (byte
// offsets 32 and 40) of its completion signal before completing it
// (processor.cpp; on hardware that is the CP's firmware, outside ROCr: the
// double does it for every packet type). get_dispatch_time reads them from the
// signal passed in (GpuAgent::TranslateTime: Signal::GetRawTs, then GPU ticks
// to system time: the double's GPU clock is the system clock, 1 GHz). Zero
// timestamps are not an error.
#include "impl.h"

namespace hsad {

bool profiling_enabled(const Queue *q) {
  return __atomic_load_n(&q->amd.queue_properties, __ATOMIC_ACQUIRE) & AMD_QUEUE_PROPERTIES_ENABLE_PROFILING;
}

hsa_status_t amd_profiling_set_profiler_enabled(hsa_queue_t *queue, int enable) {
  HSAD_CHECK_OPEN();
  Queue *q = queue_from(queue);
  if (!q) return HSA_STATUS_ERROR_INVALID_QUEUE;
  if (q->wrapped) q = q->wrapped;
  if (enable) __atomic_fetch_or(&q->amd.queue_properties, uint32_t(AMD_QUEUE_PROPERTIES_ENABLE_PROFILING), __ATOMIC_SEQ_CST);
  else __atomic_fetch_and(&q->amd.queue_properties, ~uint32_t(AMD_QUEUE_PROPERTIES_ENABLE_PROFILING), __ATOMIC_SEQ_CST);
  return HSA_STATUS_SUCCESS;
}

// ROCr's order of checks: time, agent, signal, then a GPU agent.
hsa_status_t amd_profiling_get_dispatch_time(hsa_agent_t agent, hsa_signal_t signal,
                                             hsa_amd_profiling_dispatch_time_t *time) {
  HSAD_CHECK_OPEN();
  if (!time) return HSA_STATUS_ERROR_INVALID_ARGUMENT;
  Agent *a = agent_from(agent);
  if (!a) return HSA_STATUS_ERROR_INVALID_AGENT;
  Signal *s = signal_from(signal);
  if (!s) return HSA_STATUS_ERROR_INVALID_SIGNAL;
  if (a->type != HSA_DEVICE_TYPE_GPU) return HSA_STATUS_ERROR_INVALID_AGENT;
  time->end = __atomic_load_n(&s->abi.end_ts, __ATOMIC_ACQUIRE);
  time->start = __atomic_load_n(&s->abi.start_ts, __ATOMIC_ACQUIRE);
  return HSA_STATUS_SUCCESS;
}

}  // namespace hsad
