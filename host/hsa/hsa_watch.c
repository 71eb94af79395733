/* ldsan HSA tools library: the code objects ldsan watches.
 * When an executable is frozen (its code objects loaded for an agent), every
 * agent's symbols are searched for __ldsan_device_state: a code object that
 * has it is registered with the host library (ABI check, report channel,
 * flags) and its kernels are remembered by kernel_object, so a dispatch packet
 * tells which code object and kernel it runs (hsa_queue.c asks). Destroying the
 * executable drains and forgets them. Threading: the watch list is under a
 * rwlock (dispatches read it on every submit; loads and unloads write it). */
#define _GNU_SOURCE /* pthread_rwlock_t under -std=c11 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hsa_tool.h"

typedef struct watched {
  uint64_t executable;
  ldsan_image *image;
  ldsan_hsa_kernel *kernels;
  size_t kernel_count;
} watched;

static pthread_rwlock_t watch_mu = PTHREAD_RWLOCK_INITIALIZER;
static watched *watch;
static size_t watch_count;

/* Collected while iterating one agent's symbols. */
typedef struct symbol_scan {
  uint64_t state_addr;
  ldsan_hsa_kernel *kernels;
  size_t count, cap;
} symbol_scan;

/* Copies the symbol's name into a new string, or returns NULL. */
static char *symbol_name(hsa_executable_symbol_t sym) {
  uint32_t len = 0;
  if (ldsan_hsa.executable_symbol_get_info(sym, HSA_EXECUTABLE_SYMBOL_INFO_NAME_LENGTH, &len) != HSA_STATUS_SUCCESS)
    return NULL;
  char *name = calloc(1, (size_t)len + 1);
  if (name && ldsan_hsa.executable_symbol_get_info(sym, HSA_EXECUTABLE_SYMBOL_INFO_NAME, name) != HSA_STATUS_SUCCESS) {
    free(name);
    return NULL;
  }
  return name;
}

static hsa_status_t scan_symbol(hsa_executable_t exec, hsa_agent_t agent, hsa_executable_symbol_t sym, void *data) {
  (void)exec;
  (void)agent;
  symbol_scan *s = data;
  hsa_symbol_kind_t kind;
  if (ldsan_hsa.executable_symbol_get_info(sym, HSA_EXECUTABLE_SYMBOL_INFO_TYPE, &kind) != HSA_STATUS_SUCCESS)
    return HSA_STATUS_SUCCESS;
  char *name = symbol_name(sym);
  if (!name) return HSA_STATUS_SUCCESS;
  if (kind == HSA_SYMBOL_KIND_VARIABLE && !strcmp(name, LDSAN_DEVICE_STATE_SYMBOL)) {
    ldsan_hsa.executable_symbol_get_info(sym, HSA_EXECUTABLE_SYMBOL_INFO_VARIABLE_ADDRESS, &s->state_addr);
  } else if (kind == HSA_SYMBOL_KIND_KERNEL) {
    if (s->count == s->cap) {
      size_t cap = s->cap ? 2 * s->cap : 16;
      ldsan_hsa_kernel *k = realloc(s->kernels, cap * sizeof *k);
      if (!k) { free(name); return HSA_STATUS_SUCCESS; }
      s->kernels = k;
      s->cap = cap;
    }
    ldsan_hsa_kernel *k = &s->kernels[s->count];
    memset(k, 0, sizeof *k);
    ldsan_hsa.executable_symbol_get_info(sym, HSA_EXECUTABLE_SYMBOL_INFO_KERNEL_OBJECT, &k->kernel_object);
    ldsan_hsa.executable_symbol_get_info(sym, HSA_EXECUTABLE_SYMBOL_INFO_KERNEL_KERNARG_SEGMENT_SIZE, &k->kernarg_size);
    size_t n = strlen(name);
    if (n > 3 && !strcmp(name + n - 3, ".kd")) name[n - 3] = 0;  /* code object v3+ names the descriptor */
    k->name = name;
    s->count++;
    return HSA_STATUS_SUCCESS;
  }
  free(name);
  return HSA_STATUS_SUCCESS;
}

static void free_kernels(ldsan_hsa_kernel *k, size_t n) {
  for (size_t i = 0; i < n; i++) free(k[i].name);
  free(k);
}

/* Registers the executable's code object on one agent if it carries ldsan. */
static void watch_agent(hsa_executable_t exec, ldsan_hsa_agent *a) {
  symbol_scan s = {0};
  ldsan_hsa.executable_iterate_agent_symbols(exec, a->agent, scan_symbol, &s);
  if (!s.state_addr) { free_kernels(s.kernels, s.count); return; }
  char uri[512] = {0}, name[640];
  ldsan_hsa_symbols_add(exec, a, uri, sizeof uri);
  if (uri[0]) snprintf(name, sizeof name, "code object %s on %s (agent %d)", uri, a->name, a->index);
  else snprintf(name, sizeof name, "the code object of HSA executable 0x%llx on %s (agent %d)",
                (unsigned long long)exec.handle, a->name, a->index);
  ldsan_image *img = ldsan_host_image_register(&a->backend, name, s.state_addr);
  if (!img) { free_kernels(s.kernels, s.count); return; }
  for (size_t i = 0; i < s.count; i++) s.kernels[i].image = img;
  pthread_rwlock_wrlock(&watch_mu);
  watched *w = realloc(watch, (watch_count + 1) * sizeof *w);
  if (w) {
    watch = w;
    watch[watch_count++] = (watched){exec.handle, img, s.kernels, s.count};
  }
  pthread_rwlock_unlock(&watch_mu);
  if (!w) { free_kernels(s.kernels, s.count); ldsan_host_image_unregister(img); }
}

static hsa_status_t visit_gpu(hsa_agent_t agent, void *data) {
  ldsan_hsa_agent *a = ldsan_hsa_agent_of(agent);
  if (a) watch_agent(*(hsa_executable_t *)data, a);
  return HSA_STATUS_SUCCESS;
}

hsa_status_t ldsan_hsa_executable_freeze(hsa_executable_t exec, const char *options) {
  hsa_status_t st = ldsan_hsa.executable_freeze(exec, options);
  /* Loaded code objects are final (relocated, globals initialized) once frozen. */
  if (st == HSA_STATUS_SUCCESS) ldsan_hsa.iterate_agents(visit_gpu, &exec);
  return st;
}

/* Removes the executable's entries (all of them when exec is NULL) and
 * unregisters their images, which drains them. */
static void unwatch(const hsa_executable_t *exec) {
  for (;;) {
    watched w = {0};
    int found = 0;
    pthread_rwlock_wrlock(&watch_mu);
    for (size_t i = 0; i < watch_count; i++)
      if (!exec || watch[i].executable == exec->handle) {
        w = watch[i];
        watch[i] = watch[--watch_count];
        found = 1;
        break;
      }
    pthread_rwlock_unlock(&watch_mu);
    if (!found) return;
    ldsan_host_image_unregister(w.image);  /* outside the lock: draining may print or end the process */
    free_kernels(w.kernels, w.kernel_count);
  }
}

hsa_status_t ldsan_hsa_executable_destroy(hsa_executable_t exec) {
  unwatch(&exec);
  ldsan_hsa_symbols_remove(&exec);
  return ldsan_hsa.executable_destroy(exec);
}

int ldsan_hsa_find_kernel(uint64_t kernel_object, ldsan_hsa_kernel *out, char *name_buf, size_t name_len) {
  int found = 0;
  pthread_rwlock_rdlock(&watch_mu);
  for (size_t i = 0; i < watch_count && !found; i++)
    for (size_t k = 0; k < watch[i].kernel_count; k++)
      if (watch[i].kernels[k].kernel_object == kernel_object) {
        *out = watch[i].kernels[k];
        snprintf(name_buf, name_len, "%s", watch[i].kernels[k].name);
        out->name = name_buf;
        found = 1;
        break;
      }
  pthread_rwlock_unlock(&watch_mu);
  return found ? 0 : -1;
}

void ldsan_hsa_watch_release(void) {
  unwatch(NULL);
  ldsan_hsa_symbols_remove(NULL);
  pthread_rwlock_wrlock(&watch_mu);
  free(watch);
  watch = NULL;
  watch_count = 0;
  pthread_rwlock_unlock(&watch_mu);
}
