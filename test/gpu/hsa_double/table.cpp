// hsa_double/table.cpp — the HsaApiTable tools get in OnLoad, laid out as the
// selected ROCm release has it (rocm_versions.cpp): root, CoreApiTable, the
// AMD extension table (table_amd.cpp), finalizer and image tables, and from
// 6.1 the tools table and from 6.2 the PC-sampling table. Every version is
// {major, minor = sizeof(table), step} as ROCr fills it (core/runtime/
// hsa_api_trace.cpp HsaApiTable::Init, UpdateCore, UpdateAmdExts, UpdateTools;
// all releases). Tools may overwrite entries; the exported hsa_* functions
// call through these same tables (exports_*.cpp), as ROCr's do (core/common/
// hsa_table_interface.cpp, all releases): through the sub-tables themselves,
// so a tool that replaced a root pointer (core_, amd_ext_) is not seen.
//
// Each memory-order variant of a queue-index or signal operation points at the
// same implementation, which uses sequentially consistent atomics: stronger
// than any requested order, so correct for all of them. Entries the double
// does not implement are stubs (stub.h). No entry inside a table's size is null,
// except the tools table's: ROCr leaves its scratch-event callbacks null for
// tools to set (HsaApiTable::UpdateTools, 6.1+).
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <new>

#include "impl.h"
#include "stub.h"

namespace hsad {

namespace {

// ToolsApiTable (6.1+; inc/hsa_api_trace.h): six hsa_amd_tool_scratch_event_*_fn.
struct ToolsTable {
  ApiTableVersion version;
  void *fn[6];
};
// PcSamplingExtTable (6.2+): the seven hsa_ven_amd_pcs_*_fn.
struct PcsTable {
  ApiTableVersion version;
  void *fn[7];
};
const char *const kPcsNames[7] = {"hsa_ven_amd_pcs_iterate_configuration", "hsa_ven_amd_pcs_create",
                                  "hsa_ven_amd_pcs_create_from_id",        "hsa_ven_amd_pcs_destroy",
                                  "hsa_ven_amd_pcs_start",                 "hsa_ven_amd_pcs_stop",
                                  "hsa_ven_amd_pcs_flush"};
// AmdExtTable in any release's layout (the largest has 74 entries).
struct AmdTable {
  ApiTableVersion version;
  void *fn[96];
};
// HsaApiTable as of 6.2: the 5.2 root, then tools_ (6.1) and pc_sampling_ext_ (6.2).
struct Root {
  HsaApiTable base;
  ToolsTable *tools_;
  PcsTable *pc_sampling_ext_;
};
static_assert(sizeof(HsaApiTable) == 48 && sizeof(Root) == 64, "ROCr's root table sizes");
static_assert(sizeof(CoreApiTable) == 1016 && sizeof(ToolsTable) == 64 && sizeof(PcsTable) == 72,
              "ROCr's sizes (static_asserts in HsaApiTable::Init, 6.1+)");

struct Tables {
  Root root;
  CoreApiTable core;
  AmdTable amd;
  FinalizerExtTable finalizer;
  ImageExtTable image;
  ToolsTable tools;
  PcsTable pcs;
  AmdExtTable impl;  // the AMD entries in Debian's layout, laid out into `amd` by name
};

#define CORE(name, impl) t.hsa_##name##_fn = impl
#define STUB(name) HSAD_STUB(t.name##_fn, name)
#define HSAD_STUB_IN(tbl, name) HSAD_STUB(tbl.name##_fn, name)
#define ORDERS4(family, impl)                                                 \
  CORE(family##_relaxed, impl);                                               \
  CORE(family##_scacquire, impl);                                             \
  CORE(family##_screlease, impl);                                             \
  CORE(family##_scacq_screl, impl)

void fill_core(CoreApiTable &t) {
  CORE(init, init);
  CORE(shut_down, shut_down);
  CORE(system_get_info, system_get_info);
  CORE(system_extension_supported, system_extension_supported);
  CORE(system_get_extension_table, system_get_extension_table);
  CORE(iterate_agents, iterate_agents);
  CORE(agent_get_info, agent_get_info);
  CORE(queue_create, queue_create);
  STUB(hsa_soft_queue_create);
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
  STUB(hsa_agent_get_exception_policies);
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
  STUB(hsa_isa_compatible);
  STUB(hsa_code_object_serialize);
  STUB(hsa_code_object_deserialize);
  STUB(hsa_code_object_destroy);
  STUB(hsa_code_object_get_info);
  STUB(hsa_code_object_get_symbol);
  STUB(hsa_code_symbol_get_info);
  STUB(hsa_code_object_iterate_symbols);
  CORE(executable_create, executable_create);
  CORE(executable_destroy, executable_destroy);
  STUB(hsa_executable_load_code_object);
  CORE(executable_freeze, executable_freeze);
  CORE(executable_get_info, executable_get_info);
  STUB(hsa_executable_global_variable_define);
  STUB(hsa_executable_agent_global_variable_define);
  STUB(hsa_executable_readonly_variable_define);
  CORE(executable_validate, executable_validate);
  CORE(executable_get_symbol, executable_get_symbol);
  CORE(executable_symbol_get_info, executable_symbol_get_info);
  CORE(executable_iterate_symbols, executable_iterate_symbols);
  CORE(status_string, status_string);
  CORE(extension_get_name, extension_get_name);
  CORE(system_major_extension_supported, system_major_extension_supported);
  CORE(system_get_major_extension_table, system_get_major_extension_table);
  CORE(agent_major_extension_supported, agent_major_extension_supported);
  STUB(hsa_cache_get_info);
  STUB(hsa_agent_iterate_caches);
  CORE(signal_silent_store_relaxed, signal_silent_store_screlease);
  CORE(signal_silent_store_screlease, signal_silent_store_screlease);
  STUB(hsa_signal_group_create);
  STUB(hsa_signal_group_destroy);
  STUB(hsa_signal_group_wait_any_scacquire);
  STUB(hsa_signal_group_wait_any_relaxed);
  CORE(agent_iterate_isas, agent_iterate_isas);
  CORE(isa_get_info_alt, isa_get_info_alt);
  STUB(hsa_isa_get_exception_policies);
  STUB(hsa_isa_get_round_method);
  STUB(hsa_wavefront_get_info);
  STUB(hsa_isa_iterate_wavefronts);
  STUB(hsa_code_object_get_symbol_from_name);
  CORE(code_object_reader_create_from_file, code_object_reader_create_from_file);
  CORE(code_object_reader_create_from_memory, code_object_reader_create_from_memory);
  CORE(code_object_reader_destroy, code_object_reader_destroy);
  CORE(executable_create_alt, executable_create_alt);
  STUB(hsa_executable_load_program_code_object);
  CORE(executable_load_agent_code_object, executable_load_agent_code_object);
  CORE(executable_validate_alt, executable_validate_alt);
  CORE(executable_get_symbol_by_name, executable_get_symbol_by_name);
  CORE(executable_iterate_agent_symbols, executable_iterate_agent_symbols);
  CORE(executable_iterate_program_symbols, executable_iterate_program_symbols);
}

// The finalizer and image extensions do not exist here (as on ROCr without
// the image library); their tables are all stubs.
void fill_ext(FinalizerExtTable &f, ImageExtTable &i) {
  HSAD_STUB_IN(f, hsa_ext_program_create);
  HSAD_STUB_IN(f, hsa_ext_program_destroy);
  HSAD_STUB_IN(f, hsa_ext_program_add_module);
  HSAD_STUB_IN(f, hsa_ext_program_iterate_modules);
  HSAD_STUB_IN(f, hsa_ext_program_get_info);
  HSAD_STUB_IN(f, hsa_ext_program_finalize);
  HSAD_STUB_IN(i, hsa_ext_image_get_capability);
  HSAD_STUB_IN(i, hsa_ext_image_data_get_info);
  HSAD_STUB_IN(i, hsa_ext_image_create);
  HSAD_STUB_IN(i, hsa_ext_image_import);
  HSAD_STUB_IN(i, hsa_ext_image_export);
  HSAD_STUB_IN(i, hsa_ext_image_copy);
  HSAD_STUB_IN(i, hsa_ext_image_clear);
  HSAD_STUB_IN(i, hsa_ext_image_destroy);
  HSAD_STUB_IN(i, hsa_ext_sampler_create);
  HSAD_STUB_IN(i, hsa_ext_sampler_destroy);
  HSAD_STUB_IN(i, hsa_ext_image_get_capability_with_layout);
  HSAD_STUB_IN(i, hsa_ext_image_data_get_info_with_layout);
  HSAD_STUB_IN(i, hsa_ext_image_create_with_layout);
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

void set_version(ApiTableVersion *v, uint32_t major, uint32_t bytes, uint32_t step) {
  v->major_id = major;
  v->minor_id = bytes;
  v->step_id = step;
  v->reserved = 0;
}

// Every entry is written once, never cleared first: threads still running at
// shutdown (async handlers, other program threads) may call through the
// table while OnUnload's reset refills it.
void fill(Tables &t) {
  const Release &r = release();
  fill_core(t.core);
  amd_fill_impl(t.impl);
  amd_fill_layout(t.amd.fn, sizeof t.amd.fn / sizeof t.amd.fn[0], t.impl);
  fill_ext(t.finalizer, t.image);
  for (int i = 0; i < 7; i++) t.pcs.fn[i] = named_stub(kPcsNames[i]);
  set_version(&t.core.version, r.core_major, sizeof t.core, 0);
  set_version(&t.amd.version, r.amd_major, r.amd_bytes, r.amd_step);
  set_version(&t.finalizer.version, r.ext_major, sizeof t.finalizer, 0);
  set_version(&t.image.version, r.ext_major, sizeof t.image, r.image_step);
  set_version(&t.tools.version, 1, sizeof t.tools, 0);  // HSA_TOOLS_API_TABLE_{MAJOR,STEP}_VERSION 1, 0
  set_version(&t.pcs.version, 1, sizeof t.pcs, 0);      // HSA_PC_SAMPLING_API_TABLE_* 1, 0
  set_version(&t.root.base.version, r.root_major, r.root_bytes, r.root_step);
  t.root.base.core_ = &t.core;
  t.root.base.amd_ext_ = reinterpret_cast<AmdExtTable *>(&t.amd);
  // ROCr links the extension tables in LoadExtensions, before LoadTools
  // (core/runtime/runtime.cpp Runtime::Load; pc sampling 6.2+).
  t.root.base.finalizer_ext_ = &t.finalizer;
  t.root.base.image_ext_ = &t.image;
  t.root.tools_ = r.root_bytes >= offsetof(Root, tools_) + sizeof(void *) ? &t.tools : nullptr;
  t.root.pc_sampling_ext_ = r.root_bytes >= offsetof(Root, pc_sampling_ext_) + sizeof(void *) ? &t.pcs : nullptr;
  for (void *&f : t.tools.fn) f = nullptr;  // ROCr's HsaApiTable::UpdateTools: for tools to set
  check_complete(&t.core, sizeof t.core, "CoreApiTable");
  check_complete(&t.amd, r.amd_bytes, "AmdExtTable");
  check_complete(&t.finalizer, sizeof t.finalizer, "FinalizerExtTable");
  check_complete(&t.image, sizeof t.image, "ImageExtTable");
}

Tables &tables() {
  static Tables *t = [] {
    static Tables c;
    fill(c);
    return &c;
  }();
  return *t;
}

}  // namespace

namespace {
std::mutex g_said_lock;
std::vector<std::atomic<bool> *> g_said;  // stubs that spoke in this runtime instance
}  // namespace

void stub_say(const char *name, std::atomic<bool> *said) {
  if (said->exchange(true)) return;
  fprintf(stderr, "hsa_double: %s is not implemented by the test double\n", name);
  std::lock_guard<std::mutex> lock(g_said_lock);
  g_said.push_back(said);
}

HsaApiTable &api() { return tables().root.base; }
CoreApiTable &core_table() { return tables().core; }

void *amd_entry(const char *name) {
  int i = amd_index(name);
  if (i < 1) abort();  // an export of an entry its release does not have: a bug here
  void *p;
  memcpy(&p, &tables().amd.fn[i - 1], sizeof p);
  return p;
}

// Also lets every stub speak once more: once per runtime instance.
void table_reset() {
  fill(tables());
  std::lock_guard<std::mutex> lock(g_said_lock);
  for (std::atomic<bool> *said : g_said) said->store(false);
  g_said.clear();
}

void table_apply_env() {
  if (const char *v = env("HSA_DOUBLE_TABLE_MAJOR")) tables().root.base.version.major_id = uint32_t(strtoul(v, nullptr, 0));
  if (const char *v = env("HSA_DOUBLE_CORE_MINOR")) tables().core.version.minor_id = uint32_t(strtoul(v, nullptr, 0));
}

}  // namespace hsad
