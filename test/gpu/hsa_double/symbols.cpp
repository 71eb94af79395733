// hsa_double/symbols.cpp — executable symbol queries, with ROCr's answers:
//  - hsa_executable_get_symbol_by_name with an agent searches that agent's
//    symbols; without one, only program symbols, which code object v3+
//    loaded for an agent never has. Kernels are named "<name>.kd" (CLR asks
//    for exactly that name); the plain function name is not a symbol.
//  - NAME is copied without a terminating NUL (NAME_LENGTH bytes, as ROCr's
//    SymbolImpl::GetInfo does): callers allocate length + 1 and terminate.
//  - MODULE_NAME is empty (v3+ names carry no "module::" prefix).
//  - KERNEL_OBJECT and VARIABLE_ADDRESS both answer the symbol's address for
//    either kind (ROCr keeps both in the common symbol class); the other
//    kernel-only or variable-only attributes on the wrong kind are
//    HSA_STATUS_ERROR_INVALID_ARGUMENT.
//  - Iteration is in load order (ROCr uses its own map order).
#include <cstring>

#include "impl.h"

namespace hsad {
namespace {

hsa_executable_symbol_t handle_of(const Symbol *s) { return {reinterpret_cast<uint64_t>(s)}; }

const Symbol *find(const Executable *e, const char *name, const Agent *agent) {
  for (auto &s : e->symbols)
    if (s->agent == agent && s->name == name) return s.get();
  return nullptr;
}

// A copy of the matching symbols, taken under the loader lock.
template <class Match>
hsa_status_t snapshot(hsa_executable_t executable, Match match, Executable **e, std::vector<const Symbol *> *out) {
  std::lock_guard<std::recursive_mutex> lock(loader_lock());
  *e = exec_from(executable);
  if (!*e) return HSA_STATUS_ERROR_INVALID_EXECUTABLE;
  for (auto &s : (*e)->symbols)
    if (match(*s)) out->push_back(s.get());
  return HSA_STATUS_SUCCESS;
}

bool variable_info(const Symbol *s, uint32_t attribute, void *value) {
  switch (attribute) {
    case HSA_EXECUTABLE_SYMBOL_INFO_VARIABLE_ALLOCATION:
      *static_cast<hsa_variable_allocation_t *>(value) = HSA_VARIABLE_ALLOCATION_AGENT;
      return true;
    case HSA_EXECUTABLE_SYMBOL_INFO_VARIABLE_SEGMENT:
      *static_cast<hsa_variable_segment_t *>(value) = HSA_VARIABLE_SEGMENT_GLOBAL;
      return true;
    case HSA_EXECUTABLE_SYMBOL_INFO_VARIABLE_ALIGNMENT: *static_cast<uint32_t *>(value) = s->align; return true;
    case HSA_EXECUTABLE_SYMBOL_INFO_VARIABLE_SIZE: *static_cast<uint32_t *>(value) = uint32_t(s->size); return true;
    case HSA_EXECUTABLE_SYMBOL_INFO_VARIABLE_IS_CONST: *static_cast<bool *>(value) = s->is_const; return true;
  }
  return false;
}

bool kernel_info(const Symbol *s, uint32_t attribute, void *value) {
  switch (attribute) {
    case HSA_EXECUTABLE_SYMBOL_INFO_KERNEL_KERNARG_SEGMENT_SIZE: *static_cast<uint32_t *>(value) = s->kernarg_size; return true;
    case HSA_EXECUTABLE_SYMBOL_INFO_KERNEL_KERNARG_SEGMENT_ALIGNMENT:  // ROCr's value for v3+ (HSA minimum)
      *static_cast<uint32_t *>(value) = 16;
      return true;
    case HSA_EXECUTABLE_SYMBOL_INFO_KERNEL_GROUP_SEGMENT_SIZE: *static_cast<uint32_t *>(value) = s->group_size; return true;
    case HSA_EXECUTABLE_SYMBOL_INFO_KERNEL_PRIVATE_SEGMENT_SIZE: *static_cast<uint32_t *>(value) = s->private_size; return true;
    case HSA_EXECUTABLE_SYMBOL_INFO_KERNEL_DYNAMIC_CALLSTACK: *static_cast<bool *>(value) = s->dynamic_stack; return true;
  }
  return false;
}

}  // namespace

const Symbol *kernel_at(uint64_t kernel_object) {
  for (Executable *e : executables_snapshot())
    for (auto &s : e->symbols)
      if (s->kind == HSA_SYMBOL_KIND_KERNEL && s->address == kernel_object) return s.get();
  return nullptr;
}

hsa_status_t executable_get_symbol_by_name(hsa_executable_t executable, const char *name, const hsa_agent_t *agent,
                                           hsa_executable_symbol_t *symbol) {
  HSAD_CHECK_OPEN();
  std::lock_guard<std::recursive_mutex> lock(loader_lock());
  const Executable *e = exec_from(executable);
  if (!e) return HSA_STATUS_ERROR_INVALID_EXECUTABLE;
  if (!name || !symbol) return HSA_STATUS_ERROR_INVALID_ARGUMENT;
  const Agent *a = nullptr;
  if (agent && !(a = agent_from(*agent))) return HSA_STATUS_ERROR_INVALID_AGENT;
  const Symbol *s = find(e, name, a);
  if (!s) return HSA_STATUS_ERROR_INVALID_SYMBOL_NAME;
  *symbol = handle_of(s);
  return HSA_STATUS_SUCCESS;
}

// Deprecated: "module::name" when a module is given; agent {0} means none.
hsa_status_t executable_get_symbol(hsa_executable_t executable, const char *module_name, const char *symbol_name,
                                   hsa_agent_t agent, int32_t call_convention, hsa_executable_symbol_t *symbol) {
  (void)call_convention;
  if (!symbol_name) return HSA_STATUS_ERROR_INVALID_ARGUMENT;
  std::string name = module_name && *module_name ? std::string(module_name) + "::" + symbol_name : symbol_name;
  return executable_get_symbol_by_name(executable, name.c_str(), agent.handle ? &agent : nullptr, symbol);
}

hsa_status_t executable_iterate_symbols(hsa_executable_t executable,
                                        hsa_status_t (*callback)(hsa_executable_t, hsa_executable_symbol_t, void *),
                                        void *data) {
  HSAD_CHECK_OPEN();
  if (!callback) return HSA_STATUS_ERROR_INVALID_ARGUMENT;
  Executable *e;
  std::vector<const Symbol *> list;
  hsa_status_t st = snapshot(executable, [](const Symbol &) { return true; }, &e, &list);
  for (size_t i = 0; st == HSA_STATUS_SUCCESS && i < list.size(); i++) st = callback(executable, handle_of(list[i]), data);
  return st;
}

hsa_status_t executable_iterate_agent_symbols(
    hsa_executable_t executable, hsa_agent_t agent,
    hsa_status_t (*callback)(hsa_executable_t, hsa_agent_t, hsa_executable_symbol_t, void *), void *data) {
  HSAD_CHECK_OPEN();
  const Agent *a = agent_from(agent);
  if (!a) return HSA_STATUS_ERROR_INVALID_AGENT;
  if (!callback) return HSA_STATUS_ERROR_INVALID_ARGUMENT;
  Executable *e;
  std::vector<const Symbol *> list;
  hsa_status_t st = snapshot(executable, [&](const Symbol &s) { return s.agent == a; }, &e, &list);
  for (size_t i = 0; st == HSA_STATUS_SUCCESS && i < list.size(); i++)
    st = callback(executable, agent, handle_of(list[i]), data);
  return st;
}

hsa_status_t executable_iterate_program_symbols(hsa_executable_t executable,
                                                hsa_status_t (*callback)(hsa_executable_t, hsa_executable_symbol_t,
                                                                         void *),
                                                void *data) {
  HSAD_CHECK_OPEN();
  if (!callback) return HSA_STATUS_ERROR_INVALID_ARGUMENT;
  Executable *e;
  std::vector<const Symbol *> list;
  hsa_status_t st = snapshot(executable, [](const Symbol &s) { return s.agent == nullptr; }, &e, &list);
  for (size_t i = 0; st == HSA_STATUS_SUCCESS && i < list.size(); i++) st = callback(executable, handle_of(list[i]), data);
  return st;
}

hsa_status_t executable_symbol_get_info(hsa_executable_symbol_t symbol, hsa_executable_symbol_info_t attribute,
                                        void *value) {
  HSAD_CHECK_OPEN();
  std::lock_guard<std::recursive_mutex> lock(loader_lock());
  const Symbol *s = symbol_from(symbol);
  if (!s) return HSA_STATUS_ERROR_INVALID_EXECUTABLE_SYMBOL;
  if (!value) return HSA_STATUS_ERROR_INVALID_ARGUMENT;
  switch (uint32_t(attribute)) {
    case HSA_EXECUTABLE_SYMBOL_INFO_TYPE: *static_cast<hsa_symbol_kind_t *>(value) = s->kind; return HSA_STATUS_SUCCESS;
    case HSA_EXECUTABLE_SYMBOL_INFO_NAME_LENGTH: *static_cast<uint32_t *>(value) = uint32_t(s->name.size()); return HSA_STATUS_SUCCESS;
    case HSA_EXECUTABLE_SYMBOL_INFO_NAME: memcpy(value, s->name.data(), s->name.size()); return HSA_STATUS_SUCCESS;
    case HSA_EXECUTABLE_SYMBOL_INFO_MODULE_NAME_LENGTH: *static_cast<uint32_t *>(value) = 0; return HSA_STATUS_SUCCESS;
    case HSA_EXECUTABLE_SYMBOL_INFO_MODULE_NAME: return HSA_STATUS_SUCCESS;
    case HSA_EXECUTABLE_SYMBOL_INFO_AGENT: *static_cast<hsa_agent_t *>(value) = ::hsad::handle_of(s->agent); return HSA_STATUS_SUCCESS;
    case HSA_EXECUTABLE_SYMBOL_INFO_VARIABLE_ADDRESS:
    case HSA_EXECUTABLE_SYMBOL_INFO_KERNEL_OBJECT: *static_cast<uint64_t *>(value) = s->address; return HSA_STATUS_SUCCESS;
    case HSA_EXECUTABLE_SYMBOL_INFO_LINKAGE: *static_cast<hsa_symbol_linkage_t *>(value) = s->linkage; return HSA_STATUS_SUCCESS;
    case HSA_EXECUTABLE_SYMBOL_INFO_IS_DEFINITION: *static_cast<bool *>(value) = true; return HSA_STATUS_SUCCESS;
    case HSA_EXECUTABLE_SYMBOL_INFO_KERNEL_CALL_CONVENTION: *static_cast<uint32_t *>(value) = 0; return HSA_STATUS_SUCCESS;
  }
  bool ok = s->kind == HSA_SYMBOL_KIND_KERNEL ? kernel_info(s, uint32_t(attribute), value)
                                              : variable_info(s, uint32_t(attribute), value);
  return ok ? HSA_STATUS_SUCCESS : HSA_STATUS_ERROR_INVALID_ARGUMENT;
}

}  // namespace hsad

extern "C" HSAD_EXPORT const char *hsa_double_kernel_name(uint64_t kernel_object) {
  std::lock_guard<std::recursive_mutex> lock(hsad::loader_lock());
  const hsad::Symbol *s = hsad::kernel_at(kernel_object);
  return s ? s->name.c_str() : nullptr;
}

extern "C" HSAD_EXPORT hsa_agent_t hsa_double_kernel_agent(uint64_t kernel_object) {
  std::lock_guard<std::recursive_mutex> lock(hsad::loader_lock());
  const hsad::Symbol *s = hsad::kernel_at(kernel_object);
  return s ? hsad::handle_of(s->agent) : hsa_agent_t{0};
}
