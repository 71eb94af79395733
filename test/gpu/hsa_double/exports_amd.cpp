// hsa_double/exports_amd.cpp — the exported hsa_amd_* symbols, the
// hsa_ven_amd_loader_* symbols, and the C entry points to the tools-only
// intercept-queue functions for tests.
//
// Each hsa_amd_* export calls the AMD table's entry of its name, at the index
// that name has in the selected release's layout (ROCr core/common/
// hsa_table_interface.cpp, every release: amdExtTable->hsa_amd_X_fn, the table
// tools patch in place). hsa_ven_amd_loader_* are exported directly: they are
// not in the API table, in ROCr either. hsa_amd_queue_intercept_create/
// _register are not exported (absent from ROCr's hsacore.so.def in every
// release): tools reach them only through the table.
#include <cstring>

#include "impl.h"

namespace {
// The table entry for hsa_amd_<name>, with the exported function's own type.
template <class F>
F *entry(const char *name) {
  void *p = ::hsad::amd_entry(name);
  F *f;
  memcpy(&f, &p, sizeof f);
  return f;
}
}  // namespace

#define AMD_CALL(name) entry<decltype(::hsa_amd_##name)>(#name)

extern "C" {

HSAD_EXPORT hsa_status_t hsa_amd_agent_iterate_memory_pools(hsa_agent_t agent,
                                                            hsa_status_t (*cb)(hsa_amd_memory_pool_t, void *),
                                                            void *data) {
  return AMD_CALL(agent_iterate_memory_pools)(agent, cb, data);
}
HSAD_EXPORT hsa_status_t hsa_amd_memory_pool_get_info(hsa_amd_memory_pool_t p, hsa_amd_memory_pool_info_t a, void *v) {
  return AMD_CALL(memory_pool_get_info)(p, a, v);
}
HSAD_EXPORT hsa_status_t hsa_amd_agent_memory_pool_get_info(hsa_agent_t agent, hsa_amd_memory_pool_t p,
                                                            hsa_amd_agent_memory_pool_info_t a, void *v) {
  return AMD_CALL(agent_memory_pool_get_info)(agent, p, a, v);
}
HSAD_EXPORT hsa_status_t hsa_amd_memory_pool_allocate(hsa_amd_memory_pool_t p, size_t size, uint32_t flags, void **ptr) {
  return AMD_CALL(memory_pool_allocate)(p, size, flags, ptr);
}
HSAD_EXPORT hsa_status_t hsa_amd_memory_pool_free(void *ptr) { return AMD_CALL(memory_pool_free)(ptr); }
HSAD_EXPORT hsa_status_t hsa_amd_agents_allow_access(uint32_t n, const hsa_agent_t *agents, const uint32_t *flags,
                                                     const void *ptr) {
  return AMD_CALL(agents_allow_access)(n, agents, flags, ptr);
}
HSAD_EXPORT hsa_status_t hsa_amd_pointer_info(const void *ptr, hsa_amd_pointer_info_t *info, void *(*alloc)(size_t),
                                              uint32_t *n, hsa_agent_t **accessible) {
  return AMD_CALL(pointer_info)(ptr, info, alloc, n, accessible);
}
HSAD_EXPORT hsa_status_t hsa_amd_memory_async_copy(void *dst, hsa_agent_t dst_agent, const void *src,
                                                   hsa_agent_t src_agent, size_t size, uint32_t n,
                                                   const hsa_signal_t *deps, hsa_signal_t done) {
  return AMD_CALL(memory_async_copy)(dst, dst_agent, src, src_agent, size, n, deps, done);
}
HSAD_EXPORT hsa_status_t hsa_amd_memory_fill(void *ptr, uint32_t value, size_t count) {
  return AMD_CALL(memory_fill)(ptr, value, count);
}
HSAD_EXPORT hsa_status_t hsa_amd_signal_create(hsa_signal_value_t v, uint32_t n, const hsa_agent_t *consumers,
                                               uint64_t attributes, hsa_signal_t *signal) {
  return AMD_CALL(signal_create)(v, n, consumers, attributes, signal);
}
HSAD_EXPORT hsa_status_t hsa_amd_signal_value_pointer(hsa_signal_t s, volatile hsa_signal_value_t **p) {
  return AMD_CALL(signal_value_pointer)(s, p);
}
HSAD_EXPORT hsa_status_t hsa_amd_signal_async_handler(hsa_signal_t s, hsa_signal_condition_t c, hsa_signal_value_t v,
                                                      hsa_amd_signal_handler handler, void *arg) {
  return AMD_CALL(signal_async_handler)(s, c, v, handler, arg);
}
HSAD_EXPORT uint32_t hsa_amd_signal_wait_any(uint32_t n, hsa_signal_t *s, hsa_signal_condition_t *c,
                                             hsa_signal_value_t *v, uint64_t timeout, hsa_wait_state_t w,
                                             hsa_signal_value_t *satisfying) {
  return AMD_CALL(signal_wait_any)(n, s, c, v, timeout, w, satisfying);
}
HSAD_EXPORT hsa_status_t hsa_amd_profiling_set_profiler_enabled(hsa_queue_t *q, int enable) {
  return AMD_CALL(profiling_set_profiler_enabled)(q, enable);
}
HSAD_EXPORT hsa_status_t hsa_amd_profiling_get_dispatch_time(hsa_agent_t agent, hsa_signal_t s,
                                                              hsa_amd_profiling_dispatch_time_t *time) {
  return AMD_CALL(profiling_get_dispatch_time)(agent, s, time);
}
HSAD_EXPORT hsa_status_t hsa_amd_register_system_event_handler(hsa_amd_system_event_callback_t cb, void *data) {
  return AMD_CALL(register_system_event_handler)(cb, data);
}

// ---- AMD loader extension -----------------------------------------------------------
HSAD_EXPORT hsa_status_t hsa_ven_amd_loader_query_host_address(const void *device, const void **host) {
  return hsad::ven_amd_loader_query_host_address(device, host);
}
HSAD_EXPORT hsa_status_t hsa_ven_amd_loader_query_segment_descriptors(hsa_ven_amd_loader_segment_descriptor_t *d,
                                                                      size_t *n) {
  return hsad::ven_amd_loader_query_segment_descriptors(d, n);
}
HSAD_EXPORT hsa_status_t hsa_ven_amd_loader_query_executable(const void *device, hsa_executable_t *e) {
  return hsad::ven_amd_loader_query_executable(device, e);
}
HSAD_EXPORT hsa_status_t hsa_ven_amd_loader_executable_iterate_loaded_code_objects(
    hsa_executable_t e, hsa_status_t (*cb)(hsa_executable_t, hsa_loaded_code_object_t, void *), void *data) {
  return hsad::ven_amd_loader_executable_iterate_loaded_code_objects(e, cb, data);
}
HSAD_EXPORT hsa_status_t hsa_ven_amd_loader_loaded_code_object_get_info(hsa_loaded_code_object_t o,
                                                                        hsa_ven_amd_loader_loaded_code_object_info_t a,
                                                                        void *v) {
  return hsad::ven_amd_loader_loaded_code_object_get_info(o, a, v);
}
HSAD_EXPORT hsa_status_t hsa_ven_amd_loader_code_object_reader_create_from_file_with_offset_size(
    hsa_file_t file, size_t offset, size_t size, hsa_code_object_reader_t *r) {
  return hsad::ven_amd_loader_code_object_reader_create_from_file_with_offset_size(file, offset, size, r);
}
HSAD_EXPORT hsa_status_t hsa_ven_amd_loader_iterate_executables(hsa_status_t (*cb)(hsa_executable_t, void *), void *data) {
  return hsad::ven_amd_loader_iterate_executables(cb, data);
}

// ---- test entry points (hsa_double.h) -----------------------------------------------
HSAD_EXPORT hsa_status_t hsa_double_queue_intercept_create(hsa_agent_t agent, uint32_t size, hsa_queue_type32_t type,
                                                           void (*cb)(hsa_status_t, hsa_queue_t *, void *), void *data,
                                                           uint32_t private_segment_size, uint32_t group_segment_size,
                                                           hsa_queue_t **queue) {
  return AMD_CALL(queue_intercept_create)(agent, size, type, cb, data, private_segment_size, group_segment_size,
                                                queue);
}
HSAD_EXPORT hsa_status_t hsa_double_queue_intercept_register(hsa_queue_t *queue, hsa_double_intercept_handler handler,
                                                             void *data) {
  return AMD_CALL(queue_intercept_register)(queue, handler, data);
}
HSAD_EXPORT hsa_status_t hsa_double_runtime_queue_create_register(hsa_amd_runtime_queue_notifier callback, void *data) {
  return AMD_CALL(runtime_queue_create_register)(callback, data);
}

}  // extern "C"
