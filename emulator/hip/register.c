/* ldsan CPU emulator, HIP layer: the registration calls clang's HIP host code
 * emits from its module constructor (__hipRegisterFatBinary, __hipRegisterFunction,
 * __hipRegisterVar, ...) and the lookups from host handles to emulated kernels
 * and globals. The fat binary itself is a placeholder: the device code arrives
 * as retargeted objects that register themselves with the core (emu.h), so
 * kernels are matched by device name, lazily at first launch (constructor
 * order between host and device objects is unspecified).
 * Threading: one mutex guards the tables; entries are never moved once added. */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hip_internal.h"

/* What clang's host code passes to __hipRegisterFatBinary (its fat binary wrapper). */
typedef struct ldsan_emu_fatbin_wrapper {
  uint32_t magic;    /* 0x48495046 'HIPF' */
  uint32_t version;
  const void *binary;
  const void *unused;
} ldsan_emu_fatbin_wrapper;

#define LDSAN_EMU_FATBIN_MAGIC 0x48495046u

/* A fat binary placeholder for hand-made links (test/emulator/hip_layer.sh):
 * the --emulate driver defines each __hip_fatbin_<cuid> itself. */
const char ldsan_emu_fatbin_placeholder[] = "ldsan-emu-fatbin";

typedef struct ldsan_emu_kernel_entry {
  void **module;
  const void *host_function;
  const char *device_name;
  const ldsan_emu_kernel *kernel;  /* resolved on first launch */
} ldsan_emu_kernel_entry;

typedef struct ldsan_emu_var_entry {
  void **module;
  const void *host_var;
  const char *device_name;
  const ldsan_emu_global *global;  /* resolved on first use */
} ldsan_emu_var_entry;

static pthread_mutex_t ldsan_emu_reg_lock = PTHREAD_MUTEX_INITIALIZER;
static ldsan_emu_kernel_entry *ldsan_emu_kernels;
static size_t ldsan_emu_kernel_count, ldsan_emu_kernel_cap;
static ldsan_emu_var_entry *ldsan_emu_vars;
static size_t ldsan_emu_var_count, ldsan_emu_var_cap;

/* Grows *array (of elem-byte items) to hold one more; out of memory, the
 * process ends (ldsan_emu_xrealloc): there is no way to report failure from a
 * module constructor. */
static void *ldsan_emu_grow(void *array, size_t *cap, size_t count, size_t elem, const char *what) {
  if (count < *cap) return array;
  size_t ncap = *cap ? *cap * 2 : 64;
  void *n = ldsan_emu_xrealloc(array, ncap * elem, what);
  *cap = ncap;
  return n;
}

void **__hipRegisterFatBinary(const void *data) {
  const ldsan_emu_fatbin_wrapper *w = data;
  if (!w || w->magic != LDSAN_EMU_FATBIN_MAGIC) {
    fprintf(stderr, LDSAN_EMU_PREFIX ": error: __hipRegisterFatBinary: not a HIP fat binary wrapper "
                    "(magic %#x); was this object compiled by clang -x hip?\n", w ? w->magic : 0u);
    abort();
  }
  /* The handle only has to be unique per module; a heap cell is. */
  void **handle = ldsan_emu_xalloc(sizeof(void *), 0, "a HIP module handle (__hipRegisterFatBinary)");
  ldsan_emu_hip_not_a_leak(handle);
  *handle = (void *)w;
  return handle;
}

void __hipUnregisterFatBinary(void **module) {
  pthread_mutex_lock(&ldsan_emu_reg_lock);
  size_t k = 0;
  for (size_t i = 0; i < ldsan_emu_kernel_count; i++)
    if (ldsan_emu_kernels[i].module != module) ldsan_emu_kernels[k++] = ldsan_emu_kernels[i];
  ldsan_emu_kernel_count = k;
  k = 0;
  for (size_t i = 0; i < ldsan_emu_var_count; i++)
    if (ldsan_emu_vars[i].module != module) ldsan_emu_vars[k++] = ldsan_emu_vars[i];
  ldsan_emu_var_count = k;
  pthread_mutex_unlock(&ldsan_emu_reg_lock);
  free(module);
}

int __hipRegisterFunction(void **module, const void *host_function, char *device_function,
                          const char *device_name, unsigned int thread_limit, void *tid, void *bid,
                          void *block_dim, void *grid_dim, int *wave_size) {
  (void)device_function; (void)thread_limit; (void)tid; (void)bid;
  (void)block_dim; (void)grid_dim; (void)wave_size;
  pthread_mutex_lock(&ldsan_emu_reg_lock);
  ldsan_emu_kernels = ldsan_emu_grow(ldsan_emu_kernels, &ldsan_emu_kernel_cap, ldsan_emu_kernel_count,
                                     sizeof *ldsan_emu_kernels, "the HIP layer's table of kernels");
  ldsan_emu_kernels[ldsan_emu_kernel_count++] =
      (ldsan_emu_kernel_entry){module, host_function, device_name, NULL};
  pthread_mutex_unlock(&ldsan_emu_reg_lock);
  return 0;
}

void __hipRegisterVar(void **module, void *host_var, char *host_name, char *device_name, int ext,
                      size_t size, int constant, int global) {
  (void)host_name; (void)ext; (void)size; (void)constant; (void)global;
  pthread_mutex_lock(&ldsan_emu_reg_lock);
  ldsan_emu_vars = ldsan_emu_grow(ldsan_emu_vars, &ldsan_emu_var_cap, ldsan_emu_var_count,
                                  sizeof *ldsan_emu_vars, "the HIP layer's table of device variables");
  ldsan_emu_vars[ldsan_emu_var_count++] = (ldsan_emu_var_entry){module, host_var, device_name, NULL};
  pthread_mutex_unlock(&ldsan_emu_reg_lock);
}

/* Managed variables, textures and surfaces need memory the CPU emulator does
 * not model: refuse at registration, naming the construct. */
static void ldsan_emu_unsupported_registration(const char *what, const char *name) {
  fprintf(stderr, LDSAN_EMU_PREFIX ": error: %s '%s' is not supported by the CPU emulator; "
                  "build without --emulate to run it on a GPU\n", what, name ? name : "?");
  abort();
}

void __hipRegisterManagedVar(void *module, void **pointer, void *init_value, const char *name,
                             size_t size, unsigned align) {
  (void)module; (void)pointer; (void)init_value; (void)size; (void)align;
  ldsan_emu_unsupported_registration("__managed__ variable", name);
}

void __hipRegisterSurface(void **module, void *var, char *host_var, char *device_var, int type,
                          int ext) {
  (void)module; (void)var; (void)host_var; (void)type; (void)ext;
  ldsan_emu_unsupported_registration("surface", device_var);
}

void __hipRegisterTexture(void **module, void *var, char *host_var, char *device_var, int type,
                          int norm, int ext) {
  (void)module; (void)var; (void)host_var; (void)type; (void)norm; (void)ext;
  ldsan_emu_unsupported_registration("texture", device_var);
}

const ldsan_emu_kernel *ldsan_emu_hip_find_kernel(const void *host_function, const char **name) {
  const ldsan_emu_kernel *kernel = NULL;
  *name = NULL;
  pthread_mutex_lock(&ldsan_emu_reg_lock);
  for (size_t i = 0; i < ldsan_emu_kernel_count; i++) {
    ldsan_emu_kernel_entry *e = &ldsan_emu_kernels[i];
    if (e->host_function != host_function) continue;
    if (!e->kernel) e->kernel = ldsan_emu_find_kernel(e->device_name);
    kernel = e->kernel;
    *name = e->device_name;
    break;
  }
  pthread_mutex_unlock(&ldsan_emu_reg_lock);
  return kernel;
}

const ldsan_emu_global *ldsan_emu_hip_find_symbol(const void *host_var, const char **name) {
  const ldsan_emu_global *global = NULL;
  *name = NULL;
  pthread_mutex_lock(&ldsan_emu_reg_lock);
  for (size_t i = 0; i < ldsan_emu_var_count; i++) {
    ldsan_emu_var_entry *e = &ldsan_emu_vars[i];
    if (e->host_var != host_var) continue;
    if (!e->global) e->global = ldsan_emu_find_global(e->device_name);
    global = e->global;
    *name = e->device_name;
    break;
  }
  pthread_mutex_unlock(&ldsan_emu_reg_lock);
  return global;
}
