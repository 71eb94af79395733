// hsa_double/runtime.cpp — hsa_init / hsa_shut_down: reference counted like
// ROCr's Runtime::Acquire/Release. The first hsa_init builds the agents and
// loads tools; the last hsa_shut_down tears everything down in ROCr's order
// (OnUnload and table reset first, tools dlclose'd last) and joins every
// thread the double started, so a test leaves nothing behind for LSan.
//
// Threading: g_boot serializes init and shutdown. It is recursive because a
// tool's OnLoad may call hsa_init (ROCr holds its bootstrap lock there too);
// the count is raised before loading, so OnLoad already sees an open runtime.
#include <cstdlib>
#include <ctime>

#include "impl.h"

namespace hsad {
namespace {
std::recursive_mutex g_boot;
std::atomic<int> g_refs{0};

// The reverse of init: the order follows ROCr's Runtime::Unload.
void unload() {
  tools_unload();
  loader_destroy_all();
  queues_destroy_all();
  async_stop();
  copies_release();
  signal_release_all();
  mem_release_all();
  agents_destroy();
  tools_close();
}
}  // namespace

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
  hsa_status_t status = agents_create();
  if (status != HSA_STATUS_SUCCESS) {
    agents_destroy();
    g_refs.fetch_sub(1);
    return status;
  }
  table_apply_env();
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
