// hsa_double/vm_fault.cpp — GPU memory faults, as ROCr reports them
// (core/runtime/runtime.cpp Runtime::BindVmFaultHandler and VMFaultHandler,
// the same logic 5.2 to develop), and hsa_amd_register_system_event_handler.
//
// At hsa_init, if interrupts are on (HSA_ENABLE_INTERRUPT != 0) and there is a
// GPU, ROCr registers VMFaultHandler on a signal KFD raises on a fault. It
// runs on the async-events thread (from 6.2.1 the exceptions thread of its
// own, async.cpp) and
//  1. builds hsa_amd_event_t {HSA_AMD_GPU_MEMORY_FAULT_EVENT, {agent, address,
//     fault_reason_mask}} and calls every registered system event handler, in
//     registration order;
//  2. if none returned HSA_STATUS_SUCCESS, prints "Memory access fault by GPU
//     node-%u (Agent handle: %p) on address %p%s. Reason: %s.\n" (unless
//     HSA_ENABLE_VM_FAULT_MESSAGE=0) and calls abort();
//  3. if one did, returns false: the VM-fault handler is gone and later
//     faults are reported to no one.
// The queue the fault happened in never calls its error callback for it
// (queue_errors.cpp). The simulated device names the address and reasons with
// hsa_double_memory_fault (default: address 0, page not present).
// Not modelled: the GPU core dump 6.2+ attempts before aborting, and the
// HW-exception and memory-error events of 6.0+/6.3+.
#include <cstdio>
#include <cstdlib>
#include <deque>

#include "impl.h"

namespace hsad {
namespace {

struct Fault {
  Agent *agent;
  uint64_t address;
  uint32_t reasons;
};

std::mutex g_lock;  // g_handlers, g_faults, g_signal
std::vector<std::pair<hsa_amd_system_event_callback_t, void *>> g_handlers;
std::deque<Fault> g_faults;
Signal *g_signal = nullptr;  // KFD's VM-fault event

thread_local bool t_named = false;
thread_local uint64_t t_address = 0;
thread_local uint32_t t_reasons = 0;

// The reason ROCr prints: the first of its checks that holds.
const char *reason_text(uint32_t m) {
  if (m & HSA_AMD_MEMORY_FAULT_PAGE_NOT_PRESENT) return "Page not present or supervisor privilege";
  if (m & HSA_AMD_MEMORY_FAULT_READ_ONLY) return "Write access to a read-only page";
  if (m & HSA_AMD_MEMORY_FAULT_NX) return "Execute access to a page marked NX";
  if (m & HSA_AMD_MEMORY_FAULT_HOST_ONLY) return "Host access only";
  if (m & HSA_AMD_MEMORY_FAULT_DRAMECC) return "DRAM ECC failure";
  if (m & HSA_AMD_MEMORY_FAULT_SRAMECC) return "SRAM ECC failure";
  if (m & HSA_AMD_MEMORY_FAULT_HANG) return "Generic hang recovery";
  return "Unknown";
}

bool vm_fault_handler(hsa_signal_value_t, void *) {
  Fault f;
  std::vector<std::pair<hsa_amd_system_event_callback_t, void *>> handlers;
  {
    std::lock_guard<std::mutex> lock(g_lock);
    if (g_faults.empty()) return true;
    f = g_faults.front();
    g_faults.pop_front();
    handlers = g_handlers;  // GetSystemEventHandlers: a copy
  }
  hsa_status_t handled = HSA_STATUS_ERROR;
  if (!handlers.empty()) {
    hsa_amd_event_t event{};
    event.event_type = HSA_AMD_GPU_MEMORY_FAULT_EVENT;
    event.memory_fault.agent = handle_of(f.agent);
    event.memory_fault.virtual_address = f.address;
    event.memory_fault.fault_reason_mask = f.reasons;
    for (auto &h : handlers)
      if (h.first(&event, h.second) == HSA_STATUS_SUCCESS) handled = HSA_STATUS_SUCCESS;
  }
  if (handled != HSA_STATUS_SUCCESS) {
    if (flags().vm_fault_message)
      fprintf(stderr, "Memory access fault by GPU node-%u (Agent handle: %p) on address %p%s. Reason: %s.\n",
              f.agent->node, static_cast<void *>(f.agent), reinterpret_cast<void *>(f.address),
              (f.reasons & HSA_AMD_MEMORY_FAULT_IMPRECISE) ? "(may not be exact address)" : "",
              reason_text(f.reasons));
    abort();
  }
  return false;  // one-shot: no handler for later faults
}

}  // namespace

void vmfault_bind() {
  bool gpu = false;
  for (Agent *a : agents()) gpu |= a->type == HSA_DEVICE_TYPE_GPU;
  if (!flags().interrupt || !gpu) return;
  Signal *s = signal_new(0);
  s->queue_owned = true;  // the runtime's own: hsa_signal_destroy refuses it
  {
    std::lock_guard<std::mutex> lock(g_lock);
    g_signal = s;
  }
  async_add(s, HSA_SIGNAL_CONDITION_NE, 0, vm_fault_handler, nullptr, Lane::Exceptions);
}

void vmfault_unbind() {
  std::lock_guard<std::mutex> lock(g_lock);
  g_handlers.clear();
  g_faults.clear();
  g_signal = nullptr;  // freed with every other signal
}

void vmfault_raise(Agent *agent) {
  Fault f{agent, t_named ? t_address : 0, t_named ? t_reasons : uint32_t(HSA_AMD_MEMORY_FAULT_PAGE_NOT_PRESENT)};
  t_named = false;
  Signal *s;
  {
    std::lock_guard<std::mutex> lock(g_lock);
    if (!g_signal) return;  // no VM-fault handler: nobody hears of it
    g_faults.push_back(f);
    s = g_signal;
  }
  signal_store(s, 1);
}

// ROCr accepts any callback (Runtime::SetCustomSystemEventHandler); the double
// refuses NULL, which ROCr would call.
hsa_status_t amd_register_system_event_handler(hsa_amd_system_event_callback_t callback, void *data) {
  HSAD_CHECK_OPEN();
  if (!callback) return HSA_STATUS_ERROR_INVALID_ARGUMENT;
  std::lock_guard<std::mutex> lock(g_lock);
  g_handlers.emplace_back(callback, data);
  return HSA_STATUS_SUCCESS;
}

}  // namespace hsad

extern "C" HSAD_EXPORT void hsa_double_memory_fault(uint64_t address, uint32_t reason_mask) {
  hsad::t_named = true;
  hsad::t_address = address;
  hsad::t_reasons = reason_mask;
}
