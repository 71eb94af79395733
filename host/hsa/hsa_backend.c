/* ldsan HSA tools library: one ldsan_backend per GPU agent. Device memory
 * (code objects, the LDS backing store in the agent's coarse-grained pool,
 * sized by its compute units) is VRAM the host cannot dereference, so
 * reads and writes go through hsa_memory_copy via a bounce buffer in
 * fine-grained system memory (which every agent may access); host memory (the
 * ASan shadow, the report channels) is read with ldsan_host_read_self, which fails
 * cleanly instead of faulting on an address that is not mapped. Report
 * channels are fine-grained system memory allowed for every GPU agent.
 * Threading: agents are found once in OnLoad; the bounce buffer has a lock. */
#define _GNU_SOURCE
#include <pthread.h>
#include <stdio.h>
#include <string.h>

#include "hsa_tool.h"

#define MAX_AGENTS 64
#define BOUNCE_SIZE (64u << 10)  /* bytes per hsa_memory_copy */

static ldsan_hsa_agent agents[MAX_AGENTS];
static hsa_agent_t gpu_handles[MAX_AGENTS];
static int agent_count;
static hsa_amd_memory_pool_t system_pool;
static int have_system_pool;
static pthread_mutex_t bounce_mu = PTHREAD_MUTEX_INITIALIZER;
static void *bounce;

/* Copies n bytes through the bounce buffer; to_device picks the direction. */
static int copy_via_bounce(uint64_t device_addr, void *host, size_t n, int to_device) {
  if (!bounce) return -1;
  int rc = 0;
  pthread_mutex_lock(&bounce_mu);
  for (size_t done = 0; done < n && rc == 0;) {
    size_t chunk = n - done < BOUNCE_SIZE ? n - done : BOUNCE_SIZE;
    void *dev = (void *)(uintptr_t)(device_addr + done);
    if (to_device) {
      memcpy(bounce, (char *)host + done, chunk);
      rc = ldsan_hsa.memory_copy(dev, bounce, chunk) == HSA_STATUS_SUCCESS ? 0 : -1;
    } else {
      rc = ldsan_hsa.memory_copy(bounce, dev, chunk) == HSA_STATUS_SUCCESS ? 0 : -1;
      if (rc == 0) memcpy((char *)host + done, bounce, chunk);
    }
    done += chunk;
  }
  pthread_mutex_unlock(&bounce_mu);
  return rc;
}

static int agent_read(void *ctx, uint64_t addr, void *dst, size_t n) {
  (void)ctx;
  if (n == 0) return 0;
  if (ldsan_host_read_self(addr, dst, n) == 0) return 0;
  return copy_via_bounce(addr, dst, n, 0);
}

static int agent_write(void *ctx, uint64_t addr, const void *src, size_t n) {
  (void)ctx;
  return n == 0 ? 0 : copy_via_bounce(addr, (void *)src, n, 1);
}

/* Fine-grained system memory, zeroed, that every GPU agent may access. */
static void *alloc_system(size_t n) {
  if (!have_system_pool) return NULL;
  void *p = NULL;
  if (ldsan_hsa.amd_memory_pool_allocate(system_pool, n, 0, &p) != HSA_STATUS_SUCCESS || !p) return NULL;
  if (ldsan_hsa.amd_agents_allow_access((uint32_t)agent_count, gpu_handles, NULL, p) != HSA_STATUS_SUCCESS) {
    ldsan_hsa.amd_memory_pool_free(p);
    return NULL;
  }
  memset(p, 0, n);
  return p;
}

static void *agent_alloc_shared(void *ctx, size_t n, uint64_t *device_addr) {
  (void)ctx;
  void *p = alloc_system(n);
  if (p) *device_addr = (uint64_t)(uintptr_t)p;  /* system memory: one address for host and agents */
  return p;
}

static void agent_free_shared(void *ctx, void *p) {
  (void)ctx;
  if (p) ldsan_hsa.amd_memory_pool_free(p);
}

/* The agent's own memory, zeroed: the LDS backing store (hsa_amd_memory_fill
 * runs on the agent). The host reaches it through agent_read/agent_write. */
static void *agent_alloc_device(void *ctx, size_t n, uint64_t *device_addr) {
  ldsan_hsa_agent *a = ctx;
  void *p = NULL;
  n = (n + 3u) & ~(size_t)3u;
  if (!a->have_vram || ldsan_hsa.amd_memory_pool_allocate(a->vram, n, 0, &p) != HSA_STATUS_SUCCESS || !p)
    return NULL;
  if (ldsan_hsa.amd_memory_fill(p, 0, n / 4u) != HSA_STATUS_SUCCESS) {
    ldsan_hsa.amd_memory_pool_free(p);
    return NULL;
  }
  *device_addr = (uint64_t)(uintptr_t)p;
  return p;
}

/* Whether pool is a global pool with `flag` (HSA_AMD_MEMORY_POOL_GLOBAL_FLAG_*)
 * that the runtime may allocate from. */
static int global_pool_with(hsa_amd_memory_pool_t pool, uint32_t flag) {
  hsa_amd_segment_t segment;
  uint32_t flags = 0;
  bool alloc = false;
  if (ldsan_hsa.amd_memory_pool_get_info(pool, HSA_AMD_MEMORY_POOL_INFO_SEGMENT, &segment) != HSA_STATUS_SUCCESS ||
      segment != HSA_AMD_SEGMENT_GLOBAL)
    return 0;
  ldsan_hsa.amd_memory_pool_get_info(pool, HSA_AMD_MEMORY_POOL_INFO_GLOBAL_FLAGS, &flags);
  ldsan_hsa.amd_memory_pool_get_info(pool, HSA_AMD_MEMORY_POOL_INFO_RUNTIME_ALLOC_ALLOWED, &alloc);
  return (flags & flag) && alloc;
}

/* A GPU agent's coarse-grained global pool (its VRAM). */
static hsa_status_t find_vram_pool(hsa_amd_memory_pool_t pool, void *data) {
  ldsan_hsa_agent *a = data;
  if (!global_pool_with(pool, HSA_AMD_MEMORY_POOL_GLOBAL_FLAG_COARSE_GRAINED)) return HSA_STATUS_SUCCESS;
  a->vram = pool;
  a->have_vram = 1;
  return HSA_STATUS_INFO_BREAK;
}

/* The CPU agent's fine-grained global pool (system memory every agent may reach). */
static hsa_status_t find_system_pool(hsa_amd_memory_pool_t pool, void *data) {
  (void)data;
  if (!global_pool_with(pool, HSA_AMD_MEMORY_POOL_GLOBAL_FLAG_FINE_GRAINED)) return HSA_STATUS_SUCCESS;
  system_pool = pool;
  have_system_pool = 1;
  return HSA_STATUS_INFO_BREAK;
}

/* Keeps the target part of the agent's first ISA name ("amdgcn-amd-amdhsa--gfx90a:sramecc+:xnack+"). */
static hsa_status_t first_isa(hsa_isa_t isa, void *data) {
  char *out = data;
  uint32_t len = 0;
  if (ldsan_hsa.isa_get_info_alt(isa, HSA_ISA_INFO_NAME_LENGTH, &len) != HSA_STATUS_SUCCESS || len == 0 || len > 255)
    return HSA_STATUS_SUCCESS;
  char name[256] = {0};
  if (ldsan_hsa.isa_get_info_alt(isa, HSA_ISA_INFO_NAME, name) != HSA_STATUS_SUCCESS) return HSA_STATUS_SUCCESS;
  const char *target = strstr(name, "--");
  snprintf(out, 96, "%s", target ? target + 2 : name);
  return HSA_STATUS_INFO_BREAK;
}

static hsa_status_t visit_agent(hsa_agent_t agent, void *data) {
  (void)data;
  hsa_device_type_t type;
  if (ldsan_hsa.agent_get_info(agent, HSA_AGENT_INFO_DEVICE, &type) != HSA_STATUS_SUCCESS) return HSA_STATUS_SUCCESS;
  if (type == HSA_DEVICE_TYPE_CPU) {
    if (!have_system_pool) ldsan_hsa.amd_agent_iterate_memory_pools(agent, find_system_pool, NULL);
    return HSA_STATUS_SUCCESS;
  }
  if (type != HSA_DEVICE_TYPE_GPU || agent_count == MAX_AGENTS) return HSA_STATUS_SUCCESS;
  ldsan_hsa_agent *a = &agents[agent_count];
  a->agent = agent;
  a->index = agent_count;
  char name[96] = {0};
  ldsan_hsa.agent_iterate_isas(agent, first_isa, name);
  if (!name[0]) ldsan_hsa.agent_get_info(agent, HSA_AGENT_INFO_NAME, name);  /* 64 bytes at most */
  snprintf(a->name, sizeof a->name, "%s", name[0] ? name : "amdgpu");
  uint32_t compute_units = 0;
  if (ldsan_hsa.agent_get_info(agent, (hsa_agent_info_t)HSA_AMD_AGENT_INFO_COMPUTE_UNIT_COUNT, &compute_units) !=
      HSA_STATUS_SUCCESS)
    compute_units = 0;
  a->have_vram = 0;
  ldsan_hsa.amd_agent_iterate_memory_pools(agent, find_vram_pool, a);
  /* ROCr names the ISA by the mode the agent runs in: xnack- means HSA_XNACK
   * was not 1 when the runtime started. */
  if (strstr(a->name, "xnack-"))
    fprintf(stderr, "ldsan: warning: GPU agent %d (%s) runs with XNACK off: xnack+ code objects (what ldsan-cc "
            "builds with full ASan) do not load on it and device ASan cannot reach its shadow; run with HSA_XNACK=1 "
            "(code objects built with ldsan-cc -fsanitize=lds need no XNACK)\n",
            agent_count, a->name);
  a->backend = (ldsan_backend){
      .device_name = a->name,
      .device = a->index,
      .mem = {a, agent_read},
      .write = agent_write,
      .alloc_shared = agent_alloc_shared,
      .free_shared = agent_free_shared,
      .alloc_device = agent_alloc_device,
      .compute_units = compute_units,
      .symbolize = ldsan_hsa_symbolize,
      .symbolize_ctx = a,
      .maps_asan_shadow = 1,
  };
  gpu_handles[agent_count++] = agent;
  return HSA_STATUS_SUCCESS;
}

int ldsan_hsa_agents_init(void) {
  agent_count = 0;
  have_system_pool = 0;
  ldsan_hsa.iterate_agents(visit_agent, NULL);
  if (agent_count && !have_system_pool)
    fprintf(stderr, "ldsan: error: the HSA runtime offers no fine-grained system memory pool; "
            "LDS reports cannot be received from the GPU\n");
  if (agent_count && have_system_pool && !bounce) bounce = alloc_system(BOUNCE_SIZE);
  return have_system_pool ? agent_count : 0;
}

ldsan_hsa_agent *ldsan_hsa_agent_of(hsa_agent_t agent) {
  for (int i = 0; i < agent_count; i++)
    if (agents[i].agent.handle == agent.handle) return &agents[i];
  return NULL;
}

void ldsan_hsa_agents_release(void) {
  pthread_mutex_lock(&bounce_mu);
  if (bounce) ldsan_hsa.amd_memory_pool_free(bounce);
  bounce = NULL;
  pthread_mutex_unlock(&bounce_mu);
  agent_count = 0;
  have_system_pool = 0;
}
