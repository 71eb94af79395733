// ldsan HSA tools library: the entry points ROCr calls (OnLoad, OnUnload,
// HSA_AMD_TOOL_PRIORITY) and the only code that reads the runtime's API table.
// hsa_api_trace.h is C++ (decltype), so this file is C++; it copies the
// runtime's functions into the C struct ldsan_hsa_api and installs ldsan's C
// wrappers.
//
// One build works with every ROCr from 5.2 on (the facts, with their sources in
// ROCr, are in test/gpu/hsa_double/rocm_versions.cpp, which models them):
//  - the root table only grew at its end (6.1: tools_, 6.2: pc_sampling_ext_),
//    its major id 1 (5.x), 2 (6.0), 3 (6.1+); core_ and amd_ext_ never moved;
//  - CoreApiTable has the same layout from 5.2 to today (major 1 in 5.x, 2 from
//    6.0): the core entries ldsan replaces or calls are read at this header's
//    offsets;
//  - AmdExtTable got entries inserted in its middle without a new major id
//    (5.5, 5.6), so the AMD functions ldsan calls are the runtime's exported
//    hsa_amd_* symbols, which call through its own table in every version. The
//    two it cannot get that way (hsa_amd_queue_intercept_create/_register are
//    not exported) are read at the index of the layout the table's size names.
#include <hsa/hsa_api_trace.h>

#include <climits>
#include <cstddef>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <dlfcn.h>
#include <initializer_list>
#include <type_traits>

extern "C" {
#include "hsa_tool.h"
}

static_assert(std::is_same<ldsan_hsa_packet_writer, hsa_amd_queue_intercept_packet_writer>::value,
              "intercept packet writer type differs from hsa_api_trace.h");
static_assert(std::is_same<ldsan_hsa_intercept_handler, hsa_amd_queue_intercept_handler>::value,
              "intercept handler type differs from hsa_api_trace.h");
static_assert(offsetof(HsaApiTable, core_) == 16 && offsetof(HsaApiTable, amd_ext_) == 24,
              "the root table's core_ and amd_ext_ are where every ROCr puts them");

namespace {

bool loaded;  // OnLoad ran and installed the wrappers (ROCr may call it again)

// Bytes a table must have for ldsan to use the entry at `offset`.
constexpr uint32_t needs(size_t offset) { return static_cast<uint32_t>(offset + sizeof(void *)); }

constexpr size_t max_of(std::initializer_list<size_t> v) {
  size_t m = 0;
  for (size_t x : v) m = x > m ? x : m;
  return m;
}
// Bytes of the core table up to the last entry ldsan uses (copy_core's list).
constexpr uint32_t kCoreNeeded = needs(max_of({
    offsetof(CoreApiTable, hsa_iterate_agents_fn), offsetof(CoreApiTable, hsa_agent_get_info_fn),
    offsetof(CoreApiTable, hsa_agent_iterate_isas_fn), offsetof(CoreApiTable, hsa_isa_get_info_alt_fn),
    offsetof(CoreApiTable, hsa_queue_create_fn), offsetof(CoreApiTable, hsa_memory_copy_fn),
    offsetof(CoreApiTable, hsa_system_get_major_extension_table_fn), offsetof(CoreApiTable, hsa_signal_create_fn),
    offsetof(CoreApiTable, hsa_signal_destroy_fn), offsetof(CoreApiTable, hsa_signal_store_relaxed_fn),
    offsetof(CoreApiTable, hsa_signal_store_screlease_fn), offsetof(CoreApiTable, hsa_signal_load_relaxed_fn), offsetof(CoreApiTable, hsa_signal_subtract_screlease_fn), offsetof(CoreApiTable, hsa_executable_freeze_fn),
    offsetof(CoreApiTable, hsa_executable_destroy_fn),
    offsetof(CoreApiTable, hsa_executable_iterate_agent_symbols_fn),
    offsetof(CoreApiTable, hsa_executable_symbol_get_info_fn)}));

// The AmdExtTable layouts ldsan knows, told apart by major id and size in bytes
// (ROCr sets minor_id to sizeof(AmdExtTable)), with the index (0: the version
// struct) of the intercept-queue entries.
struct AmdLayout {
  uint32_t major, min_bytes, max_bytes;
  unsigned intercept_create, intercept_register;
};
constexpr AmdLayout kAmdLayouts[] = {
    {1, 400, 400, 36, 37},       // ROCm 5.2-5.4
    {1, 424, 424, 36, 37},       // 5.5: spm_* inserted after the intercept entries
    {1, 456, 456, 38, 39},       // 5.6, 5.7: two copy-engine entries inserted at 17, 18
    {2, 552, UINT32_MAX, 38, 39}, // 6.0 and later: entries only appended
};

const AmdLayout *amd_layout(const ApiTableVersion &v) {
  for (const AmdLayout &l : kAmdLayouts)
    if (v.major_id == l.major && v.minor_id >= l.min_bytes && v.minor_id <= l.max_bytes) return &l;
  return nullptr;
}

template <class F> F amd_entry(const AmdExtTable *t, unsigned index) {
  F f;
  const char *base = reinterpret_cast<const char *>(t);
  memcpy(&f, base + index * sizeof(void *) + (sizeof(ApiTableVersion) - sizeof(void *)), sizeof f);
  return f;
}

// The file of the runtime that owns the table, resolved (e.g. the versioned
// libhsa-runtime64.so.1.14.60200), into buf; "the HSA runtime" when unknown.
const char *runtime_file(const HsaApiTable *t, char *buf, size_t len) {
  Dl_info info;
  if (!dladdr(t, &info) || !info.dli_fname) return "the HSA runtime";
  char *real = realpath(info.dli_fname, nullptr);
  snprintf(buf, len, "%s", real ? real : info.dli_fname);
  free(real);
  return buf;
}

// Says why the table cannot be used, or returns nullptr.
const char *check_table(const HsaApiTable *t, char *why, size_t len) {
  if (!t) return "no table";
  if (t->version.major_id < 1 || t->version.major_id > 3) {
    snprintf(why, len, "its API table has major version %u; ldsan knows versions 1-3 (ROCm 5.2 to 7.x)",
             t->version.major_id);
    return why;
  }
  if (t->version.minor_id < needs(offsetof(HsaApiTable, amd_ext_)) || !t->core_ || !t->amd_ext_) {
    snprintf(why, len, "its API table is %u bytes, without the core and AMD extension tables", t->version.minor_id);
    return why;
  }
  const CoreApiTable *core = t->core_;
  if (core->version.major_id < 1 || core->version.major_id > 2 || core->version.minor_id < kCoreNeeded) {
    snprintf(why, len,
             "its core API table has version %u and %u bytes; ldsan knows versions 1-2 of at least %u bytes",
             core->version.major_id, core->version.minor_id, kCoreNeeded);
    return why;
  }
  if (!amd_layout(t->amd_ext_->version)) {
    snprintf(why, len,
             "its AMD extension table has version %u and %u bytes, a layout ldsan does not know (it knows ROCm "
             "5.2-5.4: 1/400, 5.5: 1/424, 5.6-5.7: 1/456, 6.0 and later: 2/552 or more)",
             t->amd_ext_->version.major_id, t->amd_ext_->version.minor_id);
    return why;
  }
  return nullptr;
}

void copy_core(const CoreApiTable *c, ldsan_hsa_api *api) {
  api->iterate_agents = c->hsa_iterate_agents_fn;
  api->agent_get_info = c->hsa_agent_get_info_fn;
  api->agent_iterate_isas = c->hsa_agent_iterate_isas_fn;
  api->isa_get_info_alt = c->hsa_isa_get_info_alt_fn;
  api->queue_create = c->hsa_queue_create_fn;
  api->memory_copy = c->hsa_memory_copy_fn;
  api->system_get_major_extension_table = c->hsa_system_get_major_extension_table_fn;
  api->signal_create = c->hsa_signal_create_fn;
  api->signal_destroy = c->hsa_signal_destroy_fn;
  api->signal_load_relaxed = c->hsa_signal_load_relaxed_fn;
  api->signal_store_relaxed = c->hsa_signal_store_relaxed_fn;
  api->signal_store_screlease = c->hsa_signal_store_screlease_fn;
  api->signal_subtract_screlease = c->hsa_signal_subtract_screlease_fn;
  api->executable_freeze = c->hsa_executable_freeze_fn;
  api->executable_destroy = c->hsa_executable_destroy_fn;
  api->executable_iterate_agent_symbols = c->hsa_executable_iterate_agent_symbols_fn;
  api->executable_symbol_get_info = c->hsa_executable_symbol_get_info_fn;
}

// The runtime's exported AMD functions, looked up in the library that owns the
// table (not wherever the dynamic linker would find the name first). Says
// which one is missing, or returns nullptr.
const char *copy_amd(const HsaApiTable *t, ldsan_hsa_api *api, char *why, size_t len) {
  Dl_info info;
  void *lib = dladdr(t, &info) && info.dli_fname ? dlopen(info.dli_fname, RTLD_LAZY | RTLD_NOLOAD) : nullptr;
  const char *missing = nullptr;
  auto get = [&](auto &field, const char *name) {
    void *sym = lib ? dlsym(lib, name) : nullptr;
    if (!sym && !missing) missing = name;
    memcpy(&field, &sym, sizeof sym);
  };
  get(api->amd_signal_async_handler, "hsa_amd_signal_async_handler");
  get(api->amd_agent_iterate_memory_pools, "hsa_amd_agent_iterate_memory_pools");
  get(api->amd_memory_pool_get_info, "hsa_amd_memory_pool_get_info");
  get(api->amd_memory_pool_allocate, "hsa_amd_memory_pool_allocate");
  get(api->amd_memory_pool_free, "hsa_amd_memory_pool_free");
  get(api->amd_memory_fill, "hsa_amd_memory_fill");
  get(api->amd_agents_allow_access, "hsa_amd_agents_allow_access");
  get(api->amd_register_system_event_handler, "hsa_amd_register_system_event_handler");
  if (lib) dlclose(lib);  // RTLD_NOLOAD took a reference; the runtime stays loaded
  if (missing) {
    snprintf(why, len, "it does not export %s", missing);
    return why;
  }
  const AmdLayout *l = amd_layout(t->amd_ext_->version);
  api->amd_queue_intercept_create =
      amd_entry<decltype(api->amd_queue_intercept_create)>(t->amd_ext_, l->intercept_create);
  api->amd_queue_intercept_register =
      amd_entry<decltype(api->amd_queue_intercept_register)>(t->amd_ext_, l->intercept_register);
  return nullptr;
}

}  // namespace

extern "C" {

// ROCr from 5.3 loads every library in the process that exports this,
// in increasing order; 5.2 needs HSA_TOOLS_LIB (hsa_tool.c sets it).
__attribute__((visibility("default"))) extern const uint32_t HSA_AMD_TOOL_PRIORITY = 40;

__attribute__((visibility("default"))) bool OnLoad(HsaApiTable *table, uint64_t runtime_version,
                                                   uint64_t failed_tool_count, const char *const *failed_tool_names) {
  (void)runtime_version;
  (void)failed_tool_count;
  (void)failed_tool_names;
  if (loaded) return true;  // found twice (HSA_TOOLS_LIB and HSA_AMD_TOOL_PRIORITY): already in place
  ldsan_hsa_env_restore();   // ROCr has read its environment (Runtime::Load): the user's again
  char buf[320], file[PATH_MAX];
  ldsan_hsa_api runtime{};
  const char *why = check_table(table, buf, sizeof buf);
  if (!why) why = copy_amd(table, &runtime, buf, sizeof buf);
  if (why) {
    fprintf(stderr,
            "ldsan: error: cannot attach to %s: %s; LDS reports will not be printed on the GPU. Use an ldsan "
            "release that knows this ROCm, or report the line above\n",
            runtime_file(table, file, sizeof file), why);
    return false;
  }
  copy_core(table->core_, &runtime);
  if (ldsan_hsa_tool_start(&runtime) != 0) return false;
  table->core_->hsa_executable_freeze_fn = ldsan_hsa_executable_freeze;
  table->core_->hsa_executable_destroy_fn = ldsan_hsa_executable_destroy;
  table->core_->hsa_queue_create_fn = ldsan_hsa_queue_create;
  loaded = true;
  return true;
}

// ROCr calls it at the last hsa_shut_down, resets the table and may load the
// tools again at a later hsa_init (its OnLoad then runs again).
__attribute__((visibility("default"))) void OnUnload() {
  if (!loaded) return;
  ldsan_hsa_tool_stop();
  loaded = false;
  ldsan_hsa_env_reapply();
}

}  // extern "C"
