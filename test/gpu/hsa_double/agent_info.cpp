// hsa_double/agent_info.cpp — hsa_agent_get_info and the ISA queries.
// Sizes and limits are ROCr's for a dGPU of the GCN/CDNA family (wave64,
// 1024-item workgroups, AQL queues of 64..131072 packets, BASE profile);
// hardware counts (CUs, clocks, memory width) are plausible constants only a
// real device could confirm. Unknown attributes return
// HSA_STATUS_ERROR_INVALID_ARGUMENT, as ROCr's do.
#include <cstdio>
#include <cstring>

#include "impl.h"

namespace hsad {
namespace {

constexpr uint32_t kQueueMinPackets = 0x40;     // ROCr's minAqlSize_
constexpr uint32_t kQueueMaxPackets = 0x20000;  // ROCr's maxAqlSize_

void copy_name(void *value, const std::string &s, size_t field) {
  memset(value, 0, field);
  memcpy(value, s.data(), s.size() < field - 1 ? s.size() : field - 1);
}

// Attributes both agent kinds answer; false if `attribute` is not one of them.
bool common_info(const Agent *a, uint32_t attribute, void *value) {
  const bool gpu = a->type == HSA_DEVICE_TYPE_GPU;
  switch (attribute) {
    case HSA_AGENT_INFO_NAME: copy_name(value, a->name, 64); return true;
    case HSA_AGENT_INFO_VENDOR_NAME: copy_name(value, gpu ? "AMD" : "CPU", 64); return true;
    case HSA_AGENT_INFO_FEATURE:
      *static_cast<hsa_agent_feature_t *>(value) = gpu ? HSA_AGENT_FEATURE_KERNEL_DISPATCH : HSA_AGENT_FEATURE_AGENT_DISPATCH;
      return true;
    case HSA_AGENT_INFO_MACHINE_MODEL: *static_cast<hsa_machine_model_t *>(value) = HSA_MACHINE_MODEL_LARGE; return true;
    case HSA_AGENT_INFO_PROFILE: *static_cast<hsa_profile_t *>(value) = gpu ? HSA_PROFILE_BASE : HSA_PROFILE_FULL; return true;
    case HSA_AGENT_INFO_DEFAULT_FLOAT_ROUNDING_MODE:
      *static_cast<hsa_default_float_rounding_mode_t *>(value) = HSA_DEFAULT_FLOAT_ROUNDING_MODE_NEAR;
      return true;
    case HSA_AGENT_INFO_BASE_PROFILE_DEFAULT_FLOAT_ROUNDING_MODES:
      *static_cast<hsa_default_float_rounding_mode_t *>(value) = HSA_DEFAULT_FLOAT_ROUNDING_MODE_NEAR;
      return true;
    case HSA_AGENT_INFO_FAST_F16_OPERATION: *static_cast<bool *>(value) = gpu; return true;
    case HSA_AGENT_INFO_WAVEFRONT_SIZE: *static_cast<uint32_t *>(value) = gpu ? 64 : 0; return true;
    case HSA_AGENT_INFO_WORKGROUP_MAX_DIM: {
      uint16_t d = gpu ? 1024 : 0, dims[3] = {d, d, d};
      memcpy(value, dims, sizeof dims);
      return true;
    }
    case HSA_AGENT_INFO_WORKGROUP_MAX_SIZE: *static_cast<uint32_t *>(value) = gpu ? 1024 : 0; return true;
    case HSA_AGENT_INFO_GRID_MAX_DIM: {
      uint32_t d = gpu ? UINT32_MAX : 0;
      *static_cast<hsa_dim3_t *>(value) = {d, d, d};
      return true;
    }
    case HSA_AGENT_INFO_GRID_MAX_SIZE: *static_cast<uint32_t *>(value) = gpu ? UINT32_MAX : 0; return true;
    case HSA_AGENT_INFO_FBARRIER_MAX_SIZE: *static_cast<uint32_t *>(value) = gpu ? 32 : 0; return true;
    case HSA_AGENT_INFO_QUEUES_MAX: *static_cast<uint32_t *>(value) = gpu ? 128 : 0; return true;
    case HSA_AGENT_INFO_QUEUE_MIN_SIZE: *static_cast<uint32_t *>(value) = gpu ? kQueueMinPackets : 0; return true;
    case HSA_AGENT_INFO_QUEUE_MAX_SIZE: *static_cast<uint32_t *>(value) = gpu ? kQueueMaxPackets : 0; return true;
    case HSA_AGENT_INFO_QUEUE_TYPE: *static_cast<hsa_queue_type32_t *>(value) = HSA_QUEUE_TYPE_MULTI; return true;
    case HSA_AGENT_INFO_NODE: *static_cast<uint32_t *>(value) = a->node; return true;
    case HSA_AGENT_INFO_DEVICE: *static_cast<hsa_device_type_t *>(value) = a->type; return true;
    case HSA_AGENT_INFO_CACHE_SIZE: {
      uint32_t gpu_caches[4] = {16 << 10, 8 << 20, 0, 0}, cpu_caches[4] = {32 << 10, 512 << 10, 32 << 20, 0};
      memcpy(value, gpu ? gpu_caches : cpu_caches, sizeof gpu_caches);
      return true;
    }
    case HSA_AGENT_INFO_ISA: {
      hsa_isa_t isa = {0};
      if (gpu) isa_from_name(a->isa.full_name.c_str(), &isa);
      *static_cast<hsa_isa_t *>(value) = isa;
      return true;
    }
    case HSA_AGENT_INFO_EXTENSIONS: memset(value, 0, 128); return true;  // no agent extensions
    case HSA_AGENT_INFO_VERSION_MAJOR: *static_cast<uint16_t *>(value) = 1; return true;
    case HSA_AGENT_INFO_VERSION_MINOR: *static_cast<uint16_t *>(value) = 1; return true;
    case HSA_AMD_AGENT_INFO_DRIVER_NODE_ID: *static_cast<uint32_t *>(value) = a->node; return true;
    case HSA_AMD_AGENT_INFO_CACHELINE_SIZE: *static_cast<uint32_t *>(value) = 64; return true;
    case HSA_AMD_AGENT_INFO_PRODUCT_NAME: copy_name(value, gpu ? a->isa.target->product : a->name, 64); return true;
    case HSA_AMD_AGENT_INFO_BDFID: *static_cast<uint32_t *>(value) = a->node << 8; return true;
    case HSA_AMD_AGENT_INFO_DOMAIN: *static_cast<uint32_t *>(value) = 0; return true;
    case HSA_AMD_AGENT_INFO_UUID: {
      char uuid[21];
      snprintf(uuid, sizeof uuid, "%s-%016llx", gpu ? "GPU" : "CPU", 0x6873616400000000ull | a->node);
      copy_name(value, uuid, sizeof uuid);
      return true;
    }
    default: return false;
  }
}

// AMD attributes only GPU agents answer.
bool gpu_info(const Agent *a, uint32_t attribute, void *value) {
  const Target *t = a->isa.target;
  uint32_t u32;
  switch (attribute) {
    case HSA_AMD_AGENT_INFO_CHIP_ID: u32 = t->chip_id; break;
    case HSA_AMD_AGENT_INFO_COMPUTE_UNIT_COUNT: u32 = t->compute_units; break;
    case HSA_AMD_AGENT_INFO_COOPERATIVE_COMPUTE_UNIT_COUNT: u32 = t->compute_units; break;
    case HSA_AMD_AGENT_INFO_MAX_CLOCK_FREQUENCY: u32 = 1700; break;  // MHz
    case HSA_AMD_AGENT_INFO_MAX_ADDRESS_WATCH_POINTS: u32 = 4; break;
    case HSA_AMD_AGENT_INFO_MEMORY_WIDTH: u32 = 4096; break;
    case HSA_AMD_AGENT_INFO_MEMORY_MAX_FREQUENCY: u32 = 1600; break;  // MHz
    case HSA_AMD_AGENT_INFO_MAX_WAVES_PER_CU: u32 = 32; break;
    case HSA_AMD_AGENT_INFO_NUM_SIMDS_PER_CU: u32 = 4; break;
    case HSA_AMD_AGENT_INFO_NUM_SHADER_ENGINES: u32 = 8; break;
    case HSA_AMD_AGENT_INFO_NUM_SHADER_ARRAYS_PER_SE: u32 = 1; break;
    case HSA_AMD_AGENT_INFO_ASIC_REVISION: u32 = 1; break;
    case HSA_AMD_AGENT_INFO_HDP_FLUSH: memset(value, 0, sizeof(hsa_amd_hdp_flush_t)); return true;  // no MMIO here
    case HSA_AMD_AGENT_INFO_COOPERATIVE_QUEUES: *static_cast<bool *>(value) = true; return true;  // NumGws != 0
    case HSA_AMD_AGENT_INFO_SVM_DIRECT_HOST_ACCESS: *static_cast<bool *>(value) = false; return true;
    default: return false;
  }
  *static_cast<uint32_t *>(value) = u32;
  return true;
}

}  // namespace

hsa_status_t agent_get_info(hsa_agent_t agent, hsa_agent_info_t attribute, void *value) {
  HSAD_CHECK_OPEN();
  const Agent *a = agent_from(agent);
  if (!a) return HSA_STATUS_ERROR_INVALID_AGENT;
  if (!value) return HSA_STATUS_ERROR_INVALID_ARGUMENT;
  if (common_info(a, uint32_t(attribute), value)) return HSA_STATUS_SUCCESS;
  if (a->type == HSA_DEVICE_TYPE_GPU && gpu_info(a, uint32_t(attribute), value)) return HSA_STATUS_SUCCESS;
  return HSA_STATUS_ERROR_INVALID_ARGUMENT;
}

hsa_status_t isa_get_info_alt(hsa_isa_t isa, hsa_isa_info_t attribute, void *value) {
  HSAD_CHECK_OPEN();
  const Isa *i = isa_from(isa);
  if (!i) return HSA_STATUS_ERROR_INVALID_ISA;
  if (!value) return HSA_STATUS_ERROR_INVALID_ARGUMENT;
  switch (attribute) {
    case HSA_ISA_INFO_NAME_LENGTH:  // ROCr counts the terminating NUL
      *static_cast<uint32_t *>(value) = uint32_t(i->full_name.size() + 1);
      return HSA_STATUS_SUCCESS;
    case HSA_ISA_INFO_NAME: memcpy(value, i->full_name.c_str(), i->full_name.size() + 1); return HSA_STATUS_SUCCESS;
    case HSA_ISA_INFO_CALL_CONVENTION_COUNT: *static_cast<uint32_t *>(value) = 1; return HSA_STATUS_SUCCESS;
    case HSA_ISA_INFO_CALL_CONVENTION_INFO_WAVEFRONT_SIZE: *static_cast<uint32_t *>(value) = 64; return HSA_STATUS_SUCCESS;
    case HSA_ISA_INFO_CALL_CONVENTION_INFO_WAVEFRONTS_PER_COMPUTE_UNIT:
      *static_cast<uint32_t *>(value) = 40;
      return HSA_STATUS_SUCCESS;
    case HSA_ISA_INFO_MACHINE_MODELS: {
      bool models[2] = {false, true};  // small, large
      memcpy(value, models, sizeof models);
      return HSA_STATUS_SUCCESS;
    }
    case HSA_ISA_INFO_PROFILES: {
      bool profiles[2] = {true, false};  // base, full
      memcpy(value, profiles, sizeof profiles);
      return HSA_STATUS_SUCCESS;
    }
    case HSA_ISA_INFO_DEFAULT_FLOAT_ROUNDING_MODES:
    case HSA_ISA_INFO_BASE_PROFILE_DEFAULT_FLOAT_ROUNDING_MODES: {
      bool modes[3] = {false, false, true};  // default, zero, near
      memcpy(value, modes, sizeof modes);
      return HSA_STATUS_SUCCESS;
    }
    case HSA_ISA_INFO_FAST_F16_OPERATION: *static_cast<bool *>(value) = true; return HSA_STATUS_SUCCESS;
    case HSA_ISA_INFO_WORKGROUP_MAX_DIM: {
      uint16_t dims[3] = {1024, 1024, 1024};
      memcpy(value, dims, sizeof dims);
      return HSA_STATUS_SUCCESS;
    }
    case HSA_ISA_INFO_WORKGROUP_MAX_SIZE: *static_cast<uint32_t *>(value) = 1024; return HSA_STATUS_SUCCESS;
    case HSA_ISA_INFO_GRID_MAX_DIM: *static_cast<hsa_dim3_t *>(value) = {UINT32_MAX, UINT32_MAX, UINT32_MAX}; return HSA_STATUS_SUCCESS;
    case HSA_ISA_INFO_GRID_MAX_SIZE: *static_cast<uint64_t *>(value) = UINT64_MAX; return HSA_STATUS_SUCCESS;
    case HSA_ISA_INFO_FBARRIER_MAX_SIZE: *static_cast<uint32_t *>(value) = 32; return HSA_STATUS_SUCCESS;
  }
  return HSA_STATUS_ERROR_INVALID_ARGUMENT;
}

// Deprecated form: only call convention 0 exists.
hsa_status_t isa_get_info(hsa_isa_t isa, hsa_isa_info_t attribute, uint32_t index, void *value) {
  if (index != 0 && (attribute == HSA_ISA_INFO_CALL_CONVENTION_INFO_WAVEFRONT_SIZE ||
                     attribute == HSA_ISA_INFO_CALL_CONVENTION_INFO_WAVEFRONTS_PER_COMPUTE_UNIT))
    return HSA_STATUS_ERROR_INVALID_INDEX;
  return isa_get_info_alt(isa, attribute, value);
}

hsa_status_t agent_extension_supported(uint16_t extension, hsa_agent_t agent, uint16_t, uint16_t, bool *result) {
  HSAD_CHECK_OPEN();
  (void)extension;
  if (!agent_from(agent)) return HSA_STATUS_ERROR_INVALID_AGENT;
  if (!result) return HSA_STATUS_ERROR_INVALID_ARGUMENT;
  *result = false;  // the double offers no agent extensions (no images, no profiler)
  return HSA_STATUS_SUCCESS;
}

hsa_status_t agent_major_extension_supported(uint16_t extension, hsa_agent_t agent, uint16_t, uint16_t *minor,
                                             bool *result) {
  HSAD_CHECK_OPEN();
  (void)extension;
  if (!agent_from(agent)) return HSA_STATUS_ERROR_INVALID_AGENT;
  if (!result || !minor) return HSA_STATUS_ERROR_INVALID_ARGUMENT;
  *result = false;
  *minor = 0;
  return HSA_STATUS_SUCCESS;
}

}  // namespace hsad
