// hsa_double/agents.cpp — the agents: one CPU agent (node 0) and the GPUs of
// HSA_DOUBLE_AGENTS (nodes 1..n), their ISAs and memory pools, and the table
// of processors the double knows (target ids, EF_AMDGPU_MACH values).
//
// Agents live from the first hsa_init to the last hsa_shut_down; the list is
// written only then (under runtime.cpp's lock) and read without locking.
// ISAs are interned for the life of the process, so hsa_isa_t handles from
// hsa_isa_from_name stay valid across init cycles, as ROCr's do.
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <deque>

#include "impl.h"

namespace hsad {
namespace {

// EF_AMDGPU_MACH values are LLVM's (llvm/BinaryFormat/ELF.h); ROCm 5.2's
// amd_hsa_elf.h predates gfx942/gfx950. CU counts, chip ids and product names
// are plausible values for the part, not read from any hardware.
const Target kTargets[] = {
    {"gfx900", 0x02c, true, false, 64, 0x6860, 65536, "Radeon Instinct MI25"},
    {"gfx906", 0x02f, true, true, 60, 0x66a1, 65536, "Radeon Instinct MI50"},
    {"gfx908", 0x030, true, true, 120, 0x738c, 65536, "AMD Instinct MI100"},
    {"gfx90a", 0x03f, true, true, 104, 0x740f, 65536, "AMD Instinct MI210"},
    {"gfx942", 0x04c, true, true, 304, 0x74a1, 65536, "AMD Instinct MI300X"},
    {"gfx950", 0x04f, true, true, 256, 0x75a3, 163840, "AMD Instinct MI355X"},
};

std::vector<Agent *> g_agents;
std::mutex g_isa_lock;
std::deque<Isa> g_isas;  // interned; never shrinks

const Isa *intern(const Isa &isa) {
  std::lock_guard<std::mutex> lock(g_isa_lock);
  for (const Isa &i : g_isas)
    if (i.target_id == isa.target_id) return &i;
  g_isas.push_back(isa);
  return &g_isas.back();
}

// "sramecc+" / "xnack-" → feature state; false for anything else.
bool parse_feature(const std::string &f, const char *name, Feature *out) {
  size_t n = strlen(name);
  if (f.size() != n + 1 || f.compare(0, n, name) != 0) return false;
  if (f[n] == '+') *out = Feature::On;
  else if (f[n] == '-') *out = Feature::Off;
  else return false;
  return true;
}

// ROCr spells a target id with sramecc before xnack.
void canonicalize(Isa *isa) {
  isa->target_id = isa->target->processor;
  if (isa->sramecc != Feature::Any) isa->target_id += isa->sramecc == Feature::On ? ":sramecc+" : ":sramecc-";
  if (isa->xnack != Feature::Any) isa->target_id += isa->xnack == Feature::On ? ":xnack+" : ":xnack-";
  isa->full_name = "amdgcn-amd-amdhsa--" + isa->target_id;
}

uint64_t env_vram_bytes() {
  const char *v = env("HSA_DOUBLE_VRAM_MB");
  uint64_t mb = v ? strtoull(v, nullptr, 0) : 65536;
  if (mb < 64) mb = 64;
  return mb << 20;
}

Agent *make_cpu() {
  auto *a = new Agent;
  a->type = HSA_DEVICE_TYPE_CPU;
  a->node = 0;
  a->name = "hsa_double CPU";
  auto pool = std::make_unique<Pool>();
  pool->owner = a;
  pool->segment = HSA_AMD_SEGMENT_GLOBAL;
  pool->flags = HSA_AMD_MEMORY_POOL_GLOBAL_FLAG_FINE_GRAINED | HSA_AMD_MEMORY_POOL_GLOBAL_FLAG_KERNARG_INIT;
  pool->size = uint64_t(sysconf(_SC_PHYS_PAGES)) * uint64_t(sysconf(_SC_PAGESIZE));
  pool->alloc_allowed = true;
  a->pools.push_back(std::move(pool));
  return a;
}

Agent *make_gpu(const Isa &isa, uint32_t node, uint64_t vram_bytes) {
  Arena *arena = arena_create(vram_bytes);
  if (!arena) return nullptr;
  auto *a = new Agent;
  a->type = HSA_DEVICE_TYPE_GPU;
  a->node = node;
  a->name = isa.target->processor;
  a->isa = isa;
  a->vram = arena;
  auto vram = std::make_unique<Pool>();  // coarse-grained device-local memory
  vram->owner = a;
  vram->flags = HSA_AMD_MEMORY_POOL_GLOBAL_FLAG_COARSE_GRAINED;
  vram->size = vram_bytes;
  vram->alloc_allowed = true;
  a->pools.push_back(std::move(vram));
  auto lds = std::make_unique<Pool>();  // LDS, reported as ROCr does; not allocatable
  lds->owner = a;
  lds->segment = HSA_AMD_SEGMENT_GROUP;
  lds->size = isa.target->lds_bytes;
  a->pools.push_back(std::move(lds));
  return a;
}

}  // namespace

const Target *target_by_name(const std::string &processor) {
  for (const Target &t : kTargets)
    if (processor == t.processor) return &t;
  return nullptr;
}

const Target *target_by_mach(uint32_t mach) {
  for (const Target &t : kTargets)
    if (mach == t.mach) return &t;
  return nullptr;
}

bool parse_target_id(const std::string &id, Isa *out) {
  Isa isa;
  size_t colon = id.find(':');
  isa.target = target_by_name(id.substr(0, colon));
  if (!isa.target) return false;
  while (colon != std::string::npos) {
    size_t next = id.find(':', colon + 1);
    std::string f = id.substr(colon + 1, next == std::string::npos ? std::string::npos : next - colon - 1);
    if (isa.target->has_xnack && isa.xnack == Feature::Any && parse_feature(f, "xnack", &isa.xnack)) {
    } else if (isa.target->has_sramecc && isa.sramecc == Feature::Any && parse_feature(f, "sramecc", &isa.sramecc)) {
    } else {
      return false;
    }
    colon = next;
  }
  canonicalize(&isa);
  *out = isa;
  return true;
}

hsa_status_t agents_create() {
  std::string spec = env("HSA_DOUBLE_AGENTS") ? env("HSA_DOUBLE_AGENTS") : "gfx90a:xnack+";
  const char *xnack_env = env("HSA_XNACK");
  bool xnack_on = xnack_env && strcmp(xnack_env, "1") == 0;
  uint64_t vram_bytes = env_vram_bytes();
  g_agents.push_back(make_cpu());
  size_t pos = 0;
  while (pos <= spec.size()) {
    size_t comma = spec.find(',', pos);
    if (comma == std::string::npos) comma = spec.size();
    std::string id = spec.substr(pos, comma - pos);
    id.erase(0, id.find_first_not_of(" \t"));
    id.erase(id.find_last_not_of(" \t") + 1);
    pos = comma + 1;
    if (id.empty()) continue;
    Isa isa;
    if (!parse_target_id(id, &isa)) {
      fprintf(stderr, "hsa_double: HSA_DOUBLE_AGENTS: unknown or malformed target id '%s'\n", id.c_str());
      return HSA_STATUS_ERROR_INVALID_ISA_NAME;
    }
    // ROCr names a GPU's ISA by the XNACK mode the process runs in (HSA_XNACK).
    if (isa.target->has_xnack && isa.xnack == Feature::Any) {
      isa.xnack = xnack_on ? Feature::On : Feature::Off;
      canonicalize(&isa);
    }
    Agent *gpu = make_gpu(*intern(isa), uint32_t(g_agents.size()), vram_bytes);
    if (!gpu) return HSA_STATUS_ERROR_OUT_OF_RESOURCES;
    g_agents.push_back(gpu);
  }
  return HSA_STATUS_SUCCESS;
}

void agents_destroy() {
  for (Agent *a : g_agents) {
    if (a->vram) arena_destroy(a->vram);
    delete a;
  }
  g_agents.clear();
}

const std::vector<Agent *> &agents() { return g_agents; }

Agent *agent_from(hsa_agent_t handle) {
  for (Agent *a : g_agents)
    if (handle.handle == reinterpret_cast<uint64_t>(a)) return a;
  return nullptr;
}

const Isa *isa_from(hsa_isa_t handle) {
  std::lock_guard<std::mutex> lock(g_isa_lock);
  for (const Isa &i : g_isas)
    if (handle.handle == reinterpret_cast<uint64_t>(&i)) return &i;
  return nullptr;
}

hsa_status_t isa_from_name(const char *name, hsa_isa_t *isa) {
  HSAD_CHECK_OPEN();
  if (!name || !isa) return HSA_STATUS_ERROR_INVALID_ARGUMENT;
  static const char kPrefix[] = "amdgcn-amd-amdhsa--";
  if (strncmp(name, kPrefix, sizeof kPrefix - 1) != 0) return HSA_STATUS_ERROR_INVALID_ISA_NAME;
  Isa parsed;
  if (!parse_target_id(name + sizeof kPrefix - 1, &parsed)) return HSA_STATUS_ERROR_INVALID_ISA_NAME;
  isa->handle = reinterpret_cast<uint64_t>(intern(parsed));
  return HSA_STATUS_SUCCESS;
}

hsa_status_t iterate_agents(hsa_status_t (*callback)(hsa_agent_t, void *), void *data) {
  HSAD_CHECK_OPEN();
  if (!callback) return HSA_STATUS_ERROR_INVALID_ARGUMENT;
  for (Agent *a : g_agents) {
    hsa_status_t s = callback(handle_of(a), data);
    if (s != HSA_STATUS_SUCCESS) return s;
  }
  return HSA_STATUS_SUCCESS;
}

hsa_status_t agent_iterate_isas(hsa_agent_t agent, hsa_status_t (*callback)(hsa_isa_t, void *), void *data) {
  HSAD_CHECK_OPEN();
  Agent *a = agent_from(agent);
  if (!a) return HSA_STATUS_ERROR_INVALID_AGENT;
  if (!callback) return HSA_STATUS_ERROR_INVALID_ARGUMENT;
  if (a->type != HSA_DEVICE_TYPE_GPU) return HSA_STATUS_SUCCESS;  // the CPU agent runs no HSA ISA
  return callback({reinterpret_cast<uint64_t>(intern(a->isa))}, data);
}

}  // namespace hsad
