// hsa_double/table.cpp — the HsaApiTable: one HsaApiTableContainer (from
// ROCm's hsa_api_trace.h, so versions are major ids 1 and minor_id =
// sizeof(table), as the container's constructor sets them). Tools get its
// root in OnLoad and may overwrite entries; every exported hsa_* function
// calls through it (exports_*.cpp), so a replaced entry intercepts every
// caller, as in ROCr.
//
// Each memory-order variant of a queue-index or signal operation points at the
// same implementation, which uses sequentially consistent atomics: stronger
// than any requested order, so correct for all of them.
// Entries the double does not implement point at a stub that prints its name
// once and returns HSA_STATUS_ERROR (or 0). No entry is ever null.
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <new>
#include <type_traits>

#include "impl.h"

namespace hsad {

namespace {

template <class F> struct Fn;
template <class R, class... A> struct Fn<R(A...)> { using Ret = R; };

template <class R> R stub_value() {
  if constexpr (std::is_void_v<R>) return;
  else if constexpr (std::is_same_v<R, hsa_status_t>) return HSA_STATUS_ERROR;
  else return R{};
}

void unimplemented(const char *name, std::atomic<bool> *said) {
  if (!said->exchange(true))
    fprintf(stderr, "hsa_double: %s is not implemented by the test double\n", name);
}

// A captureless generic lambda converts to the entry's exact function-pointer type.
#define STUB(tbl, name)                                                       \
  t.tbl.name##_fn = [](auto...) {                                             \
    static std::atomic<bool> said{false};                                     \
    unimplemented(#name, &said);                                              \
    return stub_value<Fn<decltype(::name)>::Ret>();                           \
  }
#define CORE(name, impl) t.core.hsa_##name##_fn = impl
#define AMD(name, impl) t.amd_ext.hsa_amd_##name##_fn = impl
#define ORDERS4(family, impl)                                                 \
  CORE(family##_relaxed, impl);                                               \
  CORE(family##_scacquire, impl);                                             \
  CORE(family##_screlease, impl);                                             \
  CORE(family##_scacq_screl, impl)

void fill_core(HsaApiTableContainer &t) {
  CORE(init, init);
  CORE(shut_down, shut_down);
  CORE(system_get_info, system_get_info);
  CORE(system_extension_supported, system_extension_supported);
  CORE(system_get_extension_table, system_get_extension_table);
  CORE(iterate_agents, iterate_agents);
  CORE(agent_get_info, agent_get_info);
  CORE(queue_create, queue_create);
  STUB(core, hsa_soft_queue_create);
  CORE(queue_destroy, queue_destroy);
  CORE(queue_inactivate, queue_inactivate);
  CORE(queue_load_read_index_scacquire, queue_load_read_index_scacquire);
  CORE(queue_load_read_index_relaxed, queue_load_read_index_scacquire);
  CORE(queue_load_write_index_scacquire, queue_load_write_index_scacquire);
  CORE(queue_load_write_index_relaxed, queue_load_write_index_scacquire);
  CORE(queue_store_write_index_relaxed, queue_store_write_index_screlease);
  CORE(queue_store_write_index_screlease, queue_store_write_index_screlease);
  ORDERS4(queue_cas_write_index, queue_cas_write_index_scacq_screl);
  ORDERS4(queue_add_write_index, queue_add_write_index_scacq_screl);
  CORE(queue_store_read_index_relaxed, queue_store_read_index_screlease);
  CORE(queue_store_read_index_screlease, queue_store_read_index_screlease);
  CORE(agent_iterate_regions, agent_iterate_regions);
  CORE(region_get_info, region_get_info);
  STUB(core, hsa_agent_get_exception_policies);
  CORE(agent_extension_supported, agent_extension_supported);
  CORE(memory_register, memory_register);
  CORE(memory_deregister, memory_deregister);
  CORE(memory_allocate, memory_allocate);
  CORE(memory_free, memory_free);
  CORE(memory_copy, memory_copy);
  CORE(memory_assign_agent, memory_assign_agent);
  CORE(signal_create, signal_create);
  CORE(signal_destroy, signal_destroy);
  CORE(signal_load_relaxed, signal_load_scacquire);
  CORE(signal_load_scacquire, signal_load_scacquire);
  CORE(signal_store_relaxed, signal_store_screlease);
  CORE(signal_store_screlease, signal_store_screlease);
  CORE(signal_wait_relaxed, signal_wait_scacquire);
  CORE(signal_wait_scacquire, signal_wait_scacquire);
  ORDERS4(signal_and, signal_and_scacq_screl);
  ORDERS4(signal_or, signal_or_scacq_screl);
  ORDERS4(signal_xor, signal_xor_scacq_screl);
  ORDERS4(signal_exchange, signal_exchange_scacq_screl);
  ORDERS4(signal_add, signal_add_scacq_screl);
  ORDERS4(signal_subtract, signal_subtract_scacq_screl);
  ORDERS4(signal_cas, signal_cas_scacq_screl);
  CORE(isa_from_name, isa_from_name);
  CORE(isa_get_info, isa_get_info);
  STUB(core, hsa_isa_compatible);
  STUB(core, hsa_code_object_serialize);
  STUB(core, hsa_code_object_deserialize);
  STUB(core, hsa_code_object_destroy);
  STUB(core, hsa_code_object_get_info);
  STUB(core, hsa_code_object_get_symbol);
  STUB(core, hsa_code_symbol_get_info);
  STUB(core, hsa_code_object_iterate_symbols);
  CORE(executable_create, executable_create);
  CORE(executable_destroy, executable_destroy);
  STUB(core, hsa_executable_load_code_object);
  CORE(executable_freeze, executable_freeze);
  CORE(executable_get_info, executable_get_info);
  STUB(core, hsa_executable_global_variable_define);
  STUB(core, hsa_executable_agent_global_variable_define);
  STUB(core, hsa_executable_readonly_variable_define);
  CORE(executable_validate, executable_validate);
  CORE(executable_get_symbol, executable_get_symbol);
  CORE(executable_symbol_get_info, executable_symbol_get_info);
  CORE(executable_iterate_symbols, executable_iterate_symbols);
  CORE(status_string, status_string);
  CORE(extension_get_name, extension_get_name);
  CORE(system_major_extension_supported, system_major_extension_supported);
  CORE(system_get_major_extension_table, system_get_major_extension_table);
  CORE(agent_major_extension_supported, agent_major_extension_supported);
  STUB(core, hsa_cache_get_info);
  STUB(core, hsa_agent_iterate_caches);
  CORE(signal_silent_store_relaxed, signal_silent_store_screlease);
  CORE(signal_silent_store_screlease, signal_silent_store_screlease);
  STUB(core, hsa_signal_group_create);
  STUB(core, hsa_signal_group_destroy);
  STUB(core, hsa_signal_group_wait_any_scacquire);
  STUB(core, hsa_signal_group_wait_any_relaxed);
  CORE(agent_iterate_isas, agent_iterate_isas);
  CORE(isa_get_info_alt, isa_get_info_alt);
  STUB(core, hsa_isa_get_exception_policies);
  STUB(core, hsa_isa_get_round_method);
  STUB(core, hsa_wavefront_get_info);
  STUB(core, hsa_isa_iterate_wavefronts);
  STUB(core, hsa_code_object_get_symbol_from_name);
  CORE(code_object_reader_create_from_file, code_object_reader_create_from_file);
  CORE(code_object_reader_create_from_memory, code_object_reader_create_from_memory);
  CORE(code_object_reader_destroy, code_object_reader_destroy);
  CORE(executable_create_alt, executable_create_alt);
  STUB(core, hsa_executable_load_program_code_object);
  CORE(executable_load_agent_code_object, executable_load_agent_code_object);
  CORE(executable_validate_alt, executable_validate_alt);
  CORE(executable_get_symbol_by_name, executable_get_symbol_by_name);
  CORE(executable_iterate_agent_symbols, executable_iterate_agent_symbols);
  CORE(executable_iterate_program_symbols, executable_iterate_program_symbols);
}

void fill_amd(HsaApiTableContainer &t) {
  STUB(amd_ext, hsa_amd_coherency_get_type);
  STUB(amd_ext, hsa_amd_coherency_set_type);
  AMD(profiling_set_profiler_enabled, amd_profiling_set_profiler_enabled);
  STUB(amd_ext, hsa_amd_profiling_async_copy_enable);
  STUB(amd_ext, hsa_amd_profiling_get_dispatch_time);
  STUB(amd_ext, hsa_amd_profiling_get_async_copy_time);
  STUB(amd_ext, hsa_amd_profiling_convert_tick_to_system_domain);
  AMD(signal_async_handler, amd_signal_async_handler);
  STUB(amd_ext, hsa_amd_async_function);
  AMD(signal_wait_any, amd_signal_wait_any);
  STUB(amd_ext, hsa_amd_queue_cu_set_mask);
  AMD(memory_pool_get_info, amd_memory_pool_get_info);
  AMD(agent_iterate_memory_pools, amd_agent_iterate_memory_pools);
  AMD(memory_pool_allocate, amd_memory_pool_allocate);
  AMD(memory_pool_free, amd_memory_pool_free);
  AMD(memory_async_copy, amd_memory_async_copy);
  AMD(agent_memory_pool_get_info, amd_agent_memory_pool_get_info);
  AMD(agents_allow_access, amd_agents_allow_access);
  STUB(amd_ext, hsa_amd_memory_pool_can_migrate);
  STUB(amd_ext, hsa_amd_memory_migrate);
  STUB(amd_ext, hsa_amd_memory_lock);
  STUB(amd_ext, hsa_amd_memory_unlock);
  AMD(memory_fill, amd_memory_fill);
  STUB(amd_ext, hsa_amd_interop_map_buffer);
  STUB(amd_ext, hsa_amd_interop_unmap_buffer);
  STUB(amd_ext, hsa_amd_image_create);
  AMD(pointer_info, amd_pointer_info);
  STUB(amd_ext, hsa_amd_pointer_info_set_userdata);
  STUB(amd_ext, hsa_amd_ipc_memory_create);
  STUB(amd_ext, hsa_amd_ipc_memory_attach);
  STUB(amd_ext, hsa_amd_ipc_memory_detach);
  AMD(signal_create, amd_signal_create);
  STUB(amd_ext, hsa_amd_ipc_signal_create);
  STUB(amd_ext, hsa_amd_ipc_signal_attach);
  AMD(register_system_event_handler, amd_register_system_event_handler);
  AMD(queue_intercept_create, amd_queue_intercept_create);
  AMD(queue_intercept_register, amd_queue_intercept_register);
  STUB(amd_ext, hsa_amd_queue_set_priority);
  STUB(amd_ext, hsa_amd_memory_async_copy_rect);
  AMD(runtime_queue_create_register, amd_runtime_queue_create_register);
  STUB(amd_ext, hsa_amd_memory_lock_to_pool);
  STUB(amd_ext, hsa_amd_register_deallocation_callback);
  STUB(amd_ext, hsa_amd_deregister_deallocation_callback);
  AMD(signal_value_pointer, amd_signal_value_pointer);
  STUB(amd_ext, hsa_amd_svm_attributes_set);
  STUB(amd_ext, hsa_amd_svm_attributes_get);
  STUB(amd_ext, hsa_amd_svm_prefetch_async);
  STUB(amd_ext, hsa_amd_queue_cu_get_mask);
}

// The finalizer and image extensions do not exist here (as on ROCr without
// the image library); their tables are all stubs.
void fill_ext(HsaApiTableContainer &t) {
  STUB(finalizer_ext, hsa_ext_program_create);
  STUB(finalizer_ext, hsa_ext_program_destroy);
  STUB(finalizer_ext, hsa_ext_program_add_module);
  STUB(finalizer_ext, hsa_ext_program_iterate_modules);
  STUB(finalizer_ext, hsa_ext_program_get_info);
  STUB(finalizer_ext, hsa_ext_program_finalize);
  STUB(image_ext, hsa_ext_image_get_capability);
  STUB(image_ext, hsa_ext_image_data_get_info);
  STUB(image_ext, hsa_ext_image_create);
  STUB(image_ext, hsa_ext_image_import);
  STUB(image_ext, hsa_ext_image_export);
  STUB(image_ext, hsa_ext_image_copy);
  STUB(image_ext, hsa_ext_image_clear);
  STUB(image_ext, hsa_ext_image_destroy);
  STUB(image_ext, hsa_ext_sampler_create);
  STUB(image_ext, hsa_ext_sampler_destroy);
  STUB(image_ext, hsa_ext_image_get_capability_with_layout);
  STUB(image_ext, hsa_ext_image_data_get_info_with_layout);
  STUB(image_ext, hsa_ext_image_create_with_layout);
}

// Aborts if a table has a null entry: a field added to the header but not here.
void check_complete(const void *table, size_t size, const char *what) {
  const char *p = static_cast<const char *>(table);
  for (size_t off = sizeof(ApiTableVersion); off + sizeof(void *) <= size; off += sizeof(void *)) {
    void *entry;
    memcpy(&entry, p + off, sizeof entry);
    if (!entry) {
      fprintf(stderr, "hsa_double: %s entry at offset %zu is not filled\n", what, off);
      abort();
    }
  }
}

void fill(HsaApiTableContainer &t) {
  new (&t) HsaApiTableContainer();  // versions and child pointers as ROCm's header sets them
  fill_core(t);
  fill_amd(t);
  fill_ext(t);
  check_complete(&t.core, sizeof t.core, "CoreApiTable");
  check_complete(&t.amd_ext, sizeof t.amd_ext, "AmdExtTable");
  check_complete(&t.finalizer_ext, sizeof t.finalizer_ext, "FinalizerExtTable");
  check_complete(&t.image_ext, sizeof t.image_ext, "ImageExtTable");
}

HsaApiTableContainer &container() {
  static HsaApiTableContainer *t = [] {
    static HsaApiTableContainer c;
    fill(c);
    return &c;
  }();
  return *t;
}

}  // namespace

HsaApiTable &api() { return container().root; }

void table_reset() { fill(container()); }

void table_apply_env() {
  if (const char *v = env("HSA_DOUBLE_TABLE_MAJOR")) container().root.version.major_id = uint32_t(strtoul(v, nullptr, 0));
  if (const char *v = env("HSA_DOUBLE_CORE_MINOR")) container().core.version.minor_id = uint32_t(strtoul(v, nullptr, 0));
}

}  // namespace hsad
