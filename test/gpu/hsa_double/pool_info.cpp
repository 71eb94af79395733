// hsa_double/pool_info.cpp — what memory pools, regions and pointers report.
// Each GPU agent has a coarse-grained VRAM pool and its LDS (GROUP segment);
// the CPU agent has one fine-grained system pool that is also the kernarg
// pool. As in ROCr, regions and pools are the same objects, and a GPU's
// hsa_agent_iterate_regions also lists the system regions (ROCr's
// GpuAgent::VisitRegion with include_peer; that is how a base-profile program
// finds a kernarg region), while hsa_amd_agent_iterate_memory_pools lists
// only the agent's own pools.
#include <cstring>

#include "impl.h"

namespace hsad {
namespace {

hsa_amd_memory_pool_t pool_handle(const Pool *p) { return {reinterpret_cast<uint64_t>(p)}; }

}  // namespace

hsa_status_t amd_agent_iterate_memory_pools(hsa_agent_t agent, hsa_status_t (*callback)(hsa_amd_memory_pool_t, void *),
                                            void *data) {
  HSAD_CHECK_OPEN();
  Agent *a = agent_from(agent);
  if (!a) return HSA_STATUS_ERROR_INVALID_AGENT;
  if (!callback) return HSA_STATUS_ERROR_INVALID_ARGUMENT;
  for (auto &p : a->pools) {
    hsa_status_t s = callback(pool_handle(p.get()), data);
    if (s != HSA_STATUS_SUCCESS) return s;
  }
  return HSA_STATUS_SUCCESS;
}

hsa_status_t agent_iterate_regions(hsa_agent_t agent, hsa_status_t (*callback)(hsa_region_t, void *), void *data) {
  HSAD_CHECK_OPEN();
  Agent *a = agent_from(agent);
  if (!a) return HSA_STATUS_ERROR_INVALID_AGENT;
  if (!callback) return HSA_STATUS_ERROR_INVALID_ARGUMENT;
  std::vector<Pool *> list;
  for (auto &p : a->pools) list.push_back(p.get());
  if (a->type == HSA_DEVICE_TYPE_GPU)
    for (Agent *cpu : agents())
      if (cpu->type == HSA_DEVICE_TYPE_CPU)
        for (auto &p : cpu->pools) list.push_back(p.get());
  for (Pool *p : list) {
    hsa_status_t s = callback({reinterpret_cast<uint64_t>(p)}, data);
    if (s != HSA_STATUS_SUCCESS) return s;
  }
  return HSA_STATUS_SUCCESS;
}

hsa_status_t amd_memory_pool_get_info(hsa_amd_memory_pool_t pool, hsa_amd_memory_pool_info_t attribute, void *value) {
  HSAD_CHECK_OPEN();
  const Pool *p = pool_from(pool.handle);
  if (!p) return hsa_status_t(HSA_STATUS_ERROR_INVALID_MEMORY_POOL);
  if (!value) return HSA_STATUS_ERROR_INVALID_ARGUMENT;
  switch (attribute) {
    case HSA_AMD_MEMORY_POOL_INFO_SEGMENT: *static_cast<hsa_amd_segment_t *>(value) = p->segment; break;
    case HSA_AMD_MEMORY_POOL_INFO_GLOBAL_FLAGS: *static_cast<uint32_t *>(value) = p->flags; break;
    case HSA_AMD_MEMORY_POOL_INFO_SIZE: *static_cast<size_t *>(value) = p->size; break;
    case HSA_AMD_MEMORY_POOL_INFO_RUNTIME_ALLOC_ALLOWED: *static_cast<bool *>(value) = p->alloc_allowed; break;
    case HSA_AMD_MEMORY_POOL_INFO_RUNTIME_ALLOC_GRANULE:
    case HSA_AMD_MEMORY_POOL_INFO_RUNTIME_ALLOC_ALIGNMENT:
      *static_cast<size_t *>(value) = p->alloc_allowed ? kGranule : 0;
      break;
    case HSA_AMD_MEMORY_POOL_INFO_ACCESSIBLE_BY_ALL: *static_cast<bool *>(value) = false; break;
    case HSA_AMD_MEMORY_POOL_INFO_ALLOC_MAX_SIZE: *static_cast<size_t *>(value) = p->alloc_allowed ? p->size : 0; break;
    default: return HSA_STATUS_ERROR_INVALID_ARGUMENT;
  }
  return HSA_STATUS_SUCCESS;
}

hsa_status_t region_get_info(hsa_region_t region, hsa_region_info_t attribute, void *value) {
  HSAD_CHECK_OPEN();
  const Pool *p = pool_from(region.handle);
  if (!p) return HSA_STATUS_ERROR_INVALID_REGION;
  if (!value) return HSA_STATUS_ERROR_INVALID_ARGUMENT;
  switch (attribute) {
    case HSA_REGION_INFO_SEGMENT:  // hsa_region_segment_t and hsa_amd_segment_t agree on 0..3
      *static_cast<hsa_region_segment_t *>(value) = hsa_region_segment_t(p->segment);
      return HSA_STATUS_SUCCESS;
    case HSA_REGION_INFO_GLOBAL_FLAGS:  // HSA_REGION_GLOBAL_FLAG_* has the pool flags' bit values
      *static_cast<uint32_t *>(value) = p->flags;
      return HSA_STATUS_SUCCESS;
    case HSA_REGION_INFO_ALLOC_MAX_PRIVATE_WORKGROUP_SIZE: *static_cast<uint32_t *>(value) = 0; return HSA_STATUS_SUCCESS;
    case HSA_REGION_INFO_SIZE:
    case HSA_REGION_INFO_ALLOC_MAX_SIZE:
    case HSA_REGION_INFO_RUNTIME_ALLOC_ALLOWED:
    case HSA_REGION_INFO_RUNTIME_ALLOC_GRANULE:
    case HSA_REGION_INFO_RUNTIME_ALLOC_ALIGNMENT: {
      // Same meaning and type as the pool attributes with these numbers.
      hsa_amd_memory_pool_info_t a = attribute == HSA_REGION_INFO_SIZE ? HSA_AMD_MEMORY_POOL_INFO_SIZE
                                     : attribute == HSA_REGION_INFO_ALLOC_MAX_SIZE
                                         ? HSA_AMD_MEMORY_POOL_INFO_ALLOC_MAX_SIZE
                                         : hsa_amd_memory_pool_info_t(attribute);
      return amd_memory_pool_get_info({region.handle}, a, value);
    }
  }
  return HSA_STATUS_ERROR_INVALID_ARGUMENT;
}

hsa_status_t amd_agent_memory_pool_get_info(hsa_agent_t agent, hsa_amd_memory_pool_t pool,
                                            hsa_amd_agent_memory_pool_info_t attribute, void *value) {
  HSAD_CHECK_OPEN();
  const Agent *a = agent_from(agent);
  if (!a) return HSA_STATUS_ERROR_INVALID_AGENT;
  const Pool *p = pool_from(pool.handle);
  if (!p) return hsa_status_t(HSA_STATUS_ERROR_INVALID_MEMORY_POOL);
  if (!value) return HSA_STATUS_ERROR_INVALID_ARGUMENT;
  switch (attribute) {
    case HSA_AMD_AGENT_MEMORY_POOL_INFO_ACCESS:
      *static_cast<hsa_amd_memory_pool_access_t *>(value) = pool_access(a, p);
      return HSA_STATUS_SUCCESS;
    case HSA_AMD_AGENT_MEMORY_POOL_INFO_NUM_LINK_HOPS:
      *static_cast<uint32_t *>(value) = p->owner == a ? 0 : 1;
      return HSA_STATUS_SUCCESS;
    case HSA_AMD_AGENT_MEMORY_POOL_INFO_LINK_INFO: {  // one PCIe hop between any two agents
      if (p->owner == a) return HSA_STATUS_SUCCESS;
      hsa_amd_memory_pool_link_info_t link;
      memset(&link, 0, sizeof link);
      link.link_type = HSA_AMD_LINK_INFO_TYPE_PCIE;
      link.atomic_support_32bit = link.atomic_support_64bit = true;
      link.numa_distance = 20;
      memcpy(value, &link, sizeof link);
      return HSA_STATUS_SUCCESS;
    }
  }
  return HSA_STATUS_ERROR_INVALID_ARGUMENT;
}

// For VRAM, hostBaseAddress equals agentBaseAddress, as ROCr reports a KFD
// allocation's single virtual address; the host still cannot dereference it.
hsa_status_t amd_pointer_info(const void *ptr, hsa_amd_pointer_info_t *info, void *(*alloc)(size_t),
                              uint32_t *num_agents_accessible, hsa_agent_t **accessible) {
  HSAD_CHECK_OPEN();
  if (!info || (accessible && !alloc)) return HSA_STATUS_ERROR_INVALID_ARGUMENT;
  hsa_amd_pointer_info_t out;
  memset(&out, 0, sizeof out);
  out.size = uint32_t(info->size < sizeof out ? info->size : sizeof out);
  out.type = HSA_EXT_POINTER_TYPE_UNKNOWN;
  Allocation a;
  bool found = ptr && mem_find(reinterpret_cast<uint64_t>(ptr), 1, &a);
  if (found) {
    out.type = HSA_EXT_POINTER_TYPE_HSA;
    out.agentBaseAddress = out.hostBaseAddress = reinterpret_cast<void *>(a.base);
    out.sizeInBytes = a.size;
    out.agentOwner = handle_of(a.pool->owner);
    out.global_flags = a.pool->flags;
  }
  memcpy(info, &out, out.size);
  if (num_agents_accessible) *num_agents_accessible = found ? uint32_t(a.allowed.size()) : 0;
  if (accessible) {
    *accessible = nullptr;
    if (found && !a.allowed.empty()) {
      *accessible = static_cast<hsa_agent_t *>(alloc(sizeof(hsa_agent_t) * a.allowed.size()));
      if (!*accessible) return HSA_STATUS_ERROR_OUT_OF_RESOURCES;
      for (size_t i = 0; i < a.allowed.size(); i++) (*accessible)[i] = handle_of(a.allowed[i]);
    }
  }
  return HSA_STATUS_SUCCESS;
}

}  // namespace hsad
