// hsa_double/table_amd.cpp — the AMD extension table (AmdExtTable) in the
// layout of the selected ROCm release.
//
// The double's entries are first put into Debian's 5.2 struct (amd_fill_impl:
// implementation or typed stub per field). amd_fill_layout then lays them out
// by name in the release's order (rocm_versions.cpp amd_layout), so an entry
// sits at the index ROCr's table of that release has it: entries were
// inserted mid-table in 5.5 and 5.6, so the same name moves between releases.
// Entries Debian's header does not declare are named stubs (stub.h).
//
// ROCr's exported hsa_amd_* functions call through the table tools receive
// (core/common/hsa_table_interface.cpp, every release: amdExtTable->X_fn), so
// a tool that patched an entry in place is called; exports_amd.cpp does the
// same through amd_entry, at the release's index for the name.
#include <array>
#include <cstddef>
#include <cstdlib>
#include <cstring>
#include <map>
#include <string>
#include <utility>

#include "impl.h"
#include "stub.h"

namespace hsad {
namespace {

#define AMD(name, impl) t.hsa_amd_##name##_fn = impl
#define STUB_AMD(name) HSAD_STUB(t.hsa_amd_##name##_fn, hsa_amd_##name)

// Offsets of Debian's header fields, by name (the X-macro lists them in order).
struct Field {
  const char *name;
  size_t offset;
};
#define HSAD_FIELD(name) {#name, offsetof(AmdExtTable, hsa_amd_##name##_fn)},
const Field kFields[] = {HSAD_AMD_EXT_52(HSAD_FIELD)};
#undef HSAD_FIELD
static_assert(sizeof kFields / sizeof kFields[0] * sizeof(void *) + sizeof(ApiTableVersion) == sizeof(AmdExtTable),
              "HSAD_AMD_EXT_52 must list every field of Debian's AmdExtTable");

// Named stubs: a fixed pool of functions, each bound to one name on first use.
constexpr int kStubSlots = 48;
const char *g_stub_names[kStubSlots];
std::atomic<bool> g_stub_said[kStubSlots];

template <int I> hsa_status_t slot_stub() {
  stub_say(g_stub_names[I], &g_stub_said[I]);
  return HSA_STATUS_ERROR;
}
template <int... I> constexpr std::array<hsa_status_t (*)(), sizeof...(I)> slots(std::integer_sequence<int, I...>) {
  return {&slot_stub<I>...};
}
const auto kSlots = slots(std::make_integer_sequence<int, kStubSlots>());

}  // namespace

void *named_stub(const char *name) {
  static std::mutex lock;
  static std::map<std::string, int> bound;
  std::lock_guard<std::mutex> guard(lock);
  auto it = bound.find(name);
  int slot = it != bound.end() ? it->second : int(bound.size());
  if (slot >= kStubSlots) abort();  // more unknown entries than slots: raise kStubSlots
  if (it == bound.end()) {
    bound.emplace(name, slot);
    g_stub_names[slot] = bound.find(name)->first.c_str();  // map nodes are stable
  }
  void *p;
  auto f = kSlots[size_t(slot)];
  memcpy(&p, &f, sizeof p);
  return p;
}

void amd_fill_impl(AmdExtTable &t) {
  STUB_AMD(coherency_get_type);
  STUB_AMD(coherency_set_type);
  AMD(profiling_set_profiler_enabled, amd_profiling_set_profiler_enabled);
  STUB_AMD(profiling_async_copy_enable);
  AMD(profiling_get_dispatch_time, amd_profiling_get_dispatch_time);
  STUB_AMD(profiling_get_async_copy_time);
  STUB_AMD(profiling_convert_tick_to_system_domain);
  AMD(signal_async_handler, amd_signal_async_handler);
  STUB_AMD(async_function);
  AMD(signal_wait_any, amd_signal_wait_any);
  STUB_AMD(queue_cu_set_mask);
  AMD(memory_pool_get_info, amd_memory_pool_get_info);
  AMD(agent_iterate_memory_pools, amd_agent_iterate_memory_pools);
  AMD(memory_pool_allocate, amd_memory_pool_allocate);
  AMD(memory_pool_free, amd_memory_pool_free);
  AMD(memory_async_copy, amd_memory_async_copy);
  AMD(agent_memory_pool_get_info, amd_agent_memory_pool_get_info);
  AMD(agents_allow_access, amd_agents_allow_access);
  STUB_AMD(memory_pool_can_migrate);
  STUB_AMD(memory_migrate);
  STUB_AMD(memory_lock);
  STUB_AMD(memory_unlock);
  AMD(memory_fill, amd_memory_fill);
  STUB_AMD(interop_map_buffer);
  STUB_AMD(interop_unmap_buffer);
  STUB_AMD(image_create);
  AMD(pointer_info, amd_pointer_info);
  STUB_AMD(pointer_info_set_userdata);
  STUB_AMD(ipc_memory_create);
  STUB_AMD(ipc_memory_attach);
  STUB_AMD(ipc_memory_detach);
  AMD(signal_create, amd_signal_create);
  STUB_AMD(ipc_signal_create);
  STUB_AMD(ipc_signal_attach);
  AMD(register_system_event_handler, amd_register_system_event_handler);
  AMD(queue_intercept_create, amd_queue_intercept_create);
  AMD(queue_intercept_register, amd_queue_intercept_register);
  STUB_AMD(queue_set_priority);
  STUB_AMD(memory_async_copy_rect);
  AMD(runtime_queue_create_register, amd_runtime_queue_create_register);
  STUB_AMD(memory_lock_to_pool);
  STUB_AMD(register_deallocation_callback);
  STUB_AMD(deregister_deallocation_callback);
  AMD(signal_value_pointer, amd_signal_value_pointer);
  STUB_AMD(svm_attributes_set);
  STUB_AMD(svm_attributes_get);
  STUB_AMD(svm_prefetch_async);
  STUB_AMD(queue_cu_get_mask);
}

void amd_fill_layout(void **entries, size_t capacity, const AmdExtTable &impl) {
  const std::vector<const char *> &layout = amd_layout();
  if (layout.size() > capacity) abort();
  for (size_t i = 0; i < capacity; i++) {  // each written once (table.cpp fill)
    if (i >= layout.size()) {
      entries[i] = nullptr;  // past the release's table: not there
      continue;
    }
    const Field *f = nullptr;
    for (const Field &k : kFields)
      if (!strcmp(k.name, layout[i])) f = &k;
    void *p;
    if (f) memcpy(&p, reinterpret_cast<const char *>(&impl) + f->offset, sizeof p);
    else p = named_stub(("hsa_amd_" + std::string(layout[i])).c_str());
    entries[i] = p;
  }
}

}  // namespace hsad
