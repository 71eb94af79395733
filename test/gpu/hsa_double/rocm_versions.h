// hsa_double/rocm_versions.h — the ROCm release the double behaves as
// (HSA_DOUBLE_ROCM) and the traits that differ between releases where a tools
// library can tell. The table of releases, with the ROCr source of every
// trait, is rocm_versions.cpp; the code that acts on a trait says where in
// ROCr the behaviour is.
#pragma once

#include <cstdint>
#include <vector>

namespace hsad {

struct Release {
  const char *name;    // the HSA_DOUBLE_ROCM value
  const char *models;  // the ROCr source it follows
  // HsaApiTable: version and size in bytes (minor_id = sizeof, ROCr sets it so).
  uint32_t root_major, root_step, root_bytes;
  // CoreApiTable: the same 125 entries (1016 bytes) and step 0 in every release.
  uint32_t core_major;
  // AmdExtTable: version and size; its entries are amd_layout().
  uint32_t amd_major, amd_step, amd_bytes;
  // FinalizerExtTable and ImageExtTable majors, ImageExtTable step.
  uint32_t ext_major, image_step;
  bool priority_tools;        // HSA_AMD_TOOL_PRIORITY discovery; a failed dlopen is a failed tool
  bool rocprofiler_register;  // rocprofiler-register may take the table first
  bool exceptions_thread;     // VM-fault handlers have their own async thread
  bool intercept_v6;          // InterceptQueue::Submit as rewritten in 6.0
  uint32_t gws_queue_packets; // size of the shared cooperative queue
  bool async_ipc;             // hsa_amd_signal_async_handler accepts IPC signals
};

// The release of this runtime instance: chosen at the first hsa_init (5.2
// until then), kept until the last hsa_shut_down.
const Release &release();
// Reads HSA_DOUBLE_ROCM (unset or empty: 5.2). An unknown value selects
// nothing, prints which values are known, and returns false.
bool release_select();
// The names of the selected release's AmdExtTable entries in table order,
// without "hsa_amd_" and "_fn": [0] is the entry after the version struct.
const std::vector<const char *> &amd_layout();
// The index of an entry in the selected layout (0 is the version struct, as
// in ROCr's headers), or -1 if this release has no such entry.
int amd_index(const char *name);

// The AmdExtTable of Debian's ROCm 5.2 hsa_api_trace.h, in its order: the
// entries the double implements or stubs with their real types. ROCr's 5.2
// to 5.4 layout is exactly this (rocm-5.2.0 src/inc/hsa_api_trace.h:140-190).
#define HSAD_AMD_EXT_52(X)                                                                              \
  X(coherency_get_type) X(coherency_set_type) X(profiling_set_profiler_enabled)                         \
  X(profiling_async_copy_enable) X(profiling_get_dispatch_time) X(profiling_get_async_copy_time)         \
  X(profiling_convert_tick_to_system_domain) X(signal_async_handler) X(async_function) X(signal_wait_any) \
  X(queue_cu_set_mask) X(memory_pool_get_info) X(agent_iterate_memory_pools) X(memory_pool_allocate)     \
  X(memory_pool_free) X(memory_async_copy) X(agent_memory_pool_get_info) X(agents_allow_access)          \
  X(memory_pool_can_migrate) X(memory_migrate) X(memory_lock) X(memory_unlock) X(memory_fill)            \
  X(interop_map_buffer) X(interop_unmap_buffer) X(image_create) X(pointer_info)                          \
  X(pointer_info_set_userdata) X(ipc_memory_create) X(ipc_memory_attach) X(ipc_memory_detach)            \
  X(signal_create) X(ipc_signal_create) X(ipc_signal_attach) X(register_system_event_handler)            \
  X(queue_intercept_create) X(queue_intercept_register) X(queue_set_priority) X(memory_async_copy_rect)  \
  X(runtime_queue_create_register) X(memory_lock_to_pool) X(register_deallocation_callback)              \
  X(deregister_deallocation_callback) X(signal_value_pointer) X(svm_attributes_set)                      \
  X(svm_attributes_get) X(svm_prefetch_async) X(queue_cu_get_mask)

}  // namespace hsad
