// hsa_double/system.cpp — system attributes and extensions. The only
// extension offered is the AMD loader (hsa_ven_amd_loader, up to 1.03): no
// finalizer, images, profiler or AQL profile. (CLR refuses a GPU without
// HSA_EXTENSION_IMAGES; a HIP runtime would need it stubbed out to run here.)
// The system timestamp is CLOCK_MONOTONIC in nanoseconds: frequency 1 GHz.
#include <cstdint>
#include <cstring>

#include "impl.h"

namespace hsad {

namespace {

constexpr uint16_t kLoaderMinor = 3;  // hsa_ven_amd_loader 001003

bool valid_extension(uint16_t e) {
  return e <= HSA_EXTENSION_STD_LAST || (e >= HSA_AMD_FIRST_EXTENSION && e <= HSA_AMD_LAST_EXTENSION);
}

}  // namespace

hsa_status_t system_get_info(hsa_system_info_t attribute, void *value) {
  HSAD_CHECK_OPEN();
  if (!value) return HSA_STATUS_ERROR_INVALID_ARGUMENT;
  switch (uint32_t(attribute)) {
    case HSA_SYSTEM_INFO_VERSION_MAJOR: *static_cast<uint16_t *>(value) = 1; break;
    case HSA_SYSTEM_INFO_VERSION_MINOR: *static_cast<uint16_t *>(value) = 1; break;
    case HSA_SYSTEM_INFO_TIMESTAMP: *static_cast<uint64_t *>(value) = now_ns(); break;
    case HSA_SYSTEM_INFO_TIMESTAMP_FREQUENCY: *static_cast<uint64_t *>(value) = 1000000000ull; break;
    case HSA_SYSTEM_INFO_SIGNAL_MAX_WAIT: *static_cast<uint64_t *>(value) = UINT64_MAX; break;
    case HSA_SYSTEM_INFO_ENDIANNESS: *static_cast<hsa_endianness_t *>(value) = HSA_ENDIANNESS_LITTLE; break;
    case HSA_SYSTEM_INFO_MACHINE_MODEL: *static_cast<hsa_machine_model_t *>(value) = HSA_MACHINE_MODEL_LARGE; break;
    case HSA_SYSTEM_INFO_EXTENSIONS: {
      auto *bits = static_cast<uint8_t *>(value);
      memset(bits, 0, 128);
      bits[HSA_EXTENSION_AMD_LOADER / 8] |= uint8_t(1u << (HSA_EXTENSION_AMD_LOADER % 8));
      break;
    }
    case HSA_AMD_SYSTEM_INFO_BUILD_VERSION: *static_cast<const char **>(value) = "hsa_double"; break;
    case HSA_AMD_SYSTEM_INFO_SVM_SUPPORTED: *static_cast<bool *>(value) = true; break;
    case HSA_AMD_SYSTEM_INFO_SVM_ACCESSIBLE_BY_DEFAULT: *static_cast<bool *>(value) = false; break;
    default: return HSA_STATUS_ERROR_INVALID_ARGUMENT;
  }
  return HSA_STATUS_SUCCESS;
}

hsa_status_t system_extension_supported(uint16_t extension, uint16_t major, uint16_t minor, bool *result) {
  HSAD_CHECK_OPEN();
  if (!result || !valid_extension(extension)) return HSA_STATUS_ERROR_INVALID_ARGUMENT;
  *result = extension == HSA_EXTENSION_AMD_LOADER && major == 1 && minor <= kLoaderMinor;
  return HSA_STATUS_SUCCESS;
}

hsa_status_t system_major_extension_supported(uint16_t extension, uint16_t major, uint16_t *minor, bool *result) {
  HSAD_CHECK_OPEN();
  if (!result || !minor || !valid_extension(extension)) return HSA_STATUS_ERROR_INVALID_ARGUMENT;
  *result = extension == HSA_EXTENSION_AMD_LOADER && major == 1;
  *minor = *result ? kLoaderMinor : 0;
  return HSA_STATUS_SUCCESS;
}

// Deprecated form: the table of exactly version major.minor.
hsa_status_t system_get_extension_table(uint16_t extension, uint16_t major, uint16_t minor, void *table) {
  HSAD_CHECK_OPEN();
  if (!table || !valid_extension(extension)) return HSA_STATUS_ERROR_INVALID_ARGUMENT;
  if (extension != HSA_EXTENSION_AMD_LOADER || major != 1 || minor > kLoaderMinor) return HSA_STATUS_ERROR;
  return loader_extension_table(minor, SIZE_MAX, table);
}

hsa_status_t system_get_major_extension_table(uint16_t extension, uint16_t major, size_t length, void *table) {
  HSAD_CHECK_OPEN();
  if (!table || !valid_extension(extension)) return HSA_STATUS_ERROR_INVALID_ARGUMENT;
  if (extension != HSA_EXTENSION_AMD_LOADER || major != 1) return HSA_STATUS_ERROR;
  return loader_extension_table(kLoaderMinor, length, table);
}

hsa_status_t extension_get_name(uint16_t extension, const char **name) {
  HSAD_CHECK_OPEN();
  if (!name) return HSA_STATUS_ERROR_INVALID_ARGUMENT;
  switch (extension) {
    case HSA_EXTENSION_FINALIZER: *name = "HSA_EXTENSION_FINALIZER"; break;
    case HSA_EXTENSION_IMAGES: *name = "HSA_EXTENSION_IMAGES"; break;
    case HSA_EXTENSION_PERFORMANCE_COUNTERS: *name = "HSA_EXTENSION_PERFORMANCE_COUNTERS"; break;
    case HSA_EXTENSION_PROFILING_EVENTS: *name = "HSA_EXTENSION_PROFILING_EVENTS"; break;
    case HSA_EXTENSION_AMD_PROFILER: *name = "HSA_EXTENSION_AMD_PROFILER"; break;
    case HSA_EXTENSION_AMD_LOADER: *name = "HSA_EXTENSION_AMD_LOADER"; break;
    case HSA_EXTENSION_AMD_AQLPROFILE: *name = "HSA_EXTENSION_AMD_AQLPROFILE"; break;
    default: return HSA_STATUS_ERROR_INVALID_ARGUMENT;
  }
  return HSA_STATUS_SUCCESS;
}

}  // namespace hsad
