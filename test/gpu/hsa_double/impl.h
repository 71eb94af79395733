// hsa_double/impl.h — prototypes of the implementations the API table points
// at: hsad::<name> has exactly the type of ::hsa_<name> (declared with
// decltype, so a signature can only come from ROCm's headers). Entries the
// double does not implement get a stub (stub.h) instead.
#pragma once

#include "internal.h"

#define HSAD_IMPL(name) decltype(::hsa_##name) name;

namespace hsad {

// runtime.cpp, system.cpp, status.cpp, vm_fault.cpp, cooperative.cpp
HSAD_IMPL(init)
HSAD_IMPL(shut_down)
HSAD_IMPL(system_get_info)
HSAD_IMPL(system_extension_supported)
HSAD_IMPL(system_major_extension_supported)
HSAD_IMPL(system_get_extension_table)
HSAD_IMPL(system_get_major_extension_table)
HSAD_IMPL(extension_get_name)
HSAD_IMPL(status_string)
HSAD_IMPL(amd_register_system_event_handler)
HSAD_IMPL(amd_runtime_queue_create_register)

// agents.cpp
HSAD_IMPL(iterate_agents)
HSAD_IMPL(agent_get_info)
HSAD_IMPL(agent_extension_supported)
HSAD_IMPL(agent_major_extension_supported)
HSAD_IMPL(agent_iterate_isas)
HSAD_IMPL(isa_get_info_alt)
HSAD_IMPL(isa_get_info)
HSAD_IMPL(isa_from_name)

// memory.cpp, memory_info.cpp
HSAD_IMPL(agent_iterate_regions)
HSAD_IMPL(region_get_info)
HSAD_IMPL(memory_allocate)
HSAD_IMPL(memory_free)
HSAD_IMPL(memory_copy)
HSAD_IMPL(memory_register)
HSAD_IMPL(memory_deregister)
HSAD_IMPL(memory_assign_agent)
HSAD_IMPL(amd_agent_iterate_memory_pools)
HSAD_IMPL(amd_memory_pool_get_info)
HSAD_IMPL(amd_agent_memory_pool_get_info)
HSAD_IMPL(amd_memory_pool_allocate)
HSAD_IMPL(amd_memory_pool_free)
HSAD_IMPL(amd_agents_allow_access)
HSAD_IMPL(amd_pointer_info)
HSAD_IMPL(amd_memory_async_copy)
HSAD_IMPL(amd_memory_fill)

// signal.cpp, signal_ops.cpp, async.cpp
HSAD_IMPL(signal_create)
HSAD_IMPL(signal_destroy)
HSAD_IMPL(amd_signal_create)
HSAD_IMPL(amd_signal_value_pointer)
HSAD_IMPL(signal_load_scacquire)
HSAD_IMPL(signal_store_screlease)
HSAD_IMPL(signal_silent_store_screlease)
HSAD_IMPL(signal_wait_scacquire)
HSAD_IMPL(amd_signal_wait_any)
HSAD_IMPL(signal_exchange_scacq_screl)
HSAD_IMPL(signal_cas_scacq_screl)
HSAD_IMPL(signal_add_scacq_screl)
HSAD_IMPL(signal_subtract_scacq_screl)
HSAD_IMPL(signal_and_scacq_screl)
HSAD_IMPL(signal_or_scacq_screl)
HSAD_IMPL(signal_xor_scacq_screl)
HSAD_IMPL(amd_signal_async_handler)

// queue.cpp, queue_index.cpp, intercept.cpp, profiling.cpp
HSAD_IMPL(queue_create)
HSAD_IMPL(queue_destroy)
HSAD_IMPL(queue_inactivate)
HSAD_IMPL(queue_load_read_index_scacquire)
HSAD_IMPL(queue_load_write_index_scacquire)
HSAD_IMPL(queue_store_write_index_screlease)
HSAD_IMPL(queue_store_read_index_screlease)
HSAD_IMPL(queue_cas_write_index_scacq_screl)
HSAD_IMPL(queue_add_write_index_scacq_screl)
HSAD_IMPL(amd_queue_intercept_create)
HSAD_IMPL(amd_queue_intercept_register)
HSAD_IMPL(amd_profiling_set_profiler_enabled)
HSAD_IMPL(amd_profiling_get_dispatch_time)

// loader.cpp, symbols.cpp
HSAD_IMPL(code_object_reader_create_from_file)
HSAD_IMPL(code_object_reader_create_from_memory)
HSAD_IMPL(code_object_reader_destroy)
HSAD_IMPL(executable_create)
HSAD_IMPL(executable_create_alt)
HSAD_IMPL(executable_destroy)
HSAD_IMPL(executable_load_agent_code_object)
HSAD_IMPL(executable_freeze)
HSAD_IMPL(executable_get_info)
HSAD_IMPL(executable_validate)
HSAD_IMPL(executable_validate_alt)
HSAD_IMPL(executable_get_symbol)
HSAD_IMPL(executable_get_symbol_by_name)
HSAD_IMPL(executable_symbol_get_info)
HSAD_IMPL(executable_iterate_symbols)
HSAD_IMPL(executable_iterate_agent_symbols)
HSAD_IMPL(executable_iterate_program_symbols)

// loader_ext.cpp (hsa_ven_amd_loader.h, exported directly like ROCr)
HSAD_IMPL(ven_amd_loader_query_host_address)
HSAD_IMPL(ven_amd_loader_query_segment_descriptors)
HSAD_IMPL(ven_amd_loader_query_executable)
HSAD_IMPL(ven_amd_loader_executable_iterate_loaded_code_objects)
HSAD_IMPL(ven_amd_loader_loaded_code_object_get_info)
HSAD_IMPL(ven_amd_loader_code_object_reader_create_from_file_with_offset_size)
HSAD_IMPL(ven_amd_loader_iterate_executables)

}  // namespace hsad
