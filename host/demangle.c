/* ldsan host library: C++ demangling of kernel and LDS variable names.
 * Uses the C++ runtime's __cxa_demangle when the program links it (weak
 * reference), else looks it up at run time (dlsym, then dlopen of
 * libstdc++.so.6), else prints names mangled. So users need no -lstdc++.
 * Threading: the lookup runs once (pthread_once); __cxa_demangle is reentrant. */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"

typedef char *(*cxa_demangle_fn)(const char *, char *, size_t *, int *);
extern char *__cxa_demangle(const char *, char *, size_t *, int *) __attribute__((weak));

static cxa_demangle_fn demangler;
static pthread_once_t lookup_once = PTHREAD_ONCE_INIT;

static void lookup(void) {
  if (__cxa_demangle) { demangler = __cxa_demangle; return; }
  void *sym = dlsym(RTLD_DEFAULT, "__cxa_demangle");
  if (!sym) {
    /* Kept open for the life of the process: the function is used until exit. */
    void *lib = dlopen("libstdc++.so.6", RTLD_LAZY | RTLD_LOCAL);
    if (lib) sym = dlsym(lib, "__cxa_demangle");
  }
  memcpy(&demangler, &sym, sizeof demangler);  /* object -> function pointer */
}

const char *ldsan_demangle(const char *name, char *buf, size_t len) {
  if (!len) return buf;
  snprintf(buf, len, "%s", name ? name : "");
  if (!name || strncmp(name, "_Z", 2) != 0) return buf;
  pthread_once(&lookup_once, lookup);
  if (!demangler) return buf;
  int status = -1;
  char *out = demangler(name, NULL, NULL, &status);
  if (status == 0 && out) snprintf(buf, len, "%s", out);
  free(out);
  return buf;
}
