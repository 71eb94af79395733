// hsa_double/loader_ext.cpp — the AMD loader extension (hsa_ven_amd_loader.h,
// table versions 1.00 to 1.03): exported directly, as ROCr exports them, and
// through hsa_system_get_(major_)extension_table.
//
// Loaded-code-object info follows ROCr's hsa_ven_amd_loader.cpp rather than
// the header's wording where they differ: STORAGE_TYPE is always MEMORY, with
// MEMORY_BASE/SIZE the ELF image (for a file reader, a copy the double keeps),
// and STORAGE_FILE is HSA_STATUS_ERROR_INVALID_ARGUMENT; URI is copied without
// a terminating NUL (URI_LENGTH bytes). Each loaded code object is one segment
// (code object v3+ loads as one contiguous span), so the segment descriptors
// and host-address queries cover exactly [LOAD_BASE, LOAD_BASE + LOAD_SIZE).
#include <cstring>

#include "impl.h"

namespace hsad {
namespace {

// The loaded code object whose span holds `addr`, or nullptr. Needs loader_lock.
const LoadedCodeObject *lco_at(uint64_t addr) {
  for (Executable *e : executables_snapshot())
    for (auto &o : e->objects)
      if (addr >= o->load_base && addr - o->load_base < o->load_size) return o.get();
  return nullptr;
}

hsa_executable_t exec_handle(const Executable *e) { return {reinterpret_cast<uint64_t>(e)}; }

}  // namespace

// The host view of a device address inside a loaded code object: the same
// bytes, always host-accessible (the VRAM view).
hsa_status_t ven_amd_loader_query_host_address(const void *device_address, const void **host_address) {
  HSAD_CHECK_OPEN();
  if (!device_address || !host_address) return HSA_STATUS_ERROR_INVALID_ARGUMENT;
  std::lock_guard<std::recursive_mutex> lock(loader_lock());
  uint64_t addr = reinterpret_cast<uint64_t>(device_address);
  if (!lco_at(addr)) return HSA_STATUS_ERROR_INVALID_ARGUMENT;
  *host_address = mem_view(addr, 1);
  return *host_address ? HSA_STATUS_SUCCESS : HSA_STATUS_ERROR_INVALID_ARGUMENT;
}

hsa_status_t ven_amd_loader_query_segment_descriptors(hsa_ven_amd_loader_segment_descriptor_t *descriptors,
                                                      size_t *count) {
  HSAD_CHECK_OPEN();
  if (!count || (*count == 0) != (descriptors == nullptr)) return HSA_STATUS_ERROR_INVALID_ARGUMENT;
  std::lock_guard<std::recursive_mutex> lock(loader_lock());
  std::vector<const LoadedCodeObject *> all;
  for (Executable *e : executables_snapshot())
    for (auto &o : e->objects) all.push_back(o.get());
  if (*count == 0) {
    *count = all.size();
    return HSA_STATUS_SUCCESS;
  }
  if (*count != all.size()) return HSA_STATUS_ERROR_INCOMPATIBLE_ARGUMENTS;
  for (size_t i = 0; i < all.size(); i++) {
    const LoadedCodeObject *o = all[i];
    hsa_ven_amd_loader_segment_descriptor_t &d = descriptors[i];
    d.agent = handle_of(o->agent);
    d.executable = exec_handle(o->exec);
    d.code_object_storage_type = HSA_VEN_AMD_LOADER_CODE_OBJECT_STORAGE_TYPE_MEMORY;
    d.code_object_storage_base = reinterpret_cast<const void *>(o->elf_base);
    d.code_object_storage_size = o->elf_size;
    d.code_object_storage_offset = 0;
    d.segment_base = reinterpret_cast<const void *>(o->load_base);
    d.segment_size = o->load_size;
  }
  return HSA_STATUS_SUCCESS;
}

hsa_status_t ven_amd_loader_query_executable(const void *device_address, hsa_executable_t *executable) {
  HSAD_CHECK_OPEN();
  if (!device_address || !executable) return HSA_STATUS_ERROR_INVALID_ARGUMENT;
  std::lock_guard<std::recursive_mutex> lock(loader_lock());
  const LoadedCodeObject *o = lco_at(reinterpret_cast<uint64_t>(device_address));
  if (!o) return HSA_STATUS_ERROR_INVALID_ARGUMENT;
  *executable = exec_handle(o->exec);
  return HSA_STATUS_SUCCESS;
}

hsa_status_t ven_amd_loader_executable_iterate_loaded_code_objects(
    hsa_executable_t executable, hsa_status_t (*callback)(hsa_executable_t, hsa_loaded_code_object_t, void *),
    void *data) {
  HSAD_CHECK_OPEN();
  if (!callback) return HSA_STATUS_ERROR_INVALID_ARGUMENT;
  std::vector<hsa_loaded_code_object_t> list;
  {
    std::lock_guard<std::recursive_mutex> lock(loader_lock());
    const Executable *e = exec_from(executable);
    if (!e) return HSA_STATUS_ERROR_INVALID_EXECUTABLE;
    for (auto &o : e->objects) list.push_back({reinterpret_cast<uint64_t>(o.get())});
  }
  for (hsa_loaded_code_object_t o : list) {
    hsa_status_t s = callback(executable, o, data);
    if (s != HSA_STATUS_SUCCESS) return s;
  }
  return HSA_STATUS_SUCCESS;
}

hsa_status_t ven_amd_loader_loaded_code_object_get_info(hsa_loaded_code_object_t loaded_code_object,
                                                        hsa_ven_amd_loader_loaded_code_object_info_t attribute,
                                                        void *value) {
  HSAD_CHECK_OPEN();
  if (!value) return HSA_STATUS_ERROR_INVALID_ARGUMENT;
  std::lock_guard<std::recursive_mutex> lock(loader_lock());
  const LoadedCodeObject *o = lco_from(loaded_code_object);
  if (!o) return HSA_STATUS_ERROR_INVALID_CODE_OBJECT;
  switch (attribute) {
    case HSA_VEN_AMD_LOADER_LOADED_CODE_OBJECT_INFO_EXECUTABLE: *static_cast<hsa_executable_t *>(value) = exec_handle(o->exec); break;
    case HSA_VEN_AMD_LOADER_LOADED_CODE_OBJECT_INFO_KIND:
      *static_cast<uint32_t *>(value) = HSA_VEN_AMD_LOADER_LOADED_CODE_OBJECT_KIND_AGENT;
      break;
    case HSA_VEN_AMD_LOADER_LOADED_CODE_OBJECT_INFO_AGENT: *static_cast<hsa_agent_t *>(value) = handle_of(o->agent); break;
    case HSA_VEN_AMD_LOADER_LOADED_CODE_OBJECT_INFO_CODE_OBJECT_STORAGE_TYPE:
      *static_cast<uint32_t *>(value) = HSA_VEN_AMD_LOADER_CODE_OBJECT_STORAGE_TYPE_MEMORY;
      break;
    case HSA_VEN_AMD_LOADER_LOADED_CODE_OBJECT_INFO_CODE_OBJECT_STORAGE_MEMORY_BASE: *static_cast<uint64_t *>(value) = o->elf_base; break;
    case HSA_VEN_AMD_LOADER_LOADED_CODE_OBJECT_INFO_CODE_OBJECT_STORAGE_MEMORY_SIZE: *static_cast<uint64_t *>(value) = o->elf_size; break;
    case HSA_VEN_AMD_LOADER_LOADED_CODE_OBJECT_INFO_CODE_OBJECT_STORAGE_FILE: return HSA_STATUS_ERROR_INVALID_ARGUMENT;
    case HSA_VEN_AMD_LOADER_LOADED_CODE_OBJECT_INFO_LOAD_DELTA: *static_cast<int64_t *>(value) = o->delta; break;
    case HSA_VEN_AMD_LOADER_LOADED_CODE_OBJECT_INFO_LOAD_BASE: *static_cast<uint64_t *>(value) = o->load_base; break;
    case HSA_VEN_AMD_LOADER_LOADED_CODE_OBJECT_INFO_LOAD_SIZE: *static_cast<uint64_t *>(value) = o->load_size; break;
    case HSA_VEN_AMD_LOADER_LOADED_CODE_OBJECT_INFO_URI_LENGTH: *static_cast<uint32_t *>(value) = uint32_t(o->uri.size()); break;
    case HSA_VEN_AMD_LOADER_LOADED_CODE_OBJECT_INFO_URI: memcpy(value, o->uri.data(), o->uri.size()); break;
    default: return HSA_STATUS_ERROR_INVALID_ARGUMENT;
  }
  return HSA_STATUS_SUCCESS;
}

hsa_status_t ven_amd_loader_iterate_executables(hsa_status_t (*callback)(hsa_executable_t, void *), void *data) {
  HSAD_CHECK_OPEN();
  if (!callback) return HSA_STATUS_ERROR_INVALID_ARGUMENT;
  for (Executable *e : executables_snapshot()) {
    hsa_status_t s = callback(exec_handle(e), data);
    if (s != HSA_STATUS_SUCCESS) return s;
  }
  return HSA_STATUS_SUCCESS;
}

// Copies the first `length` bytes of the 1.0<minor> function table into `table`.
hsa_status_t loader_extension_table(uint16_t minor, size_t length, void *table) {
  if (minor > 3 || !table) return HSA_STATUS_ERROR_INVALID_ARGUMENT;
  hsa_ven_amd_loader_1_03_pfn_t t;
  t.hsa_ven_amd_loader_query_host_address = ven_amd_loader_query_host_address;
  t.hsa_ven_amd_loader_query_segment_descriptors = ven_amd_loader_query_segment_descriptors;
  t.hsa_ven_amd_loader_query_executable = ven_amd_loader_query_executable;
  t.hsa_ven_amd_loader_executable_iterate_loaded_code_objects = ven_amd_loader_executable_iterate_loaded_code_objects;
  t.hsa_ven_amd_loader_loaded_code_object_get_info = ven_amd_loader_loaded_code_object_get_info;
  t.hsa_ven_amd_loader_code_object_reader_create_from_file_with_offset_size =
      ven_amd_loader_code_object_reader_create_from_file_with_offset_size;
  t.hsa_ven_amd_loader_iterate_executables = ven_amd_loader_iterate_executables;
  static const size_t kSize[4] = {sizeof(hsa_ven_amd_loader_1_00_pfn_t), sizeof(hsa_ven_amd_loader_1_01_pfn_t),
                                  sizeof(hsa_ven_amd_loader_1_02_pfn_t), sizeof(hsa_ven_amd_loader_1_03_pfn_t)};
  memcpy(table, &t, length < kSize[minor] ? length : kSize[minor]);
  return HSA_STATUS_SUCCESS;
}

}  // namespace hsad
