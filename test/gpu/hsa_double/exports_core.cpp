// hsa_double/exports_core.cpp — the exported core hsa_* symbols other than
// signals and queues: runtime, system, agents, ISAs, regions, memory, code
// objects and executables. Each calls through the API table's core_ entries.
#include "impl.h"

#define CORE (&::hsad::core_table())

extern "C" {

// ---- runtime and system -------------------------------------------------------------
HSAD_EXPORT hsa_status_t hsa_init() { return CORE->hsa_init_fn(); }
HSAD_EXPORT hsa_status_t hsa_shut_down() { return CORE->hsa_shut_down_fn(); }
HSAD_EXPORT hsa_status_t hsa_status_string(hsa_status_t status, const char **s) { return CORE->hsa_status_string_fn(status, s); }
HSAD_EXPORT hsa_status_t hsa_system_get_info(hsa_system_info_t a, void *v) { return CORE->hsa_system_get_info_fn(a, v); }
HSAD_EXPORT hsa_status_t hsa_system_extension_supported(uint16_t e, uint16_t major, uint16_t minor, bool *r) {
  return CORE->hsa_system_extension_supported_fn(e, major, minor, r);
}
HSAD_EXPORT hsa_status_t hsa_system_major_extension_supported(uint16_t e, uint16_t major, uint16_t *minor, bool *r) {
  return CORE->hsa_system_major_extension_supported_fn(e, major, minor, r);
}
HSAD_EXPORT hsa_status_t hsa_system_get_extension_table(uint16_t e, uint16_t major, uint16_t minor, void *t) {
  return CORE->hsa_system_get_extension_table_fn(e, major, minor, t);
}
HSAD_EXPORT hsa_status_t hsa_system_get_major_extension_table(uint16_t e, uint16_t major, size_t length, void *t) {
  return CORE->hsa_system_get_major_extension_table_fn(e, major, length, t);
}
HSAD_EXPORT hsa_status_t hsa_extension_get_name(uint16_t e, const char **name) { return CORE->hsa_extension_get_name_fn(e, name); }

// ---- agents and ISAs ----------------------------------------------------------------
HSAD_EXPORT hsa_status_t hsa_iterate_agents(hsa_status_t (*cb)(hsa_agent_t, void *), void *data) {
  return CORE->hsa_iterate_agents_fn(cb, data);
}
HSAD_EXPORT hsa_status_t hsa_agent_get_info(hsa_agent_t agent, hsa_agent_info_t a, void *v) {
  return CORE->hsa_agent_get_info_fn(agent, a, v);
}
HSAD_EXPORT hsa_status_t hsa_agent_extension_supported(uint16_t e, hsa_agent_t agent, uint16_t major, uint16_t minor,
                                                       bool *r) {
  return CORE->hsa_agent_extension_supported_fn(e, agent, major, minor, r);
}
HSAD_EXPORT hsa_status_t hsa_agent_major_extension_supported(uint16_t e, hsa_agent_t agent, uint16_t major,
                                                             uint16_t *minor, bool *r) {
  return CORE->hsa_agent_major_extension_supported_fn(e, agent, major, minor, r);
}
HSAD_EXPORT hsa_status_t hsa_agent_iterate_isas(hsa_agent_t agent, hsa_status_t (*cb)(hsa_isa_t, void *), void *data) {
  return CORE->hsa_agent_iterate_isas_fn(agent, cb, data);
}
HSAD_EXPORT hsa_status_t hsa_isa_get_info_alt(hsa_isa_t isa, hsa_isa_info_t a, void *v) {
  return CORE->hsa_isa_get_info_alt_fn(isa, a, v);
}
HSAD_EXPORT hsa_status_t hsa_isa_get_info(hsa_isa_t isa, hsa_isa_info_t a, uint32_t index, void *v) {
  return CORE->hsa_isa_get_info_fn(isa, a, index, v);
}
HSAD_EXPORT hsa_status_t hsa_isa_from_name(const char *name, hsa_isa_t *isa) { return CORE->hsa_isa_from_name_fn(name, isa); }

// ---- regions and memory -------------------------------------------------------------
HSAD_EXPORT hsa_status_t hsa_agent_iterate_regions(hsa_agent_t agent, hsa_status_t (*cb)(hsa_region_t, void *),
                                                   void *data) {
  return CORE->hsa_agent_iterate_regions_fn(agent, cb, data);
}
HSAD_EXPORT hsa_status_t hsa_region_get_info(hsa_region_t r, hsa_region_info_t a, void *v) {
  return CORE->hsa_region_get_info_fn(r, a, v);
}
HSAD_EXPORT hsa_status_t hsa_memory_allocate(hsa_region_t r, size_t size, void **ptr) {
  return CORE->hsa_memory_allocate_fn(r, size, ptr);
}
HSAD_EXPORT hsa_status_t hsa_memory_free(void *ptr) { return CORE->hsa_memory_free_fn(ptr); }
HSAD_EXPORT hsa_status_t hsa_memory_copy(void *dst, const void *src, size_t size) { return CORE->hsa_memory_copy_fn(dst, src, size); }
HSAD_EXPORT hsa_status_t hsa_memory_register(void *ptr, size_t size) { return CORE->hsa_memory_register_fn(ptr, size); }
HSAD_EXPORT hsa_status_t hsa_memory_deregister(void *ptr, size_t size) { return CORE->hsa_memory_deregister_fn(ptr, size); }
HSAD_EXPORT hsa_status_t hsa_memory_assign_agent(void *ptr, hsa_agent_t agent, hsa_access_permission_t access) {
  return CORE->hsa_memory_assign_agent_fn(ptr, agent, access);
}

// ---- code objects and executables ---------------------------------------------------
HSAD_EXPORT hsa_status_t hsa_code_object_reader_create_from_memory(const void *co, size_t size,
                                                                   hsa_code_object_reader_t *r) {
  return CORE->hsa_code_object_reader_create_from_memory_fn(co, size, r);
}
HSAD_EXPORT hsa_status_t hsa_code_object_reader_create_from_file(hsa_file_t file, hsa_code_object_reader_t *r) {
  return CORE->hsa_code_object_reader_create_from_file_fn(file, r);
}
HSAD_EXPORT hsa_status_t hsa_code_object_reader_destroy(hsa_code_object_reader_t r) {
  return CORE->hsa_code_object_reader_destroy_fn(r);
}
HSAD_EXPORT hsa_status_t hsa_executable_create(hsa_profile_t p, hsa_executable_state_t s, const char *options,
                                               hsa_executable_t *e) {
  return CORE->hsa_executable_create_fn(p, s, options, e);
}
HSAD_EXPORT hsa_status_t hsa_executable_create_alt(hsa_profile_t p, hsa_default_float_rounding_mode_t m,
                                                   const char *options, hsa_executable_t *e) {
  return CORE->hsa_executable_create_alt_fn(p, m, options, e);
}
HSAD_EXPORT hsa_status_t hsa_executable_destroy(hsa_executable_t e) { return CORE->hsa_executable_destroy_fn(e); }
HSAD_EXPORT hsa_status_t hsa_executable_load_agent_code_object(hsa_executable_t e, hsa_agent_t agent,
                                                               hsa_code_object_reader_t r, const char *options,
                                                               hsa_loaded_code_object_t *lco) {
  return CORE->hsa_executable_load_agent_code_object_fn(e, agent, r, options, lco);
}
HSAD_EXPORT hsa_status_t hsa_executable_freeze(hsa_executable_t e, const char *options) {
  return CORE->hsa_executable_freeze_fn(e, options);
}
HSAD_EXPORT hsa_status_t hsa_executable_get_info(hsa_executable_t e, hsa_executable_info_t a, void *v) {
  return CORE->hsa_executable_get_info_fn(e, a, v);
}
HSAD_EXPORT hsa_status_t hsa_executable_validate(hsa_executable_t e, uint32_t *result) {
  return CORE->hsa_executable_validate_fn(e, result);
}
HSAD_EXPORT hsa_status_t hsa_executable_validate_alt(hsa_executable_t e, const char *options, uint32_t *result) {
  return CORE->hsa_executable_validate_alt_fn(e, options, result);
}
HSAD_EXPORT hsa_status_t hsa_executable_get_symbol(hsa_executable_t e, const char *module, const char *name,
                                                   hsa_agent_t agent, int32_t cc, hsa_executable_symbol_t *s) {
  return CORE->hsa_executable_get_symbol_fn(e, module, name, agent, cc, s);
}
HSAD_EXPORT hsa_status_t hsa_executable_get_symbol_by_name(hsa_executable_t e, const char *name, const hsa_agent_t *agent,
                                                           hsa_executable_symbol_t *s) {
  return CORE->hsa_executable_get_symbol_by_name_fn(e, name, agent, s);
}
HSAD_EXPORT hsa_status_t hsa_executable_symbol_get_info(hsa_executable_symbol_t s, hsa_executable_symbol_info_t a,
                                                        void *v) {
  return CORE->hsa_executable_symbol_get_info_fn(s, a, v);
}
HSAD_EXPORT hsa_status_t hsa_executable_iterate_symbols(
    hsa_executable_t e, hsa_status_t (*cb)(hsa_executable_t, hsa_executable_symbol_t, void *), void *data) {
  return CORE->hsa_executable_iterate_symbols_fn(e, cb, data);
}
HSAD_EXPORT hsa_status_t hsa_executable_iterate_agent_symbols(
    hsa_executable_t e, hsa_agent_t agent,
    hsa_status_t (*cb)(hsa_executable_t, hsa_agent_t, hsa_executable_symbol_t, void *), void *data) {
  return CORE->hsa_executable_iterate_agent_symbols_fn(e, agent, cb, data);
}
HSAD_EXPORT hsa_status_t hsa_executable_iterate_program_symbols(
    hsa_executable_t e, hsa_status_t (*cb)(hsa_executable_t, hsa_executable_symbol_t, void *), void *data) {
  return CORE->hsa_executable_iterate_program_symbols_fn(e, cb, data);
}

}  // extern "C"
