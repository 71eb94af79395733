/* ldsan drivers: what kind of input a command-line word names. One rule for
 * ldsan-cc (tools/ldsan-cc.c) and the --emulate driver (tools/cc_emulate.c),
 * so both take the same command lines. */
#ifndef LDSAN_TOOLS_INPUT_KIND_H
#define LDSAN_TOOLS_INPUT_KIND_H

#include <stddef.h>

/* Whether s ends with suffix. */
int ldsan_cc_ends_with(const char *s, const char *suffix);
/* A HIP source by name: .hip or .cu. */
int ldsan_cc_is_hip_source(const char *path);
/* A linker input by name: .o, .obj, .a, .so, .lo, and versioned shared
 * libraries .so.N[.M...] (libamdhip64.so.5.2.21153). */
int ldsan_cc_is_object(const char *path);
/* The directories a command line's -I and -iquote options name (both
 * spellings: -I dir, -Idir), in order; at most LDSAN_CC_MAX_INCLUDE_DIRS. */
#define LDSAN_CC_MAX_INCLUDE_DIRS 256
typedef struct {
  const char *dir[LDSAN_CC_MAX_INCLUDE_DIRS];
  int n;
} ldsan_cc_include_dirs;
void ldsan_cc_find_include_dirs(int argc, char **argv, ldsan_cc_include_dirs *dirs);

/* A C++ source (.cpp, .cc, .cxx, .C) that uses HIP: it, or a project header it
 * includes, includes the HIP runtime header, defines a kernel or launches one.
 * hipcc compiles every .cpp as HIP; the drivers do so for these and compile
 * the others as plain C++ (the host code is the same), so a host-only file
 * costs no device compile. Headers are followed as the preprocessor finds
 * them (quoted: beside the includer, then `dirs`; angled: `dirs` only, so the
 * compiler's own system directories are not read, but headers found through
 * -I are, whoever wrote them), whatever #if says, at most 256 files of 1 MiB
 * each; dirs may be NULL. A file that gets HIP some other way needs -x hip. */
int ldsan_cc_is_cxx_using_hip(const char *path, const ldsan_cc_include_dirs *dirs);

/* ldsan's own -fsanitize-lds=<list> and -fno-sanitize-lds (both drivers take
 * them off clang's command line and set LDSAN_LDS_CHECKS): the list ("none"
 * for the -fno form), or NULL for any other word. */
const char *ldsan_cc_lds_checks_option(const char *arg);

/* The LDS-only mode, -fsanitize=lds (ldsan's; clang has no such sanitizer):
 * for -fsanitize=<list> or -fno-sanitize=<list> naming lds, returns 1 (-fsanitize)
 * or -1 (-fno-sanitize) and writes to rest, `size` bytes, the same option
 * without lds ("" if lds was all of it), which goes on to clang; else 0. */
int ldsan_cc_sanitize_lds_option(const char *arg, char *rest, size_t size);

#endif /* LDSAN_TOOLS_INPUT_KIND_H */
