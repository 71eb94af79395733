/* test/gpu/double_selftest.c — self-test of libhsa-double (the ROCr test
 * double) as a HIP-like caller and a tool would use it: agents and pools,
 * VRAM the host cannot dereference, loading real ldsan code objects (and
 * refusing them on the wrong agent), symbols and the loader extension,
 * dispatches through a simulated device, queue errors, async handlers,
 * intercept queues, and tools loaded from HSA_TOOLS_LIB or found in-process.
 *
 * Usage: double_selftest <dir>   (<dir> holds static_lds.gfx90a.co,
 * static_lds.gfx942.co and libdummy_tool.so). Each phase sets its environment
 * and runs its own hsa_init .. hsa_shut_down. Exit 0 when every check passes. */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <elf.h>
#include <errno.h>
#include <fcntl.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/uio.h>
#include <time.h>
#include <unistd.h>

#include <hsa/hsa.h>
#include <hsa/hsa_ext_amd.h>
#include <hsa/hsa_ven_amd_loader.h>

#include "dummy_tool.h"
#include "hsa_double.h"
#include "ldsan/abi.h"

/* ---- checks: both sides and file:line on failure ------------------------------ */
static int failures, checks;

#define CHECK(cond)                                                              \
  do {                                                                           \
    checks++;                                                                    \
    if (!(cond)) {                                                               \
      failures++;                                                                \
      fprintf(stderr, "%s:%d: CHECK failed: %s\n", __FILE__, __LINE__, #cond);   \
    }                                                                            \
  } while (0)
#define CHECK_EQ(a, b)                                                                                 \
  do {                                                                                                 \
    unsigned long long a_ = (unsigned long long)(a), b_ = (unsigned long long)(b);                     \
    checks++;                                                                                          \
    if (a_ != b_) {                                                                                    \
      failures++;                                                                                      \
      fprintf(stderr, "%s:%d: CHECK_EQ(%s, %s) failed: 0x%llx != 0x%llx\n", __FILE__, __LINE__, #a, #b, \
              a_, b_);                                                                                 \
    }                                                                                                  \
  } while (0)
#define CHECK_STR(a, b)                                                                                    \
  do {                                                                                                     \
    const char *a_ = (a), *b_ = (b);                                                                       \
    checks++;                                                                                              \
    if (!a_ || !b_ || strcmp(a_, b_)) {                                                                    \
      failures++;                                                                                          \
      fprintf(stderr, "%s:%d: CHECK_STR(%s, %s) failed: \"%s\" != \"%s\"\n", __FILE__, __LINE__, #a, #b, \
              a_ ? a_ : "(null)", b_ ? b_ : "(null)");                                                     \
    }                                                                                                      \
  } while (0)
/* An HSA call returning `want`; prints both statuses by name. */
#define CHECK_HSA(call, want)                                                                          \
  do {                                                                                                 \
    hsa_status_t got_ = (call), want_ = (want);                                                        \
    checks++;                                                                                          \
    if (got_ != want_) {                                                                               \
      const char *g_ = "?", *w_ = "?";                                                                 \
      hsa_status_string(got_, &g_);                                                                    \
      hsa_status_string(want_, &w_);                                                                   \
      failures++;                                                                                      \
      fprintf(stderr, "%s:%d: %s\n    returned %s\n    expected %s\n", __FILE__, __LINE__, #call, g_, w_); \
    }                                                                                                  \
  } while (0)
#define CHECK_OK(call) CHECK_HSA(call, HSA_STATUS_SUCCESS)

static const uint64_t kTimeout = 10ull * 1000 * 1000 * 1000; /* 10 s in timestamp ticks (ns) */
static const char *g_dir;

/* Polls `flag` until nonzero or 10 s pass; returns its value. */
static int wait_flag(atomic_int *flag, int want) {
  for (int i = 0; i < 10000 && atomic_load(flag) < want; i++) usleep(1000);
  return atomic_load(flag);
}

static void *read_file(const char *name, size_t *size) {
  char path[4096];
  snprintf(path, sizeof path, "%s/%s", g_dir, name);
  FILE *f = fopen(path, "rb");
  if (!f) {
    fprintf(stderr, "cannot open %s\n", path);
    exit(1);
  }
  fseek(f, 0, SEEK_END);
  *size = (size_t)ftell(f);
  fseek(f, 0, SEEK_SET);
  void *data = malloc(*size);
  if (fread(data, 1, *size, f) != *size) exit(1);
  fclose(f);
  return data;
}

/* ---- agents and pools ----------------------------------------------------------- */
typedef struct {
  hsa_agent_t cpu, gpu[4];
  int ngpu;
} agent_list;

static hsa_status_t collect_agent(hsa_agent_t a, void *data) {
  agent_list *l = data;
  hsa_device_type_t type;
  hsa_agent_get_info(a, HSA_AGENT_INFO_DEVICE, &type);
  if (type == HSA_DEVICE_TYPE_CPU) l->cpu = a;
  else if (l->ngpu < 4) l->gpu[l->ngpu++] = a;
  return HSA_STATUS_SUCCESS;
}

static agent_list agents(void) {
  agent_list l;
  memset(&l, 0, sizeof l);
  hsa_iterate_agents(collect_agent, &l);
  return l;
}

static hsa_status_t first_global_pool(hsa_amd_memory_pool_t p, void *data) {
  hsa_amd_segment_t seg;
  hsa_amd_memory_pool_get_info(p, HSA_AMD_MEMORY_POOL_INFO_SEGMENT, &seg);
  if (seg != HSA_AMD_SEGMENT_GLOBAL) return HSA_STATUS_SUCCESS;
  *(hsa_amd_memory_pool_t *)data = p;
  return HSA_STATUS_INFO_BREAK;
}

static hsa_amd_memory_pool_t global_pool(hsa_agent_t a) {
  hsa_amd_memory_pool_t p = {0};
  hsa_amd_agent_iterate_memory_pools(a, first_global_pool, &p);
  return p;
}

static hsa_status_t first_isa(hsa_isa_t isa, void *data) {
  uint32_t len = 0;
  hsa_isa_get_info_alt(isa, HSA_ISA_INFO_NAME_LENGTH, &len);
  char *name = data;
  if (len > 0 && len <= 128) hsa_isa_get_info_alt(isa, HSA_ISA_INFO_NAME, name);
  CHECK_EQ(len, strlen(name) + 1); /* ROCr counts the NUL */
  return HSA_STATUS_INFO_BREAK;
}

static void test_agents(void) {
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

/* ---- memory ------------------------------------------------------------------------ */

/* 1 if the host can read `addr` (process_vm_readv on ourselves: no fault risk). */
static int host_readable(const void *addr) {
  char byte;
  struct iovec local = {&byte, 1}, remote = {(void *)addr, 1};
  return process_vm_readv(getpid(), &local, 1, &remote, 1, 0) == 1;
}

static void test_memory(void) {
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

/* ---- loader ------------------------------------------------------------------------ */

/* Checks every R_AMDGPU_RELATIVE64 of the ELF's .rela.dyn against memory at `base`. */
static void check_relocations(const uint8_t *elf, uint64_t base) {
  const Elf64_Ehdr *eh = (const Elf64_Ehdr *)elf;
  const Elf64_Shdr *sh = (const Elf64_Shdr *)(elf + eh->e_shoff);
  int seen = 0;
  for (int i = 0; i < eh->e_shnum; i++) {
    if (sh[i].sh_type != SHT_RELA || sh[i].sh_info != 0) continue;
    const Elf64_Rela *r = (const Elf64_Rela *)(elf + sh[i].sh_offset);
    for (size_t k = 0; k < sh[i].sh_size / sizeof *r; k++) {
      if (ELF64_R_TYPE(r[k].r_info) != 13) continue;
      uint64_t *p = hsa_double_device_view(base + r[k].r_offset, 8);
      CHECK(p != NULL);
      if (p) CHECK_EQ(*p, base + (uint64_t)r[k].r_addend);
      seen++;
    }
  }
  CHECK(seen > 0);
}

static hsa_status_t count_symbol(hsa_executable_t e, hsa_agent_t a, hsa_executable_symbol_t s, void *data) {
  (void)e, (void)a, (void)s;
  ++*(int *)data;
  return HSA_STATUS_SUCCESS;
}

static hsa_status_t first_lco(hsa_executable_t e, hsa_loaded_code_object_t o, void *data) {
  (void)e;
  *(hsa_loaded_code_object_t *)data = o;
  return HSA_STATUS_SUCCESS;
}

static char *symbol_name(hsa_executable_symbol_t s) {
  uint32_t len = 0;
  hsa_executable_symbol_get_info(s, HSA_EXECUTABLE_SYMBOL_INFO_NAME_LENGTH, &len);
  char *name = calloc(1, len + 1); /* NAME has no NUL (as ROCr) */
  hsa_executable_symbol_get_info(s, HSA_EXECUTABLE_SYMBOL_INFO_NAME, name);
  return name;
}

/* Loads `co` for `agent` into a new executable; returns the load status. */
static hsa_status_t load(const void *co, size_t size, hsa_agent_t agent, hsa_executable_t *exec,
                         hsa_code_object_reader_t *reader) {
  CHECK_OK(hsa_code_object_reader_create_from_memory(co, size, reader));
  CHECK_OK(hsa_executable_create_alt(HSA_PROFILE_BASE, HSA_DEFAULT_FLOAT_ROUNDING_MODE_DEFAULT, NULL, exec));
  return hsa_executable_load_agent_code_object(*exec, agent, *reader, NULL, NULL);
}

static uint64_t g_kernel_object; /* static_lds on the gfx90a agent, for the dispatch tests */

static void test_loader(hsa_executable_t *kept, hsa_code_object_reader_t *kept_reader, void *co90a, size_t size90a) {
  agent_list l = agents();
  size_t size942;
  void *co942 = read_file("static_lds.gfx942.co", &size942);
  hsa_executable_t e90, wrong, e942;
  hsa_code_object_reader_t r90, rwrong, r942;
  /* Refused on the wrong agent (ROCr's status for an unsupported ISA). */
  CHECK_HSA(load(co90a, size90a, l.gpu[1], &wrong, &rwrong), HSA_STATUS_ERROR_INCOMPATIBLE_ARGUMENTS);
  CHECK_HSA(load(co942, size942, l.gpu[0], &e942, &r942), HSA_STATUS_ERROR_INCOMPATIBLE_ARGUMENTS);
  CHECK_OK(hsa_executable_destroy(e942));
  CHECK_OK(hsa_code_object_reader_destroy(r942));
  CHECK_OK(hsa_executable_destroy(wrong));
  CHECK_OK(hsa_code_object_reader_destroy(rwrong));
  CHECK_OK(load(co942, size942, l.gpu[1], &e942, &r942));
  CHECK_OK(load(co90a, size90a, l.gpu[0], &e90, &r90));
  CHECK_OK(hsa_executable_freeze(e90, NULL));
  CHECK_HSA(hsa_executable_freeze(e90, NULL), HSA_STATUS_ERROR_FROZEN_EXECUTABLE);
  CHECK_HSA(hsa_executable_load_agent_code_object(e90, l.gpu[0], r90, NULL, NULL), HSA_STATUS_ERROR_FROZEN_EXECUTABLE);
  hsa_executable_state_t state;
  CHECK_OK(hsa_executable_get_info(e90, HSA_EXECUTABLE_INFO_STATE, &state));
  CHECK_EQ(state, HSA_EXECUTABLE_STATE_FROZEN);

  /* The kernel: only as "<name>.kd", and only with the agent. */
  hsa_executable_symbol_t kernel, var, none;
  CHECK_OK(hsa_executable_get_symbol_by_name(e90, "_Z10static_ldsPii.kd", &l.gpu[0], &kernel));
  CHECK_HSA(hsa_executable_get_symbol_by_name(e90, "_Z10static_ldsPii", &l.gpu[0], &none), HSA_STATUS_ERROR_INVALID_SYMBOL_NAME);
  CHECK_HSA(hsa_executable_get_symbol_by_name(e90, "_Z10static_ldsPii.kd", NULL, &none), HSA_STATUS_ERROR_INVALID_SYMBOL_NAME);
  hsa_symbol_kind_t kind;
  uint64_t ko = 0;
  uint32_t kernarg = 0, group = 0;
  CHECK_OK(hsa_executable_symbol_get_info(kernel, HSA_EXECUTABLE_SYMBOL_INFO_TYPE, &kind));
  CHECK_EQ(kind, HSA_SYMBOL_KIND_KERNEL);
  CHECK_OK(hsa_executable_symbol_get_info(kernel, HSA_EXECUTABLE_SYMBOL_INFO_KERNEL_OBJECT, &ko));
  CHECK_OK(hsa_executable_symbol_get_info(kernel, HSA_EXECUTABLE_SYMBOL_INFO_KERNEL_KERNARG_SEGMENT_SIZE, &kernarg));
  CHECK_OK(hsa_executable_symbol_get_info(kernel, HSA_EXECUTABLE_SYMBOL_INFO_KERNEL_GROUP_SEGMENT_SIZE, &group));
  CHECK_HSA(hsa_executable_symbol_get_info(kernel, HSA_EXECUTABLE_SYMBOL_INFO_VARIABLE_SIZE, &kernarg),
            HSA_STATUS_ERROR_INVALID_ARGUMENT);
  const uint32_t *kd = hsa_double_device_view(ko, 64); /* the kernel descriptor */
  CHECK(kd != NULL);
  if (kd) {
    CHECK_EQ(kernarg, kd[2]);
    CHECK_EQ(group, kd[0]);
  }
  CHECK(kernarg >= 12); /* int*, int, then hidden arguments */
  CHECK(!host_readable((void *)ko));
  CHECK_STR(hsa_double_kernel_name(ko), "_Z10static_ldsPii.kd");
  CHECK_EQ(hsa_double_kernel_agent(ko).handle, l.gpu[0].handle);
  char *name = symbol_name(kernel);
  CHECK_STR(name, "_Z10static_ldsPii.kd");
  free(name);
  g_kernel_object = ko;

  /* The device state: a VARIABLE whose 32 bytes start with the ABI version. */
  CHECK_OK(hsa_executable_get_symbol_by_name(e90, LDSAN_DEVICE_STATE_SYMBOL, &l.gpu[0], &var));
  uint64_t addr = 0;
  uint32_t vsize = 0;
  CHECK_OK(hsa_executable_symbol_get_info(var, HSA_EXECUTABLE_SYMBOL_INFO_TYPE, &kind));
  CHECK_EQ(kind, HSA_SYMBOL_KIND_VARIABLE);
  CHECK_OK(hsa_executable_symbol_get_info(var, HSA_EXECUTABLE_SYMBOL_INFO_VARIABLE_ADDRESS, &addr));
  CHECK_OK(hsa_executable_symbol_get_info(var, HSA_EXECUTABLE_SYMBOL_INFO_VARIABLE_SIZE, &vsize));
  CHECK_EQ(vsize, sizeof(ldsan_device_state));
  ldsan_device_state st;
  memset(&st, 0xff, sizeof st);
  CHECK_OK(hsa_memory_copy(&st, (void *)addr, sizeof st));
  CHECK_EQ(st.abi_version, LDSAN_ABI_VERSION);
  CHECK(!host_readable((void *)addr));
  int nsyms = 0;
  CHECK_OK(hsa_executable_iterate_agent_symbols(e90, l.gpu[0], count_symbol, &nsyms));
  CHECK(nsyms >= 2);

  /* The loader extension. */
  hsa_ven_amd_loader_1_01_pfn_t ext;
  memset(&ext, 0, sizeof ext);
  CHECK_OK(hsa_system_get_major_extension_table(HSA_EXTENSION_AMD_LOADER, 1, sizeof ext, &ext));
  CHECK(ext.hsa_ven_amd_loader_loaded_code_object_get_info != NULL);
  hsa_loaded_code_object_t lco = {0};
  CHECK_OK(ext.hsa_ven_amd_loader_executable_iterate_loaded_code_objects(e90, first_lco, &lco));
  uint64_t base = 0, lsize = 0, mem = 0;
  int64_t delta = -1;
  uint32_t uri_len = 0, storage = 0;
  hsa_agent_t lagent = {0};
  CHECK_OK(ext.hsa_ven_amd_loader_loaded_code_object_get_info(lco, HSA_VEN_AMD_LOADER_LOADED_CODE_OBJECT_INFO_LOAD_BASE, &base));
  CHECK_OK(ext.hsa_ven_amd_loader_loaded_code_object_get_info(lco, HSA_VEN_AMD_LOADER_LOADED_CODE_OBJECT_INFO_LOAD_SIZE, &lsize));
  CHECK_OK(ext.hsa_ven_amd_loader_loaded_code_object_get_info(lco, HSA_VEN_AMD_LOADER_LOADED_CODE_OBJECT_INFO_LOAD_DELTA, &delta));
  CHECK_OK(ext.hsa_ven_amd_loader_loaded_code_object_get_info(lco, HSA_VEN_AMD_LOADER_LOADED_CODE_OBJECT_INFO_AGENT, &lagent));
  CHECK_OK(ext.hsa_ven_amd_loader_loaded_code_object_get_info(
      lco, HSA_VEN_AMD_LOADER_LOADED_CODE_OBJECT_INFO_CODE_OBJECT_STORAGE_TYPE, &storage));
  CHECK_OK(ext.hsa_ven_amd_loader_loaded_code_object_get_info(
      lco, HSA_VEN_AMD_LOADER_LOADED_CODE_OBJECT_INFO_CODE_OBJECT_STORAGE_MEMORY_BASE, &mem));
  CHECK_OK(ext.hsa_ven_amd_loader_loaded_code_object_get_info(lco, HSA_VEN_AMD_LOADER_LOADED_CODE_OBJECT_INFO_URI_LENGTH, &uri_len));
  CHECK_EQ((uint64_t)delta, base); /* the code object's first segment is at vaddr 0 */
  CHECK(lsize > (uint64_t)LDSAN_BUILTIN_POOL_SIZE); /* .bss holds the built-in pool */
  CHECK(ko > base && ko < base + lsize);
  CHECK_EQ(lagent.handle, l.gpu[0].handle);
  CHECK_EQ(storage, HSA_VEN_AMD_LOADER_CODE_OBJECT_STORAGE_TYPE_MEMORY);
  CHECK_EQ(mem, (uint64_t)co90a);
  char *uri = calloc(1, uri_len + 1), prefix[64];
  CHECK_OK(ext.hsa_ven_amd_loader_loaded_code_object_get_info(lco, HSA_VEN_AMD_LOADER_LOADED_CODE_OBJECT_INFO_URI, uri));
  snprintf(prefix, sizeof prefix, "memory://%d#offset=0x%llx&size=", (int)getpid(), (unsigned long long)(uintptr_t)co90a);
  CHECK(strncmp(uri, prefix, strlen(prefix)) == 0);
  free(uri);
  const void *host = NULL;
  CHECK_OK(ext.hsa_ven_amd_loader_query_host_address((void *)addr, &host));
  CHECK(host != NULL && memcmp(host, &st, sizeof st) == 0);
  hsa_executable_t owner = {0};
  CHECK_OK(ext.hsa_ven_amd_loader_query_executable((void *)ko, &owner));
  CHECK_EQ(owner.handle, e90.handle);
  check_relocations(co90a, base);

  /* A file reader, and a malformed code object. */
  char path[4096];
  snprintf(path, sizeof path, "%s/static_lds.gfx942.co", g_dir);
  int fd = open(path, O_RDONLY);
  hsa_code_object_reader_t rf;
  hsa_executable_t ef, ebad;
  CHECK_OK(hsa_code_object_reader_create_from_file(fd, &rf));
  CHECK_OK(hsa_executable_create_alt(HSA_PROFILE_BASE, HSA_DEFAULT_FLOAT_ROUNDING_MODE_DEFAULT, NULL, &ef));
  hsa_loaded_code_object_t lcof = {0};
  CHECK_OK(hsa_executable_load_agent_code_object(ef, l.gpu[1], rf, NULL, &lcof));
  CHECK_OK(hsa_code_object_reader_destroy(rf)); /* the loaded code object outlives its reader */
  close(fd);
  CHECK_OK(ext.hsa_ven_amd_loader_loaded_code_object_get_info(lcof, HSA_VEN_AMD_LOADER_LOADED_CODE_OBJECT_INFO_URI_LENGTH, &uri_len));
  uri = calloc(1, uri_len + 1);
  CHECK_OK(ext.hsa_ven_amd_loader_loaded_code_object_get_info(lcof, HSA_VEN_AMD_LOADER_LOADED_CODE_OBJECT_INFO_URI, uri));
  CHECK(strncmp(uri, "file:///", 8) == 0 && strstr(uri, "/static_lds.gfx942.co#offset=0&size=") != NULL);
  free(uri);
  static const char junk[256] = "\177ELF not really";
  hsa_code_object_reader_t rbad;
  CHECK_HSA(load(junk, sizeof junk, l.gpu[0], &ebad, &rbad), HSA_STATUS_ERROR_INVALID_CODE_OBJECT);
  CHECK_OK(hsa_executable_destroy(ebad));
  CHECK_OK(hsa_code_object_reader_destroy(rbad));
  CHECK_OK(hsa_executable_destroy(ef));
  CHECK_OK(hsa_executable_destroy(e942));
  CHECK_OK(hsa_code_object_reader_destroy(r942));
  free(co942);
  *kept = e90;
  *kept_reader = r90;
}

/* ---- queues and the simulated device ---------------------------------------------------- */

typedef struct {
  atomic_int dispatches;
  hsa_double_outcome outcome;
  uint64_t kernel_object;
  atomic_int name_ok;
} device_state;

/* The simulated device: checks the packet, writes out[0] = n + 100 through the view. */
static hsa_double_outcome device(void *ctx, hsa_agent_t agent, const hsa_kernel_dispatch_packet_t *p) {
  device_state *d = ctx;
  (void)agent;
  const char *name = hsa_double_kernel_name(p->kernel_object);
  if (name && strcmp(name, "_Z10static_ldsPii.kd") == 0) atomic_store(&d->name_ok, 1);
  struct {
    uint64_t out;
    int32_t n;
  } *args = hsa_double_device_view((uint64_t)p->kernarg_address, 12);
  if (args) {
    int32_t *out = hsa_double_device_view(args->out, 4);
    if (out) *out = args->n + 100;
  }
  atomic_fetch_add(&d->dispatches, 1);
  return d->outcome;
}

/* Writes one packet into `q` and rings its doorbell; returns the packet's index. */
static uint64_t submit(hsa_queue_t *q, const void *packet) {
  uint64_t index = hsa_queue_add_write_index_screlease(q, 1);
  while (index - hsa_queue_load_read_index_scacquire(q) >= q->size) usleep(100);
  uint8_t *slot = (uint8_t *)q->base_address + (index % q->size) * 64;
  memcpy(slot + 2, (const uint8_t *)packet + 2, 62);
  __atomic_store_n((uint16_t *)slot, *(const uint16_t *)packet, __ATOMIC_RELEASE);
  hsa_signal_store_screlease(q->doorbell_signal, (hsa_signal_value_t)index);
  return index;
}

static hsa_kernel_dispatch_packet_t dispatch_packet(uint64_t ko, void *kernarg, hsa_signal_t done) {
  hsa_kernel_dispatch_packet_t p;
  memset(&p, 0, sizeof p);
  p.header = (HSA_PACKET_TYPE_KERNEL_DISPATCH << HSA_PACKET_HEADER_TYPE) | (1 << HSA_PACKET_HEADER_BARRIER) |
             (HSA_FENCE_SCOPE_SYSTEM << HSA_PACKET_HEADER_SCACQUIRE_FENCE_SCOPE) |
             (HSA_FENCE_SCOPE_SYSTEM << HSA_PACKET_HEADER_SCRELEASE_FENCE_SCOPE);
  p.setup = 1 << HSA_KERNEL_DISPATCH_PACKET_SETUP_DIMENSIONS;
  p.workgroup_size_x = 64;
  p.workgroup_size_y = p.workgroup_size_z = 1;
  p.grid_size_x = 64;
  p.grid_size_y = p.grid_size_z = 1;
  p.kernel_object = ko;
  p.kernarg_address = kernarg;
  p.completion_signal = done;
  return p;
}

typedef struct {
  atomic_int calls;
  hsa_status_t status;
  hsa_queue_t *source;
} queue_error;

static void on_queue_error(hsa_status_t status, hsa_queue_t *source, void *data) {
  queue_error *e = data;
  e->status = status;
  e->source = source;
  atomic_fetch_add(&e->calls, 1);
}

/* Kernel arguments (int *out, int n) in the kernarg pool, out in VRAM. */
typedef struct {
  void *kernarg, *out;
} args;

static args make_args(int n) {
  agent_list l = agents();
  args a;
  CHECK_OK(hsa_amd_memory_pool_allocate(global_pool(l.cpu), 272, 0, &a.kernarg));
  CHECK_OK(hsa_amd_memory_pool_allocate(global_pool(l.gpu[0]), 4, 0, &a.out));
  CHECK_OK(hsa_amd_agents_allow_access(1, &l.gpu[0], NULL, a.kernarg));
  memcpy(a.kernarg, &a.out, 8);
  memcpy((char *)a.kernarg + 8, &n, 4);
  return a;
}

static void free_args(args a) {
  CHECK_OK(hsa_amd_memory_pool_free(a.kernarg));
  CHECK_OK(hsa_amd_memory_pool_free(a.out));
}

static void test_dispatch(void) {
  agent_list l = agents();
  device_state d;
  memset(&d, 0, sizeof d);
  d.outcome = HSA_DOUBLE_COMPLETE;
  hsa_double_set_device(device, &d);
  hsa_queue_t *q = NULL;
  CHECK_HSA(hsa_queue_create(l.gpu[0], 100, HSA_QUEUE_TYPE_MULTI, NULL, NULL, UINT32_MAX, UINT32_MAX, &q),
            HSA_STATUS_ERROR_INVALID_ARGUMENT);
  CHECK_HSA(hsa_queue_create(l.cpu, 64, HSA_QUEUE_TYPE_MULTI, NULL, NULL, UINT32_MAX, UINT32_MAX, &q),
            HSA_STATUS_ERROR_INVALID_QUEUE_CREATION);
  CHECK_OK(hsa_queue_create(l.gpu[0], 64, HSA_QUEUE_TYPE_MULTI, NULL, NULL, UINT32_MAX, UINT32_MAX, &q));
  if (!q) return;
  CHECK_EQ(q->size, 64);
  hsa_signal_t done, dep;
  CHECK_OK(hsa_signal_create(1, 0, NULL, &done));
  CHECK_OK(hsa_signal_create(1, 0, NULL, &dep));
  args a = make_args(5);
  hsa_kernel_dispatch_packet_t p = dispatch_packet(g_kernel_object, a.kernarg, done);
  CHECK_EQ(submit(q, &p), 0);
  CHECK_EQ(hsa_signal_wait_scacquire(done, HSA_SIGNAL_CONDITION_EQ, 0, kTimeout, HSA_WAIT_STATE_BLOCKED), 0);
  CHECK_EQ(hsa_queue_load_read_index_scacquire(q), 1);
  CHECK_EQ(atomic_load(&d.dispatches), 1);
  CHECK(atomic_load(&d.name_ok));
  int32_t out = 0;
  CHECK_OK(hsa_memory_copy(&out, a.out, 4));
  CHECK_EQ(out, 105);

  /* A barrier-AND holds the next dispatch until its dependency reaches 0. */
  hsa_barrier_and_packet_t b;
  memset(&b, 0, sizeof b);
  b.header = (HSA_PACKET_TYPE_BARRIER_AND << HSA_PACKET_HEADER_TYPE) | (1 << HSA_PACKET_HEADER_BARRIER);
  b.dep_signal[0] = dep;
  submit(q, &b);
  hsa_signal_store_relaxed(done, 1);
  submit(q, &p);
  CHECK_EQ(hsa_signal_wait_scacquire(done, HSA_SIGNAL_CONDITION_EQ, 0, 50 * 1000 * 1000, HSA_WAIT_STATE_BLOCKED), 1);
  CHECK_EQ(atomic_load(&d.dispatches), 1);
  hsa_signal_store_screlease(dep, 0);
  CHECK_EQ(hsa_signal_wait_scacquire(done, HSA_SIGNAL_CONDITION_EQ, 0, kTimeout, HSA_WAIT_STATE_BLOCKED), 0);
  CHECK_EQ(atomic_load(&d.dispatches), 2);
  CHECK_EQ(hsa_queue_load_read_index_scacquire(q), 3);

  /* A packet written but not rung is not processed. */
  hsa_signal_store_relaxed(done, 1);
  uint64_t index = hsa_queue_add_write_index_screlease(q, 1);
  uint8_t *slot = (uint8_t *)q->base_address + (index % q->size) * 64;
  memcpy(slot + 2, (uint8_t *)&p + 2, 62);
  __atomic_store_n((uint16_t *)slot, p.header, __ATOMIC_RELEASE);
  usleep(50 * 1000);
  CHECK_EQ(hsa_signal_load_scacquire(done), 1);
  hsa_signal_store_screlease(q->doorbell_signal, (hsa_signal_value_t)index);
  CHECK_EQ(hsa_signal_wait_scacquire(done, HSA_SIGNAL_CONDITION_EQ, 0, kTimeout, HSA_WAIT_STATE_BLOCKED), 0);

  CHECK_HSA(hsa_signal_destroy(q->doorbell_signal), HSA_STATUS_ERROR_INVALID_SIGNAL);
  CHECK_OK(hsa_queue_destroy(q));
  CHECK_HSA(hsa_queue_destroy(q), HSA_STATUS_ERROR_INVALID_QUEUE);
  CHECK_OK(hsa_signal_destroy(done));
  CHECK_OK(hsa_signal_destroy(dep));
  free_args(a);
  hsa_double_set_device(NULL, NULL);
}

/* A trap or memory fault puts the queue in error: callback, no completion. */
static void check_queue_error(hsa_double_outcome outcome, hsa_status_t want) {
  agent_list l = agents();
  device_state d;
  memset(&d, 0, sizeof d);
  d.outcome = outcome;
  hsa_double_set_device(device, &d);
  queue_error err;
  memset(&err, 0, sizeof err);
  hsa_queue_t *q = NULL;
  CHECK_OK(hsa_queue_create(l.gpu[0], 64, HSA_QUEUE_TYPE_MULTI, on_queue_error, &err, UINT32_MAX, UINT32_MAX, &q));
  hsa_signal_t done;
  CHECK_OK(hsa_signal_create(1, 0, NULL, &done));
  args a = make_args(1);
  hsa_kernel_dispatch_packet_t p = dispatch_packet(g_kernel_object, a.kernarg, done);
  submit(q, &p);
  CHECK_EQ(wait_flag(&err.calls, 1), 1);
  CHECK_HSA(err.status, want);
  CHECK_EQ(err.source, q);
  CHECK_EQ(hsa_signal_load_relaxed(done), 1);
  submit(q, &p); /* ignored: the queue is in error */
  usleep(20 * 1000);
  CHECK_EQ(atomic_load(&d.dispatches), 1);
  CHECK_OK(hsa_queue_destroy(q));
  CHECK_OK(hsa_signal_destroy(done));
  free_args(a);
  hsa_double_set_device(NULL, NULL);
}

static void test_queue_errors(void) {
  check_queue_error(HSA_DOUBLE_TRAP, HSA_STATUS_ERROR_EXCEPTION);
  check_queue_error(HSA_DOUBLE_MEMFAULT, (hsa_status_t)HSA_STATUS_ERROR_MEMORY_APERTURE_VIOLATION);
}

/* ---- async handlers ------------------------------------------------------------------- */

typedef struct {
  atomic_int calls;
  hsa_signal_value_t value;
} handler_state;

/* Asks to stay registered twice: ROCr calls it again while the condition holds. */
static bool on_signal(hsa_signal_value_t value, void *arg) {
  handler_state *h = arg;
  h->value = value;
  return atomic_fetch_add(&h->calls, 1) + 1 < 3;
}

static void test_async_handler(void) {
  hsa_signal_t s;
  CHECK_OK(hsa_signal_create(1, 0, NULL, &s));
  handler_state h;
  memset(&h, 0, sizeof h);
  CHECK_OK(hsa_amd_signal_async_handler(s, HSA_SIGNAL_CONDITION_LT, 1, on_signal, &h));
  usleep(20 * 1000);
  CHECK_EQ(atomic_load(&h.calls), 0);
  hsa_signal_subtract_screlease(s, 1);
  CHECK_EQ(wait_flag(&h.calls, 3), 3);
  usleep(20 * 1000);
  CHECK_EQ(atomic_load(&h.calls), 3);
  CHECK_EQ(h.value, 0);
  CHECK_HSA(hsa_amd_signal_async_handler(s, HSA_SIGNAL_CONDITION_EQ, 0, NULL, NULL), HSA_STATUS_ERROR_INVALID_ARGUMENT);
  CHECK_OK(hsa_signal_destroy(s));
}

/* ---- intercept queues ------------------------------------------------------------------- */

typedef struct {
  int order[8], n;
  uint64_t user_index;
  hsa_signal_t replacement;
} intercept_state;

static intercept_state g_icpt;

static void icpt_first(const void *pkts, uint64_t count, uint64_t user_index, void *data, hsa_double_packet_writer w) {
  (void)user_index, (void)data;
  if (g_icpt.n < 8) g_icpt.order[g_icpt.n++] = 1;
  w(pkts, count);
}

static void icpt_second(const void *pkts, uint64_t count, uint64_t user_index, void *data, hsa_double_packet_writer w) {
  (void)data;
  if (g_icpt.n < 8) g_icpt.order[g_icpt.n++] = 2;
  g_icpt.user_index = user_index;
  hsa_kernel_dispatch_packet_t copy;
  memcpy(&copy, pkts, sizeof copy);
  copy.completion_signal = g_icpt.replacement;
  w(&copy, count);
}

static void test_intercept(void) {
  agent_list l = agents();
  hsa_queue_t *q = NULL;
  CHECK_HSA(hsa_double_queue_intercept_create(l.gpu[0], 2, HSA_QUEUE_TYPE_MULTI, NULL, NULL, 0, 0, &q),
            HSA_STATUS_ERROR_INVALID_ARGUMENT);
  CHECK_OK(hsa_double_queue_intercept_create(l.gpu[0], 64, HSA_QUEUE_TYPE_MULTI, NULL, NULL, 0, 0, &q));
  if (!q) return;
  memset(&g_icpt, 0, sizeof g_icpt);
  CHECK_OK(hsa_double_queue_intercept_register(q, icpt_first, NULL));
  CHECK_OK(hsa_double_queue_intercept_register(q, icpt_second, NULL));
  hsa_signal_t done, replacement;
  CHECK_OK(hsa_signal_create(1, 0, NULL, &done));
  CHECK_OK(hsa_signal_create(1, 0, NULL, &replacement));
  g_icpt.replacement = replacement;
  args a = make_args(2);
  hsa_kernel_dispatch_packet_t p = dispatch_packet(g_kernel_object, a.kernarg, done);
  submit(q, &p);
  submit(q, &p);
  /* Handlers ran in this thread, last registered first, once per packet. */
  CHECK_EQ(g_icpt.n, 4);
  CHECK_EQ(g_icpt.order[0], 2);
  CHECK_EQ(g_icpt.order[1], 1);
  CHECK_EQ(g_icpt.user_index, 1);
  CHECK_EQ(hsa_queue_load_read_index_scacquire(q), 2);
  CHECK_EQ(hsa_signal_wait_scacquire(replacement, HSA_SIGNAL_CONDITION_EQ, -1, kTimeout, HSA_WAIT_STATE_BLOCKED), -1);
  CHECK_EQ(hsa_signal_load_relaxed(done), 1);
  CHECK_HSA(hsa_double_queue_intercept_register(q, NULL, NULL), HSA_STATUS_ERROR_INVALID_ARGUMENT);
  CHECK_OK(hsa_queue_destroy(q));
  CHECK_OK(hsa_signal_destroy(done));
  CHECK_OK(hsa_signal_destroy(replacement));
  free_args(a);
}

/* ---- phases -------------------------------------------------------------------------------- */

static void phase_runtime(void) {
  hsa_agent_t none = {0};
  char name[64];
  CHECK_HSA(hsa_agent_get_info(none, HSA_AGENT_INFO_NAME, name), HSA_STATUS_ERROR_NOT_INITIALIZED);
  setenv("HSA_DOUBLE_AGENTS", "gfx90a:xnack+, gfx942:xnack+", 1);
  CHECK_OK(hsa_init());
  CHECK_OK(hsa_init()); /* reference counted */
  CHECK_OK(hsa_shut_down());
  size_t size90a;
  void *co90a = read_file("static_lds.gfx90a.co", &size90a);
  hsa_executable_t exec;
  hsa_code_object_reader_t reader;
  test_agents();
  test_memory();
  test_loader(&exec, &reader, co90a, size90a);
  test_dispatch();
  test_queue_errors();
  test_async_handler();
  test_intercept();
  CHECK_OK(hsa_executable_destroy(exec));
  CHECK_OK(hsa_code_object_reader_destroy(reader));
  CHECK_EQ(hsa_double_tool_count(), 0);
  CHECK_OK(hsa_shut_down());
  CHECK_HSA(hsa_shut_down(), HSA_STATUS_ERROR_NOT_INITIALIZED);
  free(co90a);
}

static char g_tool_path[4096];

static dummy_tool_state *tool_state(void **handle) {
  *handle = dlopen(g_tool_path, RTLD_LAZY | RTLD_NOLOAD);
  return *handle ? dlsym(*handle, "dummy_tool") : NULL;
}

/* Runs hsa_init with stderr captured into `err` (up to size - 1 bytes). */
static hsa_status_t init_capturing_stderr(char *err, size_t size) {
  FILE *tmp = tmpfile();
  int saved = dup(2);
  fflush(stderr);
  dup2(fileno(tmp), 2);
  hsa_status_t s = hsa_init();
  fflush(stderr);
  dup2(saved, 2);
  close(saved);
  rewind(tmp);
  size_t n = fread(err, 1, size - 1, tmp);
  err[n] = 0;
  fclose(tmp);
  return s;
}

/* A tool from HSA_TOOLS_LIB after a name that fails to load. */
static void phase_tool_from_env(void **keep) {
  char tools[8192], err[1024];
  snprintf(tools, sizeof tools, "/nonexistent/libnope.so %s", g_tool_path);
  setenv("HSA_DOUBLE_AGENTS", "gfx90a:xnack+", 1);
  setenv("HSA_TOOLS_LIB", tools, 1);
  setenv("HSA_TOOLS_REPORT_LOAD_FAILURE", "1", 1);
  CHECK_OK(init_capturing_stderr(err, sizeof err));
  CHECK(strstr(err, "Tool lib \"/nonexistent/libnope.so\" failed to load.") != NULL);
  CHECK_EQ(hsa_double_tool_count(), 1);
  dummy_tool_state *st = tool_state(keep); /* this handle keeps the tool loaded after shutdown */
  CHECK(st != NULL);
  if (!st) return;
  CHECK_EQ(st->onload_calls, 1);
  CHECK_EQ(st->runtime_version, 1); /* ROCr passes the table's major id */
  CHECK_EQ(st->failed_count, 1);
  CHECK_STR(st->first_failed, "/nonexistent/libnope.so");
  CHECK_EQ(st->root_major, 1);
  CHECK_EQ(st->core_major, 1);
  CHECK_EQ(st->amd_major, 1);
  CHECK_EQ(st->root_minor, st->expect_root_minor);
  CHECK_EQ(st->core_minor, st->expect_core_minor);
  CHECK_EQ(st->amd_minor, st->expect_amd_minor);

  /* The caller's hsa_queue_create is the tool's: an intercept queue. */
  agent_list l = agents();
  hsa_queue_t *q = NULL;
  CHECK_OK(hsa_queue_create(l.gpu[0], 64, HSA_QUEUE_TYPE_MULTI, NULL, NULL, UINT32_MAX, UINT32_MAX, &q));
  CHECK_EQ(st->queues_created, 1);
  CHECK_EQ(st->last_queue, q);
  hsa_signal_t done, replacement;
  CHECK_OK(hsa_signal_create(1, 0, NULL, &done));
  CHECK_OK(hsa_signal_create(1, 0, NULL, &replacement));
  st->replacement_signal = replacement.handle;
  hsa_kernel_dispatch_packet_t p = dispatch_packet(0xdead000, NULL, done); /* no executable: the device never looks */
  CHECK_EQ(submit(q, &p), 0);
  CHECK_EQ(hsa_signal_wait_scacquire(replacement, HSA_SIGNAL_CONDITION_EQ, 0, kTimeout, HSA_WAIT_STATE_BLOCKED), 0);
  CHECK_EQ(hsa_signal_load_relaxed(done), 1);
  CHECK_EQ(st->packets_seen, 1);
  CHECK_EQ(st->last_user_index, 0);
  CHECK_EQ(st->ncalls, 2);
  CHECK_EQ(st->calls[0], 2);
  CHECK_EQ(st->calls[1], 1);
  CHECK_OK(hsa_queue_destroy(q));
  CHECK_OK(hsa_signal_destroy(done));
  CHECK_OK(hsa_signal_destroy(replacement));
  CHECK_OK(hsa_shut_down());
  CHECK_EQ(st->onunload_calls, 1);
  CHECK_EQ(hsa_double_tool_count(), 0);
  unsetenv("HSA_TOOLS_REPORT_LOAD_FAILURE");
}

/* The tool refuses a table it does not know (or is told to); it is unloaded. */
static void phase_tool_refuses(const char *var, const char *value) {
  void *h;
  dummy_tool_state *st = tool_state(&h);
  if (!st) return;
  dlclose(h);
  int refused = st->refused, created = st->queues_created, unloads = st->onunload_calls;
  setenv("HSA_TOOLS_LIB", g_tool_path, 1);
  setenv(var, value, 1);
  CHECK_OK(hsa_init());
  CHECK_EQ(hsa_double_tool_count(), 0);
  CHECK_EQ(st->refused, refused + 1);
  agent_list l = agents();
  hsa_queue_t *q = NULL;
  CHECK_OK(hsa_queue_create(l.gpu[0], 64, HSA_QUEUE_TYPE_MULTI, NULL, NULL, UINT32_MAX, UINT32_MAX, &q));
  CHECK_EQ(st->queues_created, created); /* the double's own hsa_queue_create */
  CHECK_OK(hsa_queue_destroy(q));
  CHECK_OK(hsa_shut_down());
  CHECK_EQ(st->onunload_calls, unloads);
  unsetenv(var);
}

/* A tool already in the process is found by HSA_AMD_TOOL_PRIORITY, and once
 * only when HSA_TOOLS_LIB names it too. */
static void phase_tool_in_process(void) {
  void *h;
  dummy_tool_state *st = tool_state(&h);
  if (!st) return;
  dlclose(h);
  int loads = st->onload_calls;
  unsetenv("HSA_TOOLS_LIB");
  CHECK_OK(hsa_init());
  CHECK_EQ(hsa_double_tool_count(), 1);
  CHECK_EQ(st->onload_calls, loads + 1);
  CHECK_EQ(st->failed_count, 0);
  CHECK_OK(hsa_shut_down());
  setenv("HSA_TOOLS_LIB", g_tool_path, 1);
  CHECK_OK(hsa_init());
  CHECK_EQ(hsa_double_tool_count(), 1);
  CHECK_EQ(st->onload_calls, loads + 2);
  CHECK_OK(hsa_shut_down());
  unsetenv("HSA_TOOLS_LIB");
}

int main(int argc, char **argv) {
  if (argc != 2) {
    fprintf(stderr, "usage: %s <dir with static_lds.gfx90a.co, static_lds.gfx942.co, libdummy_tool.so>\n", argv[0]);
    return 2;
  }
  g_dir = argv[1];
  snprintf(g_tool_path, sizeof g_tool_path, "%s/libdummy_tool.so", g_dir);
  unsetenv("HSA_TOOLS_LIB");
  phase_runtime();
  void *keep = NULL;
  phase_tool_from_env(&keep);
  phase_tool_refuses("HSA_DOUBLE_TABLE_MAJOR", "2");
  phase_tool_refuses("HSA_DOUBLE_CORE_MINOR", "16");
  phase_tool_refuses("DUMMY_TOOL_REFUSE", "1");
  phase_tool_in_process();
  if (keep) dlclose(keep);
  fprintf(stderr, "double_selftest: %d checks, %d failed\n", checks, failures);
  return failures ? 1 : 0;
}
