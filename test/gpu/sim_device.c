/* ldsan GPU-path tests: the simulated GPU (see sim_device.h). */
#define _GNU_SOURCE
#include "sim_device.h"

#include <elf.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <hsa/hsa_ext_amd.h>

#include "hsa_double.h"
#include "ldsan/abi.h"

#define MAX_PLANS 16
#define BLOCK_STRIDE (64u << 10)  /* bytes between simulated workgroup blocks in the pool */

static pthread_mutex_t plans_mu = PTHREAD_MUTEX_INITIALIZER;
static struct { uint64_t kernel_object; sim_plan plan; } plans[MAX_PLANS];
static int plan_count;

/* ---- the code object file ---------------------------------------------------- */
typedef struct file_image { const char *path; unsigned char *bytes; size_t size; } file_image;
#define MAX_FILES 8
static file_image files[MAX_FILES];
static int file_count;

static const file_image *file_of(const char *path) {
  for (int i = 0; i < file_count; i++)
    if (!strcmp(files[i].path, path)) return &files[i];
  FILE *f = fopen(path, "rb");
  if (!f || file_count == MAX_FILES) { if (f) fclose(f); return NULL; }
  fseek(f, 0, SEEK_END);
  long n = ftell(f);
  fseek(f, 0, SEEK_SET);
  file_image *fi = &files[file_count];
  fi->bytes = malloc((size_t)n);
  if (!fi->bytes || fread(fi->bytes, 1, (size_t)n, f) != (size_t)n) { fclose(f); free(fi->bytes); return NULL; }
  fclose(f);
  fi->path = path;
  fi->size = (size_t)n;
  file_count++;
  return fi;
}

/* st_value of `name` in the file's .symtab (every symbol, internal ones too), or 0. */
static uint64_t elf_symbol(const file_image *fi, const char *name) {
  const Elf64_Ehdr *eh = (const Elf64_Ehdr *)fi->bytes;
  const Elf64_Shdr *sh = (const Elf64_Shdr *)(fi->bytes + eh->e_shoff);
  for (int i = 0; i < eh->e_shnum; i++) {
    if (sh[i].sh_type != SHT_SYMTAB) continue;
    const Elf64_Sym *sym = (const Elf64_Sym *)(fi->bytes + sh[i].sh_offset);
    const char *str = (const char *)(fi->bytes + sh[sh[i].sh_link].sh_offset);
    for (size_t k = 0; k < sh[i].sh_size / sizeof *sym; k++)
      if (!strcmp(str + sym[k].st_name, name)) return sym[k].st_value;
  }
  return 0;
}

uint64_t sim_symbol(const sim_code_object *co, const char *name) {
  const file_image *fi = file_of(co->path);
  uint64_t v = fi ? elf_symbol(fi, name) : 0;
  return v ? v + co->load_delta : 0;
}

static uint64_t variable_address(hsa_executable_t exec, hsa_agent_t agent, const char *name) {
  hsa_executable_symbol_t sym;
  uint64_t addr = 0;
  if (hsa_executable_get_symbol_by_name(exec, name, &agent, &sym) != HSA_STATUS_SUCCESS) return 0;
  hsa_executable_symbol_get_info(sym, HSA_EXECUTABLE_SYMBOL_INFO_VARIABLE_ADDRESS, &addr);
  return addr;
}

int sim_load(sim_code_object *co, const char *path, hsa_agent_t agent) {
  memset(co, 0, sizeof *co);
  co->path = path;
  co->agent = agent;
  const file_image *fi = file_of(path);
  if (!fi) { fprintf(stderr, "test: cannot read code object %s\n", path); return -1; }
  hsa_code_object_reader_t reader;
  hsa_status_t st = hsa_code_object_reader_create_from_memory(fi->bytes, fi->size, &reader);
  if (st == HSA_STATUS_SUCCESS)
    st = hsa_executable_create_alt(HSA_PROFILE_FULL, HSA_DEFAULT_FLOAT_ROUNDING_MODE_DEFAULT, NULL, &co->executable);
  if (st == HSA_STATUS_SUCCESS) st = hsa_executable_load_agent_code_object(co->executable, agent, reader, NULL, NULL);
  /* The first read of the device state happens at freeze: what a test does
   * to the image before that (sim_before_freeze) is what ldsan sees. */
  if (st == HSA_STATUS_SUCCESS) {
    co->state = variable_address(co->executable, agent, LDSAN_DEVICE_STATE_SYMBOL);
    co->pool = variable_address(co->executable, agent, "__ldsan_builtin_pool");
    co->load_delta = co->state - elf_symbol(fi, LDSAN_DEVICE_STATE_SYMBOL);
    const char *abi = getenv("SIM_STATE_ABI");   /* a code object from another ldsan */
    if (abi) {
      uint32_t *v = hsa_double_device_view(co->state, 4);
      if (v) *v = (uint32_t)atoi(abi);
    }
    st = hsa_executable_freeze(co->executable, NULL);
  }
  hsa_code_object_reader_destroy(reader);
  if (st != HSA_STATUS_SUCCESS) { fprintf(stderr, "test: loading %s failed: status 0x%x\n", path, st); return -1; }
  return 0;
}

void sim_set_plan(uint64_t kernel_object, const sim_plan *plan) {
  pthread_mutex_lock(&plans_mu);
  int i = 0;
  while (i < plan_count && plans[i].kernel_object != kernel_object) i++;
  if (i == plan_count && plan_count < MAX_PLANS) plan_count++;
  plans[i].kernel_object = kernel_object;
  plans[i].plan = *plan;
  pthread_mutex_unlock(&plans_mu);
}

/* ---- what the device runtime does in the kernel ------------------------------- */
/* The device writes the shadow. A full-ASan code object's is ASan's, in the
 * process (in this ASan-built test ASan's own shadow, which instrumented stores
 * may not touch: their check would read the shadow of the shadow); an LDS-only
 * one's (LDSAN_STATE_OWN_SHADOW) is device memory beside the store, at the
 * offset the host wrote into its state. Returns -1 where the device could not
 * write it (on hardware: a fault). */
__attribute__((no_sanitize("address"))) static int shadow_set(const ldsan_device_state *state, uint64_t lo,
                                                               uint64_t hi, uint8_t v) {
  for (uint64_t a = lo; a < hi; a += LDSAN_SHADOW_GRANULE) {
    if (state->flags & LDSAN_STATE_OWN_SHADOW) {
      uint8_t *s = hsa_double_device_view((a >> LDSAN_SHADOW_SCALE) + state->shadow_offset, 1);
      if (!state->shadow_offset || !s) return -1;
      *s = v;
    } else {
      *(volatile uint8_t *)(uintptr_t)((a >> LDSAN_SHADOW_SCALE) + LDSAN_SHADOW_OFFSET) = v;
    }
  }
  return 0;
}

/* Whether the store at base was seen (and checked) before; remembers it. */
static int sim_store_seen(uint64_t base) {
  static uint64_t seen[8];
  static int n;
  pthread_mutex_lock(&plans_mu);
  int found = 0;
  for (int i = 0; i < n && !found; i++) found = seen[i] == base;
  if (!found && n < 8) seen[n++] = base;
  pthread_mutex_unlock(&plans_mu);
  return found;
}

/* Finds the plan's variable in the kernel's descriptor; returns its record. */
static int find_var(uint64_t kdesc, const char *want, ldsan_var_desc *out, uint32_t *static_size) {
  const ldsan_kernel_desc *h = hsa_double_device_view(kdesc, sizeof *h);
  if (!h || h->magic != LDSAN_DESC_MAGIC) return -1;
  const unsigned char *blob = hsa_double_device_view(kdesc, h->total_size);
  const ldsan_var_desc *v = (const ldsan_var_desc *)(blob + sizeof *h);
  *static_size = h->static_size;
  /* Without -g only the IR name is there: a function-local __shared__ is
   * mangled _ZZ<function>E<length><name>. */
  char suffix[80];
  snprintf(suffix, sizeof suffix, "E%zu%s", strlen(want), want);
  for (uint32_t i = 0; i < h->var_count; i++) {
    const char *src = v[i].source_name ? (const char *)blob + v[i].source_name : "";
    const char *ir = v[i].name ? (const char *)blob + v[i].name : "";
    size_t n = strlen(ir), m = strlen(suffix);
    if (!strcmp(src, want) || (n >= m && !strcmp(ir + n - m, suffix))) { *out = v[i]; return 0; }
  }
  return -1;
}

static hsa_double_outcome sim_run(void *ctx, hsa_agent_t agent, const hsa_kernel_dispatch_packet_t *p) {
  (void)ctx;
  (void)agent;
  sim_plan plan;
  int found = 0;
  pthread_mutex_lock(&plans_mu);
  for (int i = 0; i < plan_count; i++)
    if (plans[i].kernel_object == p->kernel_object) { plan = plans[i].plan; found = 1; }
  pthread_mutex_unlock(&plans_mu);
  if (!found || plan.reports == 0) return found && plan.fault ? HSA_DOUBLE_TRAP : HSA_DOUBLE_COMPLETE;

  if (plan.workgroup == SIM_FROM_ARG) plan.workgroup = p->kernarg_address ? *(const uint32_t *)p->kernarg_address : 0;
  const sim_code_object *co = plan.co;
  const ldsan_device_state *state = hsa_double_device_view(co->state, sizeof *state);
  char kname[300];
  snprintf(kname, sizeof kname, "__ldsan_kdesc.%s", plan.kernel);
  uint64_t kdesc = sim_symbol(co, kname), pc = sim_symbol(co, plan.kernel) + 0x40;
  ldsan_var_desc var;
  uint32_t static_size;
  if (!state || !kdesc || find_var(kdesc, plan.variable, &var, &static_size) != 0) {
    fprintf(stderr, "test: cannot simulate %s: state 0x%llx, descriptor 0x%llx, variable '%s' %s\n", plan.kernel,
            (unsigned long long)co->state, (unsigned long long)kdesc, plan.variable, kdesc ? "not found" : "");
    return HSA_DOUBLE_MEMFAULT;
  }
  /* The workgroup's block, its header and shadow (kernel prologue), in the LDS
   * backing store the host gave this device (ldsan's per-device store), else
   * the code object's built-in pool. The store must be memory the agent may
   * reach, zeroed as the pool requires: on hardware anything else faults or
   * corrupts the allocator. */
  uint64_t pool = state->pool_base, pool_size = state->pool_size; /* the built-in pool: the loader's relocation */
  if (pool == 0) {
    fprintf(stderr, "test: __ldsan_device_state.pool_base is 0 in %s: the loader did not apply its relocation\n",
            plan.kernel);
    return HSA_DOUBLE_MEMFAULT;
  }
  const unsigned char *head = hsa_double_device_view(pool, 4096);
  if (!hsa_double_access_allowed(agent, pool, pool_size) || !head ||
      !hsa_double_device_view(pool, pool_size)) {
    fprintf(stderr, "test: the LDS backing store 0x%llx (%llu bytes) is not memory agent %llu may access\n",
            (unsigned long long)pool, (unsigned long long)pool_size, (unsigned long long)agent.handle);
    return HSA_DOUBLE_MEMFAULT;
  }
  if (pool != co->pool && !sim_store_seen(pool)) {
    for (int i = 0; i < 4096; i++)
      if (head[i]) {
        fprintf(stderr, "test: the LDS backing store is not zeroed (byte %d)\n", i);
        return HSA_DOUBLE_MEMFAULT;
      }
    hsa_amd_pointer_info_t info = {.size = sizeof info};
    int vram = hsa_amd_pointer_info((void *)(uintptr_t)pool, &info, NULL, NULL, NULL) == HSA_STATUS_SUCCESS &&
               info.agentOwner.handle == agent.handle &&
               (info.global_flags & HSA_AMD_MEMORY_POOL_GLOBAL_FLAG_COARSE_GRAINED);
    fprintf(stderr, "test: LDS backing store of %llu bytes at 0x%llx, zeroed, %s, for %s\n",
            (unsigned long long)pool_size, (unsigned long long)pool,
            vram ? "in the agent's VRAM" : "not in the agent's VRAM", plan.kernel);
  }
  uint64_t slots = (pool_size - 4096) / BLOCK_STRIDE;
  uint64_t chunk = pool + 4096 + (uint64_t)plan.workgroup % (slots < 512 ? slots : 512) * BLOCK_STRIDE;
  uint64_t block = chunk + LDSAN_BLOCK_HEADER_SIZE;
  ldsan_block_header *hdr = hsa_double_device_view(chunk, sizeof *hdr);
  memset(hdr, 0, sizeof *hdr);
  hdr->magic = LDSAN_BLOCK_MAGIC;
  hdr->self = block;
  hdr->kernel_desc = kdesc;
  hdr->block_size = static_size;
  hdr->chunk_size = BLOCK_STRIDE;
  hdr->chunk_seal = ldsan_chunk_seal(block, BLOCK_STRIDE, 0); /* as device/block.c init_block */
  uint64_t var_end = block + var.offset + var.size;
  if (shadow_set(state, chunk, block, LDSAN_SHADOW_LDS_BLOCK_HEADER) != 0 || shadow_set(state, block, block + static_size, 0) != 0 ||
      shadow_set(state, var_end, var_end + var.redzone, LDSAN_SHADOW_LDS_REDZONE) != 0 ||
      shadow_set(state, block + static_size, chunk + BLOCK_STRIDE, LDSAN_SHADOW_LDS_DYNAMIC_TAIL) != 0) {
    fprintf(stderr, "test: the LDS-only code object's shadow (offset 0x%llx) is not device memory\n",
            (unsigned long long)state->shadow_offset);
    return HSA_DOUBLE_MEMFAULT;
  }

  /* Each reporting lane: claim, fill, publish (abi.h protocol). */
  ldsan_report_channel *ch = state->channel ? (ldsan_report_channel *)(uintptr_t)state->channel
                                            : hsa_double_device_view(sim_symbol(co, "__ldsan_builtin_channel"),
                                                                     sizeof *ch);
  uint32_t capacity = ch->capacity < LDSAN_CHANNEL_CAPACITY ? ch->capacity : LDSAN_CHANNEL_CAPACITY;
  for (uint32_t k = 0; k < plan.reports; k++) {
    uint32_t ticket = __atomic_fetch_add(&ch->next, 1u, __ATOMIC_RELAXED);
    ldsan_report_record *r = capacity ? &ch->records[ticket % capacity] : NULL;
    uint32_t empty = LDSAN_RECORD_EMPTY;
    if (!r || !__atomic_compare_exchange_n(&r->state, &empty, LDSAN_RECORD_WRITING, 0, __ATOMIC_ACQ_REL,
                                           __ATOMIC_RELAXED)) {
      __atomic_fetch_add(&ch->dropped, 1u, __ATOMIC_RELAXED);
      continue;
    }
    uint64_t addr = var_end + 4u * (k % (var.redzone / 4u ? var.redzone / 4u : 1u));
    r->kind = LDSAN_REPORT_BAD_ACCESS;
    r->address = r->access_address = addr;
    r->size = 4;
    r->pc = pc;
    r->kernel_desc = kdesc;
    r->block = block;
    r->flags = LDSAN_ACCESS_WRITE;
    r->shadow_byte = LDSAN_SHADOW_LDS_REDZONE;
    r->workgroup_id[0] = plan.workgroup;
    r->workgroup_id[1] = r->workgroup_id[2] = 0;
    r->workitem_id[0] = plan.first_item + k;
    r->workitem_id[1] = r->workitem_id[2] = 0;
    r->lane = (plan.first_item + k) % 64u;
    r->dynamic_size = 0;
    /* The implicit-argument pointer: after the explicit arguments (int*, int). */
    r->dispatch = (uint64_t)(uintptr_t)p->kernarg_address + 16u;
    __atomic_store_n(&r->state, LDSAN_RECORD_READY, __ATOMIC_RELEASE);
  }
  if (plan.memory_fault) return HSA_DOUBLE_MEMFAULT;  /* a wild pointer later in the kernel */
  /* The runtime traps after an aborting report when the host asked to halt. */
  return (state->flags & LDSAN_STATE_HALT_ON_ERROR) ? HSA_DOUBLE_TRAP : HSA_DOUBLE_COMPLETE;
}

void sim_install(void) { hsa_double_set_device(sim_run, NULL); }
