/* hsa_double/selftest/loader.c — loading real ldsan code objects (and refusing
 * them on the wrong agent), symbols, the AMD loader extension, file readers and
 * a malformed code object. */
#define _GNU_SOURCE
#include <elf.h>
#include <fcntl.h>
#include <stdlib.h>
#include <unistd.h>

#include <hsa/hsa_ven_amd_loader.h>

#include "ldsan/abi.h"
#include "selftest.h"

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

void test_loader(hsa_executable_t *kept, hsa_code_object_reader_t *kept_reader, void *co90a, size_t size90a) {
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
