/* ldsan drivers: which checks a command line's sanitizer options ask for
 * (tools/sanitize_mode.h). */
#include "sanitize_mode.h"

#include <string.h>

/* Whether the comma-separated list names `name`. */
static int list_names(const char *list, const char *name) {
  size_t n = strlen(name);
  for (const char *p = list; *p;) {
    const char *end = strchr(p, ',');
    size_t len = end ? (size_t)(end - p) : strlen(p);
    if (len == n && strncmp(p, name, n) == 0) return 1;
    p += len + (end != NULL);
  }
  return 0;
}

ldsan_cc_mode ldsan_cc_sanitize_mode(int argc, char **argv, int emulate) {
  int lds = 0, asan = 0; /* the last word on each: 1 on, -1 off, 0 none */
  for (int i = 1; i < argc; i++) {
    const char *a = argv[i];
    if (strncmp(a, "-fsanitize=", 11) == 0) {
      if (list_names(a + 11, "lds")) lds = 1;
      if (list_names(a + 11, "address")) asan = 1;
    } else if (strncmp(a, "-fno-sanitize=", 14) == 0) {
      int all = list_names(a + 14, "all");
      if (all || list_names(a + 14, "lds")) lds = -1;
      if (all || list_names(a + 14, "address")) asan = -1;
    }
  }
  ldsan_cc_mode m = {lds > 0, NULL};
  if (lds <= 0 && asan < 0) {
    m.lds_only = 1;
    m.note = "-fno-sanitize=address turns AddressSanitizer off: building in the LDS-only mode (as -fsanitize=lds), "
             "which checks LDS accesses and no other memory; drop -fno-sanitize=address for the full checks";
  } else if (lds > 0 && asan > 0) {
    m.lds_only = !emulate;
    m.note = emulate ? "-fsanitize=lds with -fsanitize=address: the full checks (AddressSanitizer and LDS); "
                       "drop -fsanitize=address for the LDS-only mode"
                     : "-fsanitize=lds with -fsanitize=address: xnack+ targets get the full checks (AddressSanitizer "
                       "and LDS), other targets the LDS checks only; drop one of them to build one mode";
  }
  return m;
}
