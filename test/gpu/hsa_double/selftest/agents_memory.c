/* hsa_double/selftest/agents_memory.c — agents, ISAs and system info; memory
 * pools, VRAM the host cannot dereference, copies, fills, pointer info and
 * access rights. */
#define _GNU_SOURCE
#include <errno.h>
#include <stdlib.h>

#include "selftest.h"

static hsa_status_t first_isa(hsa_isa_t isa, void *data) {
  uint32_t len = 0;
  hsa_isa_get_info_alt(isa, HSA_ISA_INFO_NAME_LENGTH, &len);
  char *name = data;
  if (len > 0 && len <= 128) hsa_isa_get_info_alt(isa, HSA_ISA_INFO_NAME, name);
  CHECK_EQ(len, strlen(name) + 1); /* ROCr counts the NUL */
  return HSA_STATUS_INFO_BREAK;
}

void test_agents(void) {
  agent_list l = agents();
  CHECK(l.cpu.handle != 0);
  CHECK_EQ(l.ngpu, 2);
  char name[64], vendor[64], isa[128] = "";
  CHECK_OK(hsa_agent_get_info(l.gpu[0], HSA_AGENT_INFO_NAME, name));
  CHECK_STR(name, "gfx90a");
  CHECK_OK(hsa_agent_get_info(l.gpu[1], HSA_AGENT_INFO_NAME, name));
  CHECK_STR(name, "gfx942");
  CHECK_OK(hsa_agent_get_info(l.gpu[0], HSA_AGENT_INFO_VENDOR_NAME, vendor));
  CHECK_STR(vendor, "AMD");
  uint32_t wave = 0, qmin = 0, qmax = 0, node = 0;
  hsa_profile_t profile;
  CHECK_OK(hsa_agent_get_info(l.gpu[0], HSA_AGENT_INFO_WAVEFRONT_SIZE, &wave));
  CHECK_OK(hsa_agent_get_info(l.gpu[0], HSA_AGENT_INFO_QUEUE_MIN_SIZE, &qmin));
  CHECK_OK(hsa_agent_get_info(l.gpu[0], HSA_AGENT_INFO_QUEUE_MAX_SIZE, &qmax));
  CHECK_OK(hsa_agent_get_info(l.gpu[1], HSA_AGENT_INFO_NODE, &node));
  CHECK_OK(hsa_agent_get_info(l.gpu[0], HSA_AGENT_INFO_PROFILE, &profile));
  CHECK_EQ(wave, 64);
  CHECK_EQ(qmin, 64);
  CHECK_EQ(qmax, 131072);
  CHECK_EQ(node, 2);
  CHECK_EQ(profile, HSA_PROFILE_BASE);
  CHECK_HSA(hsa_agent_get_info(l.gpu[0], (hsa_agent_info_t)0x7777, name), HSA_STATUS_ERROR_INVALID_ARGUMENT);
  CHECK_HSA(hsa_agent_get_info((hsa_agent_t){12345}, HSA_AGENT_INFO_NAME, name), HSA_STATUS_ERROR_INVALID_AGENT);
  CHECK_HSA(hsa_agent_iterate_isas(l.gpu[0], first_isa, isa), HSA_STATUS_INFO_BREAK);
  CHECK_STR(isa, "amdgcn-amd-amdhsa--gfx90a:xnack+");
  hsa_isa_t from_name;
  CHECK_OK(hsa_isa_from_name("amdgcn-amd-amdhsa--gfx942:xnack+", &from_name));
  CHECK_HSA(hsa_isa_from_name("amdgcn-amd-amdhsa--gfx1", &from_name), HSA_STATUS_ERROR_INVALID_ISA_NAME);
  uint64_t freq = 0;
  uint16_t major = 0;
  CHECK_OK(hsa_system_get_info(HSA_SYSTEM_INFO_TIMESTAMP_FREQUENCY, &freq));
  CHECK_OK(hsa_system_get_info(HSA_SYSTEM_INFO_VERSION_MAJOR, &major));
  CHECK_EQ(freq, 1000000000ull);
  CHECK_EQ(major, 1);
  const char *s = NULL;
  CHECK_OK(hsa_status_string(HSA_STATUS_ERROR_EXCEPTION, &s));
  CHECK(s && strstr(s, "HSA_STATUS_ERROR_EXCEPTION"));
}

void test_memory(void) {
  agent_list l = agents();
  hsa_amd_memory_pool_t vram = global_pool(l.gpu[0]), sys = global_pool(l.cpu);
  uint32_t flags = 0;
  size_t granule = 0;
  bool alloc = false;
  CHECK_OK(hsa_amd_memory_pool_get_info(vram, HSA_AMD_MEMORY_POOL_INFO_GLOBAL_FLAGS, &flags));
  CHECK_EQ(flags, HSA_AMD_MEMORY_POOL_GLOBAL_FLAG_COARSE_GRAINED);
  CHECK_OK(hsa_amd_memory_pool_get_info(vram, HSA_AMD_MEMORY_POOL_INFO_RUNTIME_ALLOC_ALLOWED, &alloc));
  CHECK(alloc);
  CHECK_OK(hsa_amd_memory_pool_get_info(vram, HSA_AMD_MEMORY_POOL_INFO_RUNTIME_ALLOC_GRANULE, &granule));
  CHECK_EQ(granule, 4096);
  CHECK_OK(hsa_amd_memory_pool_get_info(sys, HSA_AMD_MEMORY_POOL_INFO_GLOBAL_FLAGS, &flags));
  CHECK_EQ(flags, HSA_AMD_MEMORY_POOL_GLOBAL_FLAG_FINE_GRAINED | HSA_AMD_MEMORY_POOL_GLOBAL_FLAG_KERNARG_INIT);
  hsa_amd_memory_pool_access_t access;
  CHECK_OK(hsa_amd_agent_memory_pool_get_info(l.cpu, vram, HSA_AMD_AGENT_MEMORY_POOL_INFO_ACCESS, &access));
  CHECK_EQ(access, HSA_AMD_MEMORY_POOL_ACCESS_NEVER_ALLOWED);
  CHECK_OK(hsa_amd_agent_memory_pool_get_info(l.gpu[0], vram, HSA_AMD_AGENT_MEMORY_POOL_INFO_ACCESS, &access));
  CHECK_EQ(access, HSA_AMD_MEMORY_POOL_ACCESS_ALLOWED_BY_DEFAULT);

  void *dev = NULL, *host = NULL;
  CHECK_OK(hsa_amd_memory_pool_allocate(vram, 100, 0, &dev));
  CHECK_OK(hsa_amd_memory_pool_allocate(sys, 100, 0, &host));
  CHECK_HSA(hsa_amd_memory_pool_allocate(vram, 0, 0, &dev), HSA_STATUS_ERROR_INVALID_ARGUMENT);
  /* VRAM: not readable by the host, reachable only through the view. */
  CHECK(!host_readable(dev));
  CHECK_EQ(errno, EFAULT);
  CHECK(host_readable(host));
  uint32_t *view = hsa_double_device_view((uint64_t)dev, 4096);
  CHECK(view != NULL);
  CHECK(hsa_double_device_view((uint64_t)dev, 4097) == NULL);
  CHECK(hsa_double_device_view((uint64_t)dev + 8192, 4) == NULL);
  if (view) {
    CHECK_EQ(view[0], 0); /* fresh VRAM reads as zero */
    view[1] = 0xfeedf00d;
  }
  uint32_t words[2] = {0, 0}, in = 0x12345678;
  CHECK_OK(hsa_memory_copy(words, dev, sizeof words));
  CHECK_EQ(words[1], 0xfeedf00d);
  CHECK_OK(hsa_memory_copy(dev, &in, sizeof in));
  if (view) CHECK_EQ(view[0], 0x12345678);
  CHECK_HSA(hsa_memory_copy(words, (char *)dev + 8192, 4), HSA_STATUS_ERROR_INVALID_ARGUMENT);
  CHECK_OK(hsa_amd_memory_fill(dev, 7, 4));
  if (view) CHECK_EQ(view[3], 7);

  hsa_amd_pointer_info_t info;
  memset(&info, 0, sizeof info);
  info.size = sizeof info;
  CHECK_OK(hsa_amd_pointer_info((char *)dev + 10, &info, NULL, NULL, NULL));
  CHECK_EQ(info.type, HSA_EXT_POINTER_TYPE_HSA);
  CHECK_EQ(info.agentBaseAddress, dev);
  CHECK_EQ(info.hostBaseAddress, dev);
  CHECK_EQ(info.sizeInBytes, 4096);
  CHECK_EQ(info.agentOwner.handle, l.gpu[0].handle);
  int local = 0;
  CHECK_OK(hsa_amd_pointer_info(&local, &info, NULL, NULL, NULL));
  CHECK_EQ(info.type, HSA_EXT_POINTER_TYPE_UNKNOWN);

  /* Access: recorded, not enforced; the CPU can never be given VRAM. */
  CHECK(hsa_double_access_allowed(l.gpu[0], (uint64_t)dev, 4));
  CHECK(!hsa_double_access_allowed(l.gpu[0], (uint64_t)host, 4));
  CHECK_OK(hsa_amd_agents_allow_access(1, &l.gpu[0], NULL, host));
  CHECK(hsa_double_access_allowed(l.gpu[0], (uint64_t)host, 4));
  CHECK_HSA(hsa_amd_agents_allow_access(1, &l.cpu, NULL, dev), HSA_STATUS_ERROR_INVALID_ARGUMENT);

  CHECK_OK(hsa_amd_memory_pool_free(dev));
  CHECK_HSA(hsa_amd_memory_pool_free(dev), HSA_STATUS_ERROR_INVALID_ALLOCATION);
  CHECK(hsa_double_device_view((uint64_t)dev, 4) == NULL);
  CHECK_OK(hsa_amd_memory_pool_free(host));
}
