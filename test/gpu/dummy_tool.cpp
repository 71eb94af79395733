// test/gpu/dummy_tool.cpp — a minimal HSA tools library for the double's
// self-test (C++ only because hsa_api_trace.h is). OnLoad checks the table
// versions the way a careful tool does, refuses an unknown table (or when
// DUMMY_TOOL_REFUSE is set), and replaces hsa_queue_create with one that
// returns an intercept queue carrying two handlers; everything it sees goes
// into the exported `dummy_tool` (dummy_tool.h). It links nothing: every HSA call goes
// through the table it was given.
#include <cstddef>
#include <cstdlib>
#include <cstring>

#include "dummy_tool.h"
#include "hsa_api_trace.h"

extern "C" {
__attribute__((visibility("default"))) dummy_tool_state dummy_tool;
__attribute__((visibility("default"))) extern const uint32_t HSA_AMD_TOOL_PRIORITY = 25;
}

namespace {

decltype(hsa_amd_queue_intercept_create) *intercept_create;
decltype(hsa_amd_queue_intercept_register) *intercept_register;

void record_call(int id) {
  if (dummy_tool.ncalls < 16) dummy_tool.calls[dummy_tool.ncalls++] = id;
}

// Registered first: closest to the hardware; forwards what it gets.
void handler1(const void *pkts, uint64_t count, uint64_t, void *, hsa_amd_queue_intercept_packet_writer writer) {
  record_call(1);
  writer(pkts, count);
}

// Registered second: sees the user's packet first; may swap the completion signal.
void handler2(const void *pkts, uint64_t count, uint64_t user_index, void *,
              hsa_amd_queue_intercept_packet_writer writer) {
  record_call(2);
  dummy_tool.packets_seen += int(count);
  dummy_tool.last_user_index = user_index;
  hsa_kernel_dispatch_packet_t copy[4];
  if (count > 4) return writer(pkts, count);
  memcpy(copy, pkts, count * sizeof copy[0]);
  for (uint64_t i = 0; i < count; i++) {
    unsigned type = (copy[i].header >> HSA_PACKET_HEADER_TYPE) & 0xff;
    if (type == HSA_PACKET_TYPE_KERNEL_DISPATCH && dummy_tool.replacement_signal)
      copy[i].completion_signal.handle = dummy_tool.replacement_signal;
  }
  writer(copy, count);
}

hsa_status_t tool_queue_create(hsa_agent_t agent, uint32_t size, hsa_queue_type32_t type,
                               void (*cb)(hsa_status_t, hsa_queue_t *, void *), void *data, uint32_t priv,
                               uint32_t group, hsa_queue_t **queue) {
  hsa_status_t s = intercept_create(agent, size, type, cb, data, priv, group, queue);
  if (s != HSA_STATUS_SUCCESS) return s;
  intercept_register(*queue, handler1, nullptr);
  intercept_register(*queue, handler2, nullptr);
  dummy_tool.queues_created++;
  dummy_tool.last_queue = *queue;
  return HSA_STATUS_SUCCESS;
}

// True if `table` (of the given version) is long enough to hold the field at `offset`.
bool has(const ApiTableVersion &v, uint32_t major, size_t offset) {
  return v.major_id == major && v.minor_id >= offset + sizeof(void *);
}

}  // namespace

extern "C" __attribute__((visibility("default"))) bool OnLoad(HsaApiTable *table, uint64_t runtime_version,
                                                              uint64_t failed_count, const char *const *failed_names) {
  dummy_tool_state &st = dummy_tool;
  st.onload_calls++;
  st.runtime_version = runtime_version;
  st.failed_count = failed_count;
  st.first_failed[0] = 0;
  if (failed_count) strncpy(st.first_failed, failed_names[0], sizeof st.first_failed - 1);
  st.root_major = table->version.major_id;
  st.root_minor = table->version.minor_id;
  st.core_major = table->core_->version.major_id;
  st.core_minor = table->core_->version.minor_id;
  st.amd_major = table->amd_ext_->version.major_id;
  st.amd_minor = table->amd_ext_->version.minor_id;
  st.expect_root_minor = sizeof(HsaApiTable);
  st.expect_core_minor = sizeof(CoreApiTable);
  st.expect_amd_minor = sizeof(AmdExtTable);
  bool usable = table->version.major_id == HSA_API_TABLE_MAJOR_VERSION &&
                has(table->core_->version, HSA_CORE_API_TABLE_MAJOR_VERSION, offsetof(CoreApiTable, hsa_queue_create_fn)) &&
                has(table->amd_ext_->version, HSA_AMD_EXT_API_TABLE_MAJOR_VERSION,
                    offsetof(AmdExtTable, hsa_amd_queue_intercept_register_fn));
  if (!usable || getenv("DUMMY_TOOL_REFUSE")) {
    st.refused++;
    return false;
  }
  intercept_create = table->amd_ext_->hsa_amd_queue_intercept_create_fn;
  intercept_register = table->amd_ext_->hsa_amd_queue_intercept_register_fn;
  table->core_->hsa_queue_create_fn = tool_queue_create;
  return true;
}

extern "C" __attribute__((visibility("default"))) void OnUnload() { dummy_tool.onunload_calls++; }
