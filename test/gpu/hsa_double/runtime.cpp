// hsa_double/runtime.cpp — hsa_init / hsa_shut_down: reference counted like
// ROCr's Runtime::Acquire/Release (core/runtime/runtime.cpp, all releases).
// The first hsa_init does what Runtime::Load does, in its order: read the
// flags (Flag::Refresh; here also HSA_DOUBLE_ROCM), build the agents, bind
// the VM-fault handler, then load tools; the last hsa_shut_down tears
// everything down in Runtime::Unload's order (OnUnload and table reset first,
// tools dlclose'd last) and joins every thread the double started, so a test
// leaves nothing behind for LSan. A later hsa_init starts over: flags and
// release are read again, tools loaded again.
//
// Threading: g_boot serializes init and shutdown. It is recursive, so a
// tool's OnLoad that calls hsa_init gets a reference (in ROCr it would
// deadlock on the bootstrap lock); the count is raised before loading, so
// OnLoad already sees an open runtime.
#include <cstdlib>
#include <cstring>
#include <ctime>

#include "impl.h"

namespace hsad {
namespace {
std::recursive_mutex g_boot;
std::atomic<int> g_refs{0};
Flags g_flags;

bool not_zero(const char *name) {
  const char *v = getenv(name);
  return !(v && !strcmp(v, "0"));
}

// The reverse of init: the order follows ROCr's Runtime::Unload.
void unload() {
  tools_unload();
  loader_destroy_all();
  coop_forget_all();
  queues_destroy_all();
  async_stop();
  vmfault_unbind();
  copies_release();
  signal_release_all();
  mem_release_all();
  agents_destroy();
  tools_close();
}
}  // namespace

const Flags &flags() { return g_flags; }

bool is_open() { return g_refs.load(std::memory_order_acquire) > 0; }

const char *env(const char *name) {
  const char *v = getenv(name);
  return v && *v ? v : nullptr;
}

uint64_t now_ns() {
  timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return uint64_t(ts.tv_sec) * 1000000000ull + uint64_t(ts.tv_nsec);
}

hsa_status_t init() {
  std::lock_guard<std::recursive_mutex> lock(g_boot);
  if (g_refs.load() == INT32_MAX) return HSA_STATUS_ERROR_REFCOUNT_OVERFLOW;
  if (g_refs.fetch_add(1) != 0) return HSA_STATUS_SUCCESS;
  if (!release_select()) {  // HSA_DOUBLE_ROCM, read once per runtime instance like ROCr's flags
    g_refs.fetch_sub(1);
    return HSA_STATUS_ERROR;
  }
  g_flags.queue_fault_message = not_zero("HSA_ENABLE_QUEUE_FAULT_MESSAGE");
  g_flags.vm_fault_message = not_zero("HSA_ENABLE_VM_FAULT_MESSAGE");
  g_flags.interrupt = not_zero("HSA_ENABLE_INTERRUPT");
  hsa_status_t status = agents_create();
  if (status != HSA_STATUS_SUCCESS) {
    agents_destroy();
    g_refs.fetch_sub(1);
    return status;
  }
  table_reset();  // the selected release's layout
  table_apply_env();
  vmfault_bind();
  tools_load();
  return HSA_STATUS_SUCCESS;
}

hsa_status_t shut_down() {
  std::lock_guard<std::recursive_mutex> lock(g_boot);
  if (g_refs.load() == 0) return HSA_STATUS_ERROR_NOT_INITIALIZED;
  if (g_refs.load() == 1) unload();  // still open while tools' OnUnload runs
  g_refs.fetch_sub(1);
  return HSA_STATUS_SUCCESS;
}

}  // namespace hsad
