/* ldsan-cc: -fopenmp's requirements, checked before clang runs
 * (tools/openmp_check.h). Without them clang says "'omp.h' file not found" or
 * the link "cannot find -lomp", which name neither the package nor the fix.
 * The paths come from the build (tools/tools.mk: the clang and LLVM ldsan was
 * built with); the defaults are clang 22's on Debian. */
#define _GNU_SOURCE
#include "openmp_check.h"

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#ifndef LDSAN_OPENMP_HEADER
#define LDSAN_OPENMP_HEADER "/usr/lib/llvm-22/lib/clang/22/include/omp.h"
#endif
#ifndef LDSAN_OPENMP_LIBRARY
#define LDSAN_OPENMP_LIBRARY "/usr/lib/llvm-22/lib/libomp.so"
#endif
#ifndef LDSAN_OPENMP_PACKAGE
#define LDSAN_OPENMP_PACKAGE "libomp-22-dev"
#endif

int ldsan_cc_wants_openmp(int argc, char **argv) {
  int wants = 0;
  for (int i = 1; i < argc; i++) {
    const char *a = argv[i];
    if (strcmp(a, "-fopenmp") == 0 || strcmp(a, "-fopenmp=libomp") == 0) wants = 1;
    else if (strcmp(a, "-fno-openmp") == 0 || strncmp(a, "-fopenmp=", 9) == 0) wants = 0;
  }
  return wants;
}

static int present(const char *path) {
  struct stat st;
  return stat(path, &st) == 0;
}

/* Whether an -L directory of argv (-L dir or -Ldir) has libomp.so. */
static int library_in_search_dirs(int argc, char **argv) {
  char path[PATH_MAX];
  for (int i = 1; i < argc; i++) {
    const char *dir = strcmp(argv[i], "-L") == 0 && i + 1 < argc ? argv[++i]
                      : strncmp(argv[i], "-L", 2) == 0 && argv[i][2] ? argv[i] + 2 : NULL;
    if (dir && snprintf(path, sizeof path, "%s/libomp.so", dir) < (int)sizeof path && present(path)) return 1;
  }
  return 0;
}

static void missing(const char *what, const char *path) {
  fprintf(stderr,
          "ldsan-cc: error: -fopenmp needs LLVM's OpenMP runtime for clang, which is not installed: %s '%s' is "
          "missing; install it with 'apt-get install " LDSAN_OPENMP_PACKAGE "' (scripts/deps.sh in the ldsan tree "
          "does), or build without -fopenmp\n", what, path);
  exit(2);
}

void ldsan_cc_check_openmp(int argc, char **argv, int compiles, int links) {
  if (compiles && !present(LDSAN_OPENMP_HEADER)) missing("its header", LDSAN_OPENMP_HEADER);
  if (links && !present(LDSAN_OPENMP_LIBRARY) && !library_in_search_dirs(argc, argv))
    missing("its library", LDSAN_OPENMP_LIBRARY);
}
