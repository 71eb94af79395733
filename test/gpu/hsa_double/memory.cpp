// hsa_double/memory.cpp — allocations from memory pools and regions, and the
// address lookups everything else uses (device views, access checks).
//
// Every allocation is recorded in one map keyed by base address, under
// g_lock. Sizes are rounded up to the 4 KiB granule, and the whole rounded
// range counts as allocated (as the pages would on hardware). System-pool
// memory is ordinary zeroed host memory (host and "device" use the same
// address); VRAM comes from the owning GPU's arena (vram.cpp). Which agents
// may access an allocation is recorded (pool owner, plus
// hsa_amd_agents_allow_access) but not enforced: hsa_double_access_allowed
// lets a simulated device check it.
#include <cstdlib>
#include <cstring>

#include "impl.h"

namespace hsad {
namespace {

std::mutex g_lock;
std::map<uint64_t, Allocation> g_allocs;  // base -> allocation

// The allocation holding [addr, addr + max(n,1)), or end(). Needs g_lock.
std::map<uint64_t, Allocation>::iterator find_locked(uint64_t addr, uint64_t n) {
  auto it = g_allocs.upper_bound(addr);
  if (it == g_allocs.begin()) return g_allocs.end();
  --it;
  uint64_t off = addr - it->first;
  if (off >= it->second.size || (n ? n : 1) > it->second.size - off) return g_allocs.end();
  return it;
}

void release(const Allocation &a) {
  if (a.pool->owner->vram) arena_free(a.pool->owner->vram, a.base, a.size);
  else free(reinterpret_cast<void *>(a.base));
}

}  // namespace

// ROCr's default access of `agent` to memory from `pool`.
hsa_amd_memory_pool_access_t pool_access(const Agent *agent, const Pool *pool) {
  if (pool->owner == agent) return HSA_AMD_MEMORY_POOL_ACCESS_ALLOWED_BY_DEFAULT;
  if (pool->segment != HSA_AMD_SEGMENT_GLOBAL) return HSA_AMD_MEMORY_POOL_ACCESS_NEVER_ALLOWED;
  // VRAM without large BAR: the host can never map it (the double's model).
  if (pool->owner->type == HSA_DEVICE_TYPE_GPU && agent->type == HSA_DEVICE_TYPE_CPU)
    return HSA_AMD_MEMORY_POOL_ACCESS_NEVER_ALLOWED;
  return HSA_AMD_MEMORY_POOL_ACCESS_DISALLOWED_BY_DEFAULT;
}

Pool *pool_from(uint64_t handle) {
  for (Agent *a : agents())
    for (auto &p : a->pools)
      if (handle == reinterpret_cast<uint64_t>(p.get())) return p.get();
  return nullptr;
}

hsa_status_t mem_alloc(Pool *pool, uint64_t size, bool internal, uint64_t *base) {
  if (!pool->alloc_allowed || size > pool->size) return HSA_STATUS_ERROR_INVALID_ALLOCATION;
  uint64_t rounded = (size + kGranule - 1) & ~(kGranule - 1);
  uint64_t addr = 0;
  if (pool->owner->vram) {
    addr = arena_alloc(pool->owner->vram, rounded);
  } else if (void *p = aligned_alloc(kGranule, rounded)) {
    memset(p, 0, rounded);  // fresh pages from the OS are zero too
    addr = reinterpret_cast<uint64_t>(p);
  }
  if (!addr) return HSA_STATUS_ERROR_OUT_OF_RESOURCES;
  Allocation a;
  a.base = addr;
  a.size = rounded;
  a.pool = pool;
  a.internal = internal;
  a.allowed.push_back(pool->owner);
  std::lock_guard<std::mutex> lock(g_lock);
  g_allocs[addr] = std::move(a);
  *base = addr;
  return HSA_STATUS_SUCCESS;
}

hsa_status_t mem_free(uint64_t base, bool internal) {
  Allocation a;
  {
    std::lock_guard<std::mutex> lock(g_lock);
    auto it = g_allocs.find(base);
    if (it == g_allocs.end() || it->second.internal != internal) return HSA_STATUS_ERROR_INVALID_ALLOCATION;
    a = std::move(it->second);
    g_allocs.erase(it);
  }
  release(a);
  return HSA_STATUS_SUCCESS;
}

bool mem_find(uint64_t addr, uint64_t n, Allocation *out) {
  std::lock_guard<std::mutex> lock(g_lock);
  auto it = find_locked(addr, n);
  if (it == g_allocs.end()) return false;
  *out = it->second;
  return true;
}

void *mem_view(uint64_t addr, uint64_t n) {
  std::lock_guard<std::mutex> lock(g_lock);
  auto it = find_locked(addr, n);
  if (it == g_allocs.end()) return nullptr;
  const Arena *vram = it->second.pool->owner->vram;
  return vram ? static_cast<void *>(arena_rw(vram, addr)) : reinterpret_cast<void *>(addr);
}

bool mem_in_vram(uint64_t addr) {
  for (Agent *a : agents())
    if (a->vram && arena_contains(a->vram, addr)) return true;
  return false;
}

void mem_release_all() {
  std::map<uint64_t, Allocation> all;
  {
    std::lock_guard<std::mutex> lock(g_lock);
    all.swap(g_allocs);
  }
  for (auto &kv : all) release(kv.second);
}

// ---- API ------------------------------------------------------------------------

hsa_status_t amd_memory_pool_allocate(hsa_amd_memory_pool_t pool, size_t size, uint32_t flags, void **ptr) {
  HSAD_CHECK_OPEN();
  (void)flags;  // HSA_AMD_MEMORY_POOL_PCIE_FLAG and friends change nothing here
  Pool *p = pool_from(pool.handle);
  if (!p) return hsa_status_t(HSA_STATUS_ERROR_INVALID_MEMORY_POOL);
  if (!ptr || size == 0) return HSA_STATUS_ERROR_INVALID_ARGUMENT;
  uint64_t base;
  hsa_status_t s = mem_alloc(p, size, false, &base);
  if (s == HSA_STATUS_SUCCESS) *ptr = reinterpret_cast<void *>(base);
  return s;
}

// Undefined in ROCr for a pointer it did not return; here INVALID_ALLOCATION.
hsa_status_t amd_memory_pool_free(void *ptr) {
  HSAD_CHECK_OPEN();
  if (!ptr) return HSA_STATUS_SUCCESS;
  return mem_free(reinterpret_cast<uint64_t>(ptr), false);
}

hsa_status_t memory_allocate(hsa_region_t region, size_t size, void **ptr) {
  HSAD_CHECK_OPEN();
  Pool *p = pool_from(region.handle);  // regions and pools are the same objects, as in ROCr
  if (!p) return HSA_STATUS_ERROR_INVALID_REGION;
  if (!ptr || size == 0) return HSA_STATUS_ERROR_INVALID_ARGUMENT;
  uint64_t base;
  hsa_status_t s = mem_alloc(p, size, false, &base);
  if (s == HSA_STATUS_SUCCESS) *ptr = reinterpret_cast<void *>(base);
  return s;
}

hsa_status_t memory_free(void *ptr) { return amd_memory_pool_free(ptr); }

// Nothing to pin here: registering host memory is accepted and changes nothing.
hsa_status_t memory_register(void *ptr, size_t size) {
  HSAD_CHECK_OPEN();
  if (!ptr && size) return HSA_STATUS_ERROR_INVALID_ARGUMENT;
  return HSA_STATUS_SUCCESS;
}

hsa_status_t memory_deregister(void *, size_t) {
  HSAD_CHECK_OPEN();
  return HSA_STATUS_SUCCESS;
}

hsa_status_t memory_assign_agent(void *ptr, hsa_agent_t agent, hsa_access_permission_t) {
  HSAD_CHECK_OPEN();
  if (!agent_from(agent)) return HSA_STATUS_ERROR_INVALID_AGENT;
  if (!ptr) return HSA_STATUS_ERROR_INVALID_ARGUMENT;
  return HSA_STATUS_SUCCESS;
}

hsa_status_t amd_agents_allow_access(uint32_t num_agents, const hsa_agent_t *list, const uint32_t *flags,
                                     const void *ptr) {
  HSAD_CHECK_OPEN();
  if (num_agents == 0 || !list || flags || !ptr) return HSA_STATUS_ERROR_INVALID_ARGUMENT;
  std::vector<Agent *> add;
  for (uint32_t i = 0; i < num_agents; i++) {
    Agent *a = agent_from(list[i]);
    if (!a) return HSA_STATUS_ERROR_INVALID_AGENT;
    add.push_back(a);
  }
  std::lock_guard<std::mutex> lock(g_lock);
  auto it = g_allocs.find(reinterpret_cast<uint64_t>(ptr));
  if (it == g_allocs.end()) return HSA_STATUS_ERROR_INVALID_ARGUMENT;
  for (Agent *a : add)
    if (pool_access(a, it->second.pool) == HSA_AMD_MEMORY_POOL_ACCESS_NEVER_ALLOWED)
      return HSA_STATUS_ERROR_INVALID_ARGUMENT;  // "allocated from an inaccessible pool"
  for (Agent *a : add) {
    bool known = false;
    for (Agent *b : it->second.allowed) known |= a == b;
    if (!known) it->second.allowed.push_back(a);
  }
  return HSA_STATUS_SUCCESS;
}

}  // namespace hsad

extern "C" HSAD_EXPORT void *hsa_double_device_view(uint64_t addr, size_t n) { return hsad::mem_view(addr, n); }

extern "C" HSAD_EXPORT int hsa_double_access_allowed(hsa_agent_t agent, uint64_t addr, size_t n) {
  hsad::Allocation a;
  if (!hsad::mem_find(addr, n, &a)) return 0;
  for (hsad::Agent *b : a.allowed)
    if (hsad::handle_of(b).handle == agent.handle) return 1;
  return 0;
}
