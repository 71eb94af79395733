/* ldsan host library: which of a pc's frames is the program's own line. A
 * device access or barrier is often code inlined from the HIP headers
 * (__syncthreads in amd_device_functions.h, atomicAdd in amd_hip_atomic.h,
 * float4's operator= in amd_hip_vector_types.h, the device memset): the stack
 * lists those frames, but "the" location of a report (its SUMMARY, the JSON
 * location, dedup's wording) is the innermost frame outside them, as a user
 * reads it. The rule, on the frame's file name only:
 *   - a header (a name ending ".h") of the HIP runtime: a path with an
 *     "include/hip/" directory (/usr/include/hip/..., /opt/rocm-6.4/include/hip/...,
 *     a HIP install under any prefix) or one that starts "hip/" (an include
 *     directory the symbolizer names relative to the compilation directory);
 *   - a header of the compiler's resource directory: a name starting
 *     "__clang_hip_" or "__clang_cuda_" (clang's HIP/CUDA wrappers), or a path
 *     with "/lib/clang/<version>/include/" (the other builtin headers).
 * Library headers (rocPRIM, hipCUB, the program's own) are the program's
 * code and stay "the" location, as ASan does not skip libc++. The outermost
 * frame is never skipped: with only header frames it is the best guess.
 * Threading: pure functions. */
#include <string.h>

#include "internal.h"

static int ends_with(const char *s, const char *suffix) {
  size_t n = strlen(s), k = strlen(suffix);
  return n >= k && !strcmp(s + n - k, suffix);
}

/* "/lib/clang/<digits...>/include/" somewhere in path. */
static int in_clang_resource_dir(const char *path) {
  for (const char *p = strstr(path, "/lib/clang/"); p; p = strstr(p + 1, "/lib/clang/")) {
    const char *v = p + strlen("/lib/clang/");
    if (*v < '0' || *v > '9') continue;
    const char *slash = strchr(v, '/');
    if (slash && !strncmp(slash, "/include/", strlen("/include/"))) return 1;
  }
  return 0;
}

int ldsan_frame_in_toolchain_header(const ldsan_frame *f) {
  const char *file = f ? f->file : NULL;
  if (!file || !*file) return 0;
  const char *base = strrchr(file, '/');
  base = base ? base + 1 : file;
  if (!strncmp(base, "__clang_hip_", 12) || !strncmp(base, "__clang_cuda_", 13)) return 1;
  if (!ends_with(file, ".h")) return 0;
  if (strstr(file, "include/hip/") || !strncmp(file, "hip/", 4)) return 1;
  return in_clang_resource_dir(file);
}

int ldsan_program_frame(const ldsan_frame *frames, int n) {
  int i = 0;
  while (i + 1 < n && ldsan_frame_in_toolchain_header(&frames[i])) i++;
  return i;
}
