/* ldsan HSA tools library: device pcs to source lines. A report's pc is a
 * device address inside a loaded code object. When an executable is frozen,
 * ROCr's loader extension lists its loaded code objects: each one's load range
 * and delta, and its ELF image (in memory, or a file). The image is written
 * once to a private file (llvm-symbolizer reads files), and a pc in the range
 * is looked up there at pc - 1 - delta, the ELF address of the call that
 * reported (the pc is the return address). Threading: the module list is
 * under a lock; lookups happen under the host library's report mutex. */
#define _GNU_SOURCE
#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <hsa/hsa_ven_amd_loader.h>

#include "hsa_tool.h"

typedef struct co_module {
  struct co_module *next;
  uint64_t executable;
  hsa_agent_t agent;
  uint64_t load_base, load_size;
  int64_t load_delta;            /* device address = ELF address + delta */
  char path[256];                /* the ELF image as a file */
  int owns_file;                 /* ldsan wrote it: removed with the module */
  const char *uri;               /* the loader's name for it (interned), or NULL */
} co_module;

/* Module names printed in frames outlive their module (a report may print
 * after the executable is gone): kept until shutdown. */
typedef struct interned { struct interned *next; char s[]; } interned;
static interned *names;

static pthread_mutex_t mu = PTHREAD_MUTEX_INITIALIZER;
static co_module *modules;
static hsa_ven_amd_loader_1_01_pfn_t loader;
static int loader_state;  /* 0 not asked, 1 have it, -1 none */

static int have_loader(void) {
  if (loader_state == 0)
    loader_state = ldsan_hsa.system_get_major_extension_table &&
                           ldsan_hsa.system_get_major_extension_table(HSA_EXTENSION_AMD_LOADER, 1, sizeof loader,
                                                                      &loader) == HSA_STATUS_SUCCESS &&
                           loader.hsa_ven_amd_loader_executable_iterate_loaded_code_objects &&
                           loader.hsa_ven_amd_loader_loaded_code_object_get_info
                       ? 1
                       : -1;
  return loader_state == 1;
}

/* Writes n bytes at p to a new private file; fills path, returns 0. */
static int write_image(const void *p, size_t n, char *path, size_t len) {
  const char *dir = getenv("TMPDIR");
  snprintf(path, len, "%s/ldsan-%ld-XXXXXX.co", dir && *dir ? dir : "/tmp", (long)getpid());
  int fd = mkstemps(path, 3);
  if (fd < 0) return -1;
  const char *b = p;
  size_t done = 0;
  while (done < n) {
    ssize_t w = write(fd, b + done, n - done);
    if (w <= 0) break;
    done += (size_t)w;
  }
  close(fd);
  if (done != n) { unlink(path); return -1; }
  return 0;
}

typedef struct add_ctx { hsa_executable_t exec; ldsan_hsa_agent *agent; char *name; size_t len; } add_ctx;

static hsa_status_t add_loaded(hsa_executable_t exec, hsa_loaded_code_object_t lco, void *data) {
  add_ctx *c = data;
  hsa_status_t (*info)(hsa_loaded_code_object_t, hsa_ven_amd_loader_loaded_code_object_info_t, void *) =
      loader.hsa_ven_amd_loader_loaded_code_object_get_info;
  hsa_agent_t agent = {0};
  if (info(lco, HSA_VEN_AMD_LOADER_LOADED_CODE_OBJECT_INFO_AGENT, &agent) != HSA_STATUS_SUCCESS ||
      agent.handle != c->agent->agent.handle)
    return HSA_STATUS_SUCCESS;
  co_module *m = calloc(1, sizeof *m);
  if (!m) return HSA_STATUS_SUCCESS;
  m->executable = exec.handle;
  m->agent = agent;
  info(lco, HSA_VEN_AMD_LOADER_LOADED_CODE_OBJECT_INFO_LOAD_BASE, &m->load_base);
  info(lco, HSA_VEN_AMD_LOADER_LOADED_CODE_OBJECT_INFO_LOAD_SIZE, &m->load_size);
  info(lco, HSA_VEN_AMD_LOADER_LOADED_CODE_OBJECT_INFO_LOAD_DELTA, &m->load_delta);
  uint32_t uri_len = 0;
  if (info(lco, HSA_VEN_AMD_LOADER_LOADED_CODE_OBJECT_INFO_URI_LENGTH, &uri_len) == HSA_STATUS_SUCCESS &&
      uri_len && uri_len < c->len) {
    /* The URI comes without a terminating NUL. */
    memset(c->name, 0, c->len);
    if (info(lco, HSA_VEN_AMD_LOADER_LOADED_CODE_OBJECT_INFO_URI, c->name) != HSA_STATUS_SUCCESS) c->name[0] = 0;
    interned *n = c->name[0] ? malloc(sizeof *n + strlen(c->name) + 1) : NULL;
    if (n) {
      strcpy(n->s, c->name);
      pthread_mutex_lock(&mu);
      n->next = names;
      names = n;
      pthread_mutex_unlock(&mu);
      m->uri = n->s;
    }
  }
  uint32_t storage = 0;
  info(lco, HSA_VEN_AMD_LOADER_LOADED_CODE_OBJECT_INFO_CODE_OBJECT_STORAGE_TYPE, &storage);
  if (storage == HSA_VEN_AMD_LOADER_CODE_OBJECT_STORAGE_TYPE_MEMORY) {
    uint64_t base = 0, size = 0;
    info(lco, HSA_VEN_AMD_LOADER_LOADED_CODE_OBJECT_INFO_CODE_OBJECT_STORAGE_MEMORY_BASE, &base);
    info(lco, HSA_VEN_AMD_LOADER_LOADED_CODE_OBJECT_INFO_CODE_OBJECT_STORAGE_MEMORY_SIZE, &size);
    if (base && size && write_image((const void *)(uintptr_t)base, size, m->path, sizeof m->path) == 0)
      m->owns_file = 1;
  } else if (storage == HSA_VEN_AMD_LOADER_CODE_OBJECT_STORAGE_TYPE_FILE) {
    /* A file descriptor the runtime keeps open: /proc/self/fd names it. */
    int fd = -1;
    if (info(lco, HSA_VEN_AMD_LOADER_LOADED_CODE_OBJECT_INFO_CODE_OBJECT_STORAGE_FILE, &fd) == HSA_STATUS_SUCCESS &&
        fd >= 0)
      snprintf(m->path, sizeof m->path, "/proc/%ld/fd/%d", (long)getpid(), fd);
  }
  pthread_mutex_lock(&mu);
  m->next = modules;
  modules = m;
  pthread_mutex_unlock(&mu);
  return HSA_STATUS_SUCCESS;
}

/* Code objects the program never destroyed leave no files behind: at exit, and
 * when a fatal report ends the process (ldsan_host_die skips exit handlers).
 * The die hook only unlinks (the list stays: the dying thread holds the report
 * mutex, and another thread may be adding a module): when the list is busy it
 * leaves the files rather than wait. */
static void remove_all_at_exit(void) { ldsan_hsa_symbols_remove(NULL); }
void ldsan_hsa_symbols_unlink_all(void) {
  if (pthread_mutex_trylock(&mu) != 0) return;
  for (co_module *m = modules; m; m = m->next)
    if (m->owns_file) unlink(m->path);
  pthread_mutex_unlock(&mu);
}
static pthread_once_t at_exit_once = PTHREAD_ONCE_INIT;
static void install_at_exit(void) {
  atexit(remove_all_at_exit);
  ldsan_host_at_die(ldsan_hsa_symbols_unlink_all);
}

void ldsan_hsa_symbols_add(hsa_executable_t exec, ldsan_hsa_agent *a, char *name, size_t len) {
  if (!have_loader()) return;
  pthread_once(&at_exit_once, install_at_exit);
  add_ctx c = {exec, a, name, len};
  loader.hsa_ven_amd_loader_executable_iterate_loaded_code_objects(exec, add_loaded, &c);
}

void ldsan_hsa_symbols_remove(const hsa_executable_t *exec) {
  pthread_mutex_lock(&mu);
  for (co_module **p = &modules; *p;) {
    co_module *m = *p;
    if (exec && m->executable != exec->handle) { p = &m->next; continue; }
    *p = m->next;
    if (m->owns_file) unlink(m->path);
    free(m);
  }
  for (interned *n; !exec && (n = names);) {  /* shutdown: no report prints any more */
    names = n->next;
    free(n);
  }
  pthread_mutex_unlock(&mu);
}

int ldsan_hsa_symbolize(void *ctx, uint64_t pc, ldsan_frame *frames, int max_frames) {
  const ldsan_hsa_agent *a = ctx;
  char path[256] = {0};
  const char *uri = NULL;
  uint64_t address = 0;
  pthread_mutex_lock(&mu);
  for (co_module *m = modules; m; m = m->next)
    if (m->agent.handle == a->agent.handle && pc > m->load_base && pc - m->load_base <= m->load_size && m->path[0]) {
      snprintf(path, sizeof path, "%s", m->path);
      address = pc - (uint64_t)m->load_delta;
      uri = m->uri;
      break;
    }
  pthread_mutex_unlock(&mu);
  if (!path[0]) return 0;
  /* The pc is a return address: the reporting call is the instruction before. */
  int n = ldsan_symbolize_module(path, address - 1, frames, max_frames);
  for (int i = 0; i < n; i++) {
    frames[i].module_offset = address;
    if (uri) frames[i].module = uri;  /* what the user knows it by, not ldsan's copy */
  }
  return n;
}
