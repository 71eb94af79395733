/* ldsan drivers: what kind of input a command-line word names (input_kind.h).
 * Single-threaded (driver processes). */
#include "input_kind.h"

#include <stdio.h>
#include <string.h>

int ldsan_cc_ends_with(const char *s, const char *suffix) {
  size_t n = strlen(s), m = strlen(suffix);
  return n >= m && strcmp(s + n - m, suffix) == 0;
}

int ldsan_cc_is_hip_source(const char *path) {
  return ldsan_cc_ends_with(path, ".hip") || ldsan_cc_ends_with(path, ".cu");
}

int ldsan_cc_is_object(const char *path) {
  static const char *const suffixes[] = {".o", ".obj", ".a", ".so", ".lo"};
  for (size_t i = 0; i < sizeof suffixes / sizeof *suffixes; i++)
    if (ldsan_cc_ends_with(path, suffixes[i])) return 1;
  const char *so = strstr(path, ".so.");
  if (!so) return 0;
  for (const char *p = so + 3; *p; p++)
    if (!(*p == '.' || (*p >= '0' && *p <= '9'))) return 0;
  return 1;
}

int ldsan_cc_is_cxx_using_hip(const char *path) {
  static const char *const cxx[] = {".cpp", ".cc", ".cxx", ".C"};
  int is_cxx = 0;
  for (size_t i = 0; i < sizeof cxx / sizeof *cxx; i++) is_cxx |= ldsan_cc_ends_with(path, cxx[i]);
  if (!is_cxx) return 0;
  FILE *f = fopen(path, "rb");
  if (!f) return 0;
  static char buf[1 << 20];
  size_t n = fread(buf, 1, sizeof buf - 1, f);
  fclose(f);
  buf[n] = '\0';
  for (size_t k = 0; k < n; k++)
    if (!buf[k]) buf[k] = ' ';  /* a NUL would end the search early */
  return strstr(buf, "hip/hip_runtime.h") || strstr(buf, "__global__") || strstr(buf, "hipLaunchKernel") ||
         strstr(buf, "<<<");
}

const char *ldsan_cc_lds_checks_option(const char *arg) {
  if (strncmp(arg, "-fsanitize-lds=", 15) == 0) return arg + 15;
  if (strcmp(arg, "-fno-sanitize-lds") == 0) return "none";
  return NULL;
}

int ldsan_cc_sanitize_lds_option(const char *arg, char *rest, size_t size) {
  int sign = !strncmp(arg, "-fsanitize=", 11) ? 1 : !strncmp(arg, "-fno-sanitize=", 14) ? -1 : 0;
  if (!sign || size == 0) return 0;
  const char *list = strchr(arg, '=') + 1;
  int found = 0;
  size_t n = (size_t)snprintf(rest, size, "%.*s", (int)(list - arg), arg);
  int any = 0;
  for (const char *p = list; *p;) {
    const char *end = strchr(p, ',');
    size_t len = end ? (size_t)(end - p) : strlen(p);
    if (len == 3 && !strncmp(p, "lds", 3)) {
      found = 1;
    } else if (len && n < size) {
      n += (size_t)snprintf(rest + n, size - n, "%s%.*s", any ? "," : "", (int)len, p);
      any = 1;
    }
    p += len + (end != NULL);
  }
  if (!found) return 0;
  if (!any) rest[0] = '\0';
  return sign;
}
