// ldsan HSA tools library: the entry points ROCr calls (OnLoad, OnUnload,
// HSA_AMD_TOOL_PRIORITY) and the only code that reads the runtime's API table.
// hsa_api_trace.h is C++ (decltype), so this file is C++; it copies the
// runtime's functions into the C struct ldsan_hsa_api and installs ldsan's C
// wrappers, after checking that the table is one this build understands: the
// table's major ids must match the header's and each sub-table must be at
// least as long as the entries ldsan touches (ROCr grows tables at the end and
// records their size in minor_id).
#include <hsa/hsa_api_trace.h>

#include <cstddef>
#include <initializer_list>
#include <cstdio>
#include <type_traits>

extern "C" {
#include "hsa_tool.h"
}

static_assert(std::is_same<ldsan_hsa_packet_writer, hsa_amd_queue_intercept_packet_writer>::value,
              "intercept packet writer type differs from hsa_api_trace.h");
static_assert(std::is_same<ldsan_hsa_intercept_handler, hsa_amd_queue_intercept_handler>::value,
              "intercept handler type differs from hsa_api_trace.h");

namespace {

bool loaded;  // OnLoad ran and installed the wrappers (ROCr may call it again)

// Bytes a table must have for ldsan to use the entry at `offset`.
constexpr uint32_t needs(size_t offset) { return static_cast<uint32_t>(offset + sizeof(void *)); }

constexpr size_t max_of(std::initializer_list<size_t> v) {
  size_t m = 0;
  for (size_t x : v) m = x > m ? x : m;
  return m;
}
// Bytes of the core table up to the last entry ldsan uses (copy_runtime's list).
constexpr uint32_t kCoreNeeded = needs(max_of({
    offsetof(CoreApiTable, hsa_iterate_agents_fn), offsetof(CoreApiTable, hsa_agent_get_info_fn),
    offsetof(CoreApiTable, hsa_agent_iterate_isas_fn), offsetof(CoreApiTable, hsa_isa_get_info_alt_fn),
    offsetof(CoreApiTable, hsa_queue_create_fn), offsetof(CoreApiTable, hsa_memory_copy_fn),
    offsetof(CoreApiTable, hsa_system_get_major_extension_table_fn), offsetof(CoreApiTable, hsa_signal_create_fn),
    offsetof(CoreApiTable, hsa_signal_destroy_fn), offsetof(CoreApiTable, hsa_signal_store_relaxed_fn),
    offsetof(CoreApiTable, hsa_signal_subtract_screlease_fn), offsetof(CoreApiTable, hsa_executable_freeze_fn),
    offsetof(CoreApiTable, hsa_executable_destroy_fn),
    offsetof(CoreApiTable, hsa_executable_iterate_agent_symbols_fn),
    offsetof(CoreApiTable, hsa_executable_symbol_get_info_fn)}));
constexpr uint32_t kAmdNeeded = needs(max_of({offsetof(AmdExtTable, hsa_amd_queue_intercept_register_fn),
                                                offsetof(AmdExtTable, hsa_amd_memory_fill_fn)}));

// Says why the table cannot be used, or returns nullptr.
const char *check_table(const HsaApiTable *t, char *why, size_t len) {
  if (!t) return "no table";
  if (t->version.major_id != HSA_API_TABLE_MAJOR_VERSION) {
    snprintf(why, len, "its API table has major version %u, ldsan knows %u", t->version.major_id,
             HSA_API_TABLE_MAJOR_VERSION);
    return why;
  }
  if (t->version.minor_id < needs(offsetof(HsaApiTable, amd_ext_)) || !t->core_ || !t->amd_ext_) {
    snprintf(why, len, "its API table is %u bytes, without the core and AMD extension tables", t->version.minor_id);
    return why;
  }
  const CoreApiTable *core = t->core_;
  if (core->version.major_id != HSA_CORE_API_TABLE_MAJOR_VERSION || core->version.minor_id < kCoreNeeded) {
    snprintf(why, len, "its core API table has version %u and %u bytes, ldsan needs version %u and %u bytes",
             core->version.major_id, core->version.minor_id, HSA_CORE_API_TABLE_MAJOR_VERSION, kCoreNeeded);
    return why;
  }
  const AmdExtTable *amd = t->amd_ext_;
  if (amd->version.major_id != HSA_AMD_EXT_API_TABLE_MAJOR_VERSION || amd->version.minor_id < kAmdNeeded) {
    snprintf(why, len, "its AMD extension table has version %u and %u bytes, ldsan needs version %u and %u bytes",
             amd->version.major_id, amd->version.minor_id, HSA_AMD_EXT_API_TABLE_MAJOR_VERSION, kAmdNeeded);
    return why;
  }
  return nullptr;
}

void copy_runtime(const HsaApiTable *t, ldsan_hsa_api *api) {
  const CoreApiTable *c = t->core_;
  const AmdExtTable *a = t->amd_ext_;
  api->iterate_agents = c->hsa_iterate_agents_fn;
  api->agent_get_info = c->hsa_agent_get_info_fn;
  api->agent_iterate_isas = c->hsa_agent_iterate_isas_fn;
  api->isa_get_info_alt = c->hsa_isa_get_info_alt_fn;
  api->queue_create = c->hsa_queue_create_fn;
  api->memory_copy = c->hsa_memory_copy_fn;
  api->system_get_major_extension_table = c->hsa_system_get_major_extension_table_fn;
  api->signal_create = c->hsa_signal_create_fn;
  api->signal_destroy = c->hsa_signal_destroy_fn;
  api->signal_store_relaxed = c->hsa_signal_store_relaxed_fn;
  api->signal_subtract_screlease = c->hsa_signal_subtract_screlease_fn;
  api->executable_freeze = c->hsa_executable_freeze_fn;
  api->executable_destroy = c->hsa_executable_destroy_fn;
  api->executable_iterate_agent_symbols = c->hsa_executable_iterate_agent_symbols_fn;
  api->executable_symbol_get_info = c->hsa_executable_symbol_get_info_fn;
  api->amd_signal_async_handler = a->hsa_amd_signal_async_handler_fn;
  api->amd_agent_iterate_memory_pools = a->hsa_amd_agent_iterate_memory_pools_fn;
  api->amd_memory_pool_get_info = a->hsa_amd_memory_pool_get_info_fn;
  api->amd_memory_pool_allocate = a->hsa_amd_memory_pool_allocate_fn;
  api->amd_memory_pool_free = a->hsa_amd_memory_pool_free_fn;
  api->amd_memory_fill = a->hsa_amd_memory_fill_fn;
  api->amd_agents_allow_access = a->hsa_amd_agents_allow_access_fn;
  api->amd_queue_intercept_create = a->hsa_amd_queue_intercept_create_fn;
  api->amd_queue_intercept_register = a->hsa_amd_queue_intercept_register_fn;
}

}  // namespace

extern "C" {

// ROCr (newer than 5.2) loads every library in the process that exports this,
// in increasing order; older ROCr needs HSA_TOOLS_LIB (hsa_tool.c sets it).
__attribute__((visibility("default"))) extern const uint32_t HSA_AMD_TOOL_PRIORITY = 40;

__attribute__((visibility("default"))) bool OnLoad(HsaApiTable *table, uint64_t runtime_version,
                                                   uint64_t failed_tool_count, const char *const *failed_tool_names) {
  (void)runtime_version;
  (void)failed_tool_count;
  (void)failed_tool_names;
  if (loaded) return true;  // found twice (HSA_TOOLS_LIB and HSA_AMD_TOOL_PRIORITY): already in place
  char buf[256];
  if (const char *why = check_table(table, buf, sizeof buf)) {
    fprintf(stderr,
            "ldsan: error: cannot attach to the HSA runtime: %s; LDS reports will not be printed on the GPU. "
            "Use the ldsan build that matches this ROCm (the one built against its hsa_api_trace.h)\n",
            why);
    return false;
  }
  ldsan_hsa_api runtime{};
  copy_runtime(table, &runtime);
  if (ldsan_hsa_tool_start(&runtime) != 0) return false;
  table->core_->hsa_executable_freeze_fn = ldsan_hsa_executable_freeze;
  table->core_->hsa_executable_destroy_fn = ldsan_hsa_executable_destroy;
  table->core_->hsa_queue_create_fn = ldsan_hsa_queue_create;
  loaded = true;
  return true;
}

__attribute__((visibility("default"))) void OnUnload() {
  if (loaded) ldsan_hsa_tool_stop();
}

}  // extern "C"
