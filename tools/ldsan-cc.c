/* ldsan-cc: compiler driver wrapper. `ldsan-cc app.hip -o app` behaves like
 * hipcc: `clang++-22 --config=<build>/lib/ldsan.cfg` (device AddressSanitizer on,
 * the ldsan plugin loaded and the flags Debian's ROCm 5.2 packages need; see
 * tools/ldsan.cfg), each .hip/.cu input (and a .cpp that uses HIP) compiled as
 * HIP, other sources as clang++ compiles them (C++; .c as C), objects and libraries linked with --hip-link.
 * ldsan-cc adds only what a configuration file cannot say: the default offload
 * arch, default line tables, the HSA tools library of an executable, checks.
 * Every other argument passes through.
 * `--emulate` hands the whole command to the CPU emulator's driver.
 * Single-threaded; execs clang (or the emulate driver) and never returns on success. */
#define _GNU_SOURCE
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "input_kind.h"
#include "openmp_check.h"
#include "sanitize_mode.h"

#define DEFAULT_ARCH "gfx90a:xnack+"
#define DEFAULT_LDS_ONLY_ARCH "gfx90a"
#ifndef LDSAN_DEFAULT_CLANG
#define LDSAN_DEFAULT_CLANG "clang++-22"
#endif
#define DEFAULT_CLANG LDSAN_DEFAULT_CLANG
#define DEFAULT_ROCM_PATH "/usr"
#define HIP_HEADER "/include/hip/hip_runtime.h"

struct options {
  ldsan_cc_include_dirs includes; /* -I and -iquote: where a .cpp's own headers are */
  signed char *input_is_hip;  /* per argv index: whether that input is HIP by name or text; -1: not asked yet */
  const char *clang;          /* compiler to exec */
  const char *rocm_path;      /* --rocm-path given to clang */
  char build_root[PATH_MAX];  /* .../build: holds bin/, lib/, libexec/ */
  int emulate;                /* --emulate seen */
  int has_arch;               /* user gave an --offload-arch */
  const char *non_xnack_arch; /* the first of them without xnack+, if any */
  int has_input;              /* any input file */
  int has_hip_input;          /* a .hip/.cu input, or -x hip */
  int has_source_input;       /* an input that is not an object or library */
  int has_object_input;       /* an object, archive or shared library (.o, .a, .so, .so.N) */
  int info_query;             /* --version, -dumpversion, -print-*: clang answers */
  int preprocess_only;        /* -E, -M, -MM: no code generated */
  int nogpulib;               /* -nogpulib: no ROCm device libraries */
  int nogpuinc;               /* -nogpuinc: no HIP headers */
  int verbose;                /* -v / -### : show what we run */
  int no_link;                /* -c, -S, -E, -M, -MM, -fsyntax-only, --offload-device-only: no executable */
  int has_debug_option;       /* any -g option (-g, -g0, -gline-tables-only, -gdwarf-5, ...) */
  int rdc;                    /* -fgpu-rdc: the link of objects is also the device link */
  const char *lds_checks;     /* -fsanitize-lds=<list> (last wins; -fno-sanitize-lds: "none"), or NULL */
  int lds_only;               /* -fsanitize=lds (last of it and -fno-sanitize=lds wins): LDS checks only */
  int wave64;                 /* -mwavefrontsize64 (last of it and -mno-wavefrontsize64 wins) */
};

/* Prints one error line and exits 2 (bad usage or missing dependency). */
static void die(const char *fmt, const char *a, const char *b) {
  fprintf(stderr, "ldsan-cc: error: ");
  fprintf(stderr, fmt, a, b);
  fputc('\n', stderr);
  exit(2);
}

static int exists(const char *path) {
  struct stat st;
  return stat(path, &st) == 0;
}



/* Questions clang answers without compiling: --version, -dumpversion, -print-*. */
static int is_info_query(const char *a) {
  return !strcmp(a, "--version") || !strcmp(a, "-dumpversion") || !strcmp(a, "-dumpfullversion") ||
         !strcmp(a, "-dumpmachine") || !strncmp(a, "-print-", 7) || !strncmp(a, "--print-", 8);
}

/* Returns 1 when `name` is an executable on PATH or an existing path. */
static int find_program(const char *name) {
  if (strchr(name, '/')) return access(name, X_OK) == 0;
  const char *path = getenv("PATH");
  if (!path) return 0;
  char buf[PATH_MAX];
  for (const char *p = path; *p;) {
    const char *end = strchr(p, ':');
    size_t len = end ? (size_t)(end - p) : strlen(p);
    if (len > 0 && len + strlen(name) + 2 < sizeof buf) {
      snprintf(buf, sizeof buf, "%.*s/%s", (int)len, p, name);
      if (access(buf, X_OK) == 0) return 1;
    }
    if (!end) break;
    p = end + 1;
  }
  return 0;
}

/* Finds build/ from this executable's location (build/bin/ldsan-cc), or LDSAN_ROOT. */
static void locate_build_root(struct options *o) {
  const char *env = getenv("LDSAN_ROOT");
  if (env && *env) {
    snprintf(o->build_root, sizeof o->build_root, "%s", env);
    return;
  }
  char self[PATH_MAX];
  ssize_t n = readlink("/proc/self/exe", self, sizeof self - 1);
  if (n <= 0) die("cannot find where ldsan-cc is installed (%s); set LDSAN_ROOT to the ldsan build directory%s",
                  strerror(errno), "");
  self[n] = '\0';
  char *slash = strrchr(self, '/'); /* strip /ldsan-cc */
  if (slash) *slash = '\0';
  slash = strrchr(self, '/');       /* strip /bin */
  if (slash) *slash = '\0';
  snprintf(o->build_root, sizeof o->build_root, "%s", self);
}

/* Checks one offload arch: device ASan needs xnack+, which RDNA (gfx10-gfx12)
 * does not have; the LDS-only mode needs neither. */
static void check_arch(const char *arch) {
  if (strstr(arch, ":xnack+")) return;
  char fixed[256];
  const char *colon = strchr(arch, ':');
  int len = colon ? (int)(colon - arch) : (int)strlen(arch);
  if (!strncmp(arch, "gfx1", 4) && len == 7) {
    fprintf(stderr,
            "ldsan-cc: error: offload arch '%s' has no xnack+ mode, which device AddressSanitizer needs; "
            "use -fsanitize=lds to check LDS only (any target, no ASan)\n", arch);
    exit(2);
  }
  snprintf(fixed, sizeof fixed, "%.*s:xnack+", len, arch);
  fprintf(stderr,
          "ldsan-cc: error: offload arch '%s' is not xnack+: clang only sanitizes device code for xnack+ targets; "
          "use --offload-arch=%s (CMake: -DCMAKE_HIP_ARCHITECTURES=%s), or -fsanitize=lds to check LDS only "
          "(no xnack, no ASan)\n", arch, fixed, fixed);
  exit(2);
}

/* Records an offload arch; the first that is not xnack+ is refused after the
 * scan, unless --emulate (the emulator picks its own xnack+ target). */
static void note_arch(struct options *o, const char *arch) {
  o->has_arch = 1;
  if (!o->non_xnack_arch && !strstr(arch, ":xnack+")) o->non_xnack_arch = arch;
}

/* Whether option `a` takes the next argument as its value. */
static int takes_value(const char *a) {
  static const char *const opts[] = {"-o", "-MF", "-MT", "-MQ", "-I", "-L", "-D", "-U", "-x", "-include",
                                     "-isystem", "-iquote", "-Xclang", "-mllvm", "-Xlinker", "-Xoffload-linker",
                                     "-Xarch_device", "-Xarch_host", "-target", "--offload-arch",
                                     "--cuda-gpu-arch"};
  for (size_t k = 0; k < sizeof opts / sizeof *opts; k++)
    if (strcmp(a, opts[k]) == 0) return 1;
  return 0;
}

/* Whether argv[i] is an input file, not an option or an option's value. */
static int is_input(char **argv, int i) {
  return (argv[i][0] != '-' || strcmp(argv[i], "-") == 0) && !(i > 1 && takes_value(argv[i - 1]));
}

/* Whether `a` says how much debug info to emit: -g, -g0..-g3, -ggdb*, -gline-tables-only,
 * -gmlt, -gdwarf*, ... but not -gpulibc, -gz* (compression) or -gno-<feature>. */
static int is_debug_option(const char *a) {
  if (strcmp(a, "--debug") == 0) return 1;
  if (strncmp(a, "-g", 2) != 0) return 0;
  static const char *const not_level[] = {"-gpu", "-gz", "-gno-", "-gcolumn-info", "-gembed-source",
                                          "-ginline-line-tables", "-gsimple-template-names", "-gstrict-dwarf",
                                          "-gpubnames", "-ggnu-pubnames", "-gcodeview-"};
  for (size_t k = 0; k < sizeof not_level / sizeof *not_level; k++)
    if (strncmp(a, not_level[k], strlen(not_level[k])) == 0) return 0;
  return 1;
}

/* Whether input argv[i] is HIP by its name or its text. The text check reads
 * the file and its project's headers, so each input is asked once. */
static int input_is_hip(struct options *o, char **argv, int i) {
  if (o->input_is_hip[i] < 0)
    o->input_is_hip[i] = (signed char)(ldsan_cc_is_hip_source(argv[i]) || ldsan_cc_is_cxx_using_hip(argv[i], &o->includes));
  return o->input_is_hip[i];
}

/* First pass over the user's arguments: records what they ask for. */
static void scan_args(struct options *o, int argc, char **argv) {
  const char *lang = "none";
  char rest[PATH_MAX];
  ldsan_cc_find_include_dirs(argc, argv, &o->includes);
  for (int i = 1; i < argc; i++) {
    const char *a = argv[i];
    int lds = ldsan_cc_sanitize_lds_option(a, rest, sizeof rest);
    if (lds) continue; /* the mode: ldsan_cc_sanitize_mode, in main */
    if (strcmp(a, "--emulate") == 0) o->emulate = 1;
    else if (strcmp(a, "-mwavefrontsize64") == 0) o->wave64 = 1;
    else if (strcmp(a, "-mno-wavefrontsize64") == 0) o->wave64 = 0;
    else if (ldsan_cc_lds_checks_option(a)) o->lds_checks = ldsan_cc_lds_checks_option(a);
    else if (is_debug_option(a)) o->has_debug_option = 1;
    else if (strncmp(a, "--offload-arch=", 15) == 0) note_arch(o, a + 15);
    else if (strncmp(a, "--cuda-gpu-arch=", 16) == 0) note_arch(o, a + 16);
    else if ((strcmp(a, "--offload-arch") == 0 || strcmp(a, "--cuda-gpu-arch") == 0) && i + 1 < argc)
      note_arch(o, argv[++i]);
    else if (strcmp(a, "-fgpu-rdc") == 0) o->rdc = 1;
    else if (strcmp(a, "-fno-gpu-rdc") == 0) o->rdc = 0;
    else if (strcmp(a, "-nogpulib") == 0 || strcmp(a, "--no-gpu-lib") == 0) o->nogpulib = 1;
    else if (strcmp(a, "-nogpuinc") == 0 || strcmp(a, "--no-gpu-inc") == 0) o->nogpuinc = 1;
    else if (strcmp(a, "-v") == 0 || strcmp(a, "-###") == 0) o->verbose = 1;
    else if (!strcmp(a, "-E") || !strcmp(a, "-M") || !strcmp(a, "-MM")) o->no_link = o->preprocess_only = 1;
    else if (!strcmp(a, "-c") || !strcmp(a, "-S") || !strcmp(a, "-fsyntax-only") ||
             !strcmp(a, "--offload-device-only") || !strcmp(a, "--cuda-device-only"))
      o->no_link = 1;
    else if (is_info_query(a)) o->info_query = 1;
    else if (strncmp(a, "--rocm-path=", 12) == 0) o->rocm_path = a + 12;
    else if (strcmp(a, "-x") == 0 && i + 1 < argc) lang = argv[++i];
    else if (strncmp(a, "-x", 2) == 0 && a[2]) lang = a + 2;
    else if (takes_value(a)) i++; /* the next argument is this option's value, not an input */
    else if (is_input(argv, i)) {
      o->has_input = 1;
      if (strcmp(lang, "none") != 0) {  /* -x <lang> names the language of what follows */
        if (!strcmp(lang, "hip") || !strcmp(lang, "cuda")) o->has_hip_input = 1;
        else o->has_source_input = 1;
      } else if (input_is_hip(o, argv, i)) o->has_hip_input = 1;
      else if (ldsan_cc_is_object(a)) o->has_object_input = 1;
      else o->has_source_input = 1;
    }
  }
}

/* Refuses an output that is one of the inputs (-o x.hip x.hip): the build
 * would replace the source with its result. gcc and clang refuse it too. The
 * same name, or the same existing file under another name. */
static void check_output_is_not_input(int argc, char **argv) {
  const char *out = NULL;
  for (int i = 1; i < argc; i++) {
    if (strcmp(argv[i], "-o") == 0 && i + 1 < argc) out = argv[++i];
    else if (strncmp(argv[i], "-o", 2) == 0 && argv[i][2]) out = argv[i] + 2;
    else if (takes_value(argv[i])) i++;
  }
  if (!out || strcmp(out, "-") == 0) return;
  struct stat so;
  int out_exists = stat(out, &so) == 0;
  for (int i = 1; i < argc; i++) {
    if (takes_value(argv[i])) { i++; continue; }
    if (!is_input(argv, i) || strcmp(argv[i], "-") == 0) continue;
    struct stat si;
    if (strcmp(argv[i], out) == 0 ||
        (out_exists && stat(argv[i], &si) == 0 && si.st_dev == so.st_dev && si.st_ino == so.st_ino))
      die("-o '%s' names the input '%s': the build would overwrite it; give the output another name", out, argv[i]);
  }
}

static void usage(FILE *out) {
  fprintf(out,
          "usage: ldsan-cc [--emulate] [clang options] app.hip [...] -o app\n"
          "  Compiles HIP with device AddressSanitizer and ldsan's LDS checking.\n"
          "  Default target --offload-arch=" DEFAULT_ARCH " (any xnack+ target may be given).\n"
          "  -fsanitize=lds   check LDS only: no AddressSanitizer on the device or the host, any AMD target\n"
          "              (xnack or not, CDNA or RDNA, wave32 or wave64); default target " DEFAULT_LDS_ONLY_ARCH "\n"
          "  --emulate   build a host executable whose kernels run on the CPU emulator\n"
          "  -fsanitize-lds=races,uninit   also check LDS for data races between barriers and reads of\n"
          "              LDS no work-item wrote (either or both; give it to the device link of -fgpu-rdc too)\n"
          "  Without a -g option, adds -gline-tables-only (reports name source lines; -g0: none).\n"
          "  Environment: LDSAN_CLANG (default " DEFAULT_CLANG "; clang-N means its clang++-N), LDSAN_ROOT (ldsan build dir),\n"
          "  LDSAN_EMU_SANITIZED=1 (--emulate links the ASan+UBSan build of the emulator: make emulator-asan)\n");
}

/* Appends to a growing argv. */
struct argv_builder { char **v; int n, cap; };
static void push(struct argv_builder *b, const char *s) {
  if (b->n + 2 > b->cap) {
    b->cap = b->cap ? 2 * b->cap : 64;
    b->v = realloc(b->v, (size_t)b->cap * sizeof *b->v);
    if (!b->v) die("out of memory%s%s", "", "");
  }
  b->v[b->n++] = strdup(s);
  b->v[b->n] = NULL;
}
static void pushf(struct argv_builder *b, const char *fmt, const char *x) {
  char buf[PATH_MAX + 64];
  snprintf(buf, sizeof buf, fmt, x);
  push(b, buf);
}

/* Line tables unless the user chose: reports then name the source line of a
 * bad access (compute-sanitizer users are told -lineinfo for the same). With
 * line tables only, clang leaves out the mangled names of inlined functions
 * unless -fdebug-info-for-profiling: it keeps them, so frames read
 * "block_sum(float const*, float*)", not "block_sum". */
static void push_default_debug(struct argv_builder *b, const struct options *o) {
  if (o->has_debug_option || o->preprocess_only || o->info_query || !(o->has_hip_input || o->has_source_input)) return;
  push(b, "-gline-tables-only");
  push(b, "-fdebug-info-for-profiling");
}

/* LDSAN_EMU_SANITIZED=1 (any value but empty or 0): --emulate builds from the
 * ASan+UBSan build root <build>/asan (emulator/asan.mk), whose drivers, emulator
 * core, HIP layer and host library are sanitized. A no-op when this ldsan-cc
 * already runs from that root (it holds the file "sanitized"). */
static void use_sanitized_root(struct options *o) {
  const char *v = getenv("LDSAN_EMU_SANITIZED");
  char path[PATH_MAX + 32];
  if (!v || !*v || strcmp(v, "0") == 0) return;
  snprintf(path, sizeof path, "%s/sanitized", o->build_root);
  if (exists(path)) return;
  snprintf(path, sizeof path, "%s/asan/sanitized", o->build_root);
  if (!exists(path))
    die("LDSAN_EMU_SANITIZED is set, but the sanitized emulator build '%s/asan' is missing; run 'make "
        "emulator-asan' in the ldsan tree%s", o->build_root, "");
  snprintf(path, sizeof path, "%s/asan", o->build_root);
  snprintf(o->build_root, sizeof o->build_root, "%s", path);
}

/* Hands the command to the emulator driver, with ldsan-cc's own location. */
static void exec_emulate(struct options *o, int argc, char **argv) {
  char driver[PATH_MAX + 32], self[PATH_MAX + 32];
  use_sanitized_root(o);
  snprintf(driver, sizeof driver, "%s/libexec/ldsan-cc-emulate", o->build_root);
  snprintf(self, sizeof self, "%s/bin/ldsan-cc", o->build_root);
  if (!exists(driver))
    die("the CPU emulator driver '%s' is missing; run 'make' in the ldsan tree%s", driver, "");
  struct argv_builder b = {0};
  push(&b, driver);
  push_default_debug(&b, o);  /* its compiles see them as the user's */
  for (int i = 1; i < argc; i++)
    if (strcmp(argv[i], "--emulate") != 0) push(&b, argv[i]);
  setenv("LDSAN_CC", self, 1);
  setenv("LDSAN_ROOT", o->build_root, 1);
  execv(driver, b.v);
  die("cannot run '%s': %s", driver, strerror(errno));
}

/* With -v: names ldsan's build directory as the HIP installation, ahead of
 * clang's own "Found HIP installation: /usr" line. CMake's HIP language
 * (CMakeDetermineHIPCompiler.cmake, 3.21 on) takes the ROCm root from the
 * first such line of `<compiler> -v -print-targets` and needs
 * <root>/lib/cmake/hip-lang/hip-lang-config.cmake there; Debian's package is
 * under /usr/lib/<multiarch>/cmake, and `make` installs ldsan's package,
 * which loads it, in the build directory (tools/hip-lang-config.cmake), so
 * `-DCMAKE_HIP_COMPILER=ldsan-cc` needs no toolchain file. Said only when
 * that package is there. */
static void announce_rocm_root(const struct options *o) {
  char config[PATH_MAX + 64];
  snprintf(config, sizeof config, "%s/lib/cmake/hip-lang/hip-lang-config.cmake", o->build_root);
  if (!exists(config)) return;
  fprintf(stderr, "ldsan-cc: Found HIP installation: %s, ldsan's ROCm root for CMake (its lib/cmake/hip-lang "
                  "loads the system's hip-lang package)\n", o->build_root);
}

/* LDSAN_CLANG may name the C driver (clang, clang-22, /usr/bin/clang-22): use the
 * matching C++ driver (clang++, clang++-22) beside it, as hipcc does, so the C++
 * standard library is linked. Any other name is used as it is. */
static const char *cxx_driver(const char *clang) {
  const char *base = strrchr(clang, '/');
  base = base ? base + 1 : clang;
  if (strncmp(base, "clang", 5) != 0) return clang;
  for (const char *p = base + 5; *p; p++)
    if (!(p == base + 5 ? *p == '-' : (*p == '.' || (*p >= '0' && *p <= '9')))) return clang;
  size_t n = strlen(clang), at = (size_t)(base - clang) + 5;
  char *cxx = malloc(n + 3);
  if (!cxx) return clang;
  snprintf(cxx, n + 3, "%.*s++%s", (int)at, clang, clang + at);
  return find_program(cxx) ? cxx : clang;
}

/* What this command line and the build root decide before clang runs: the
 * sanitizer mode, the environment the plugin reads, the OpenMP check; then
 * the emulator takes --emulate, and the GPU target is checked. */
static void prepare(struct options *o, int argc, char **argv) {
  scan_args(o, argc, argv);
  ldsan_cc_mode mode = ldsan_cc_sanitize_mode(argc, argv, o->emulate);
  o->lds_only = mode.lds_only;
  if (mode.note && !o->emulate && !o->info_query) fprintf(stderr, "ldsan-cc: note: %s\n", mode.note); /* --emulate says it */
  check_output_is_not_input(argc, argv);
  locate_build_root(o);
  /* The plugin reads the LDS checks from the environment (instrument/LdsChecks.h),
   * in every compile and device link this command runs. */
  if (o->lds_checks) setenv("LDSAN_LDS_CHECKS", o->lds_checks, 1);
  /* So does the LDS-only mode (instrument/LdsOnly.h). */
  if (o->lds_only) setenv("LDSAN_LDS_ONLY", "1", 1);
  else unsetenv("LDSAN_LDS_ONLY");
  /* -fopenmp needs LLVM's OpenMP runtime (tools/openmp_check.h): said here for
   * GPU and --emulate builds alike, when clang is the one ldsan was built with. */
  if (ldsan_cc_wants_openmp(argc, argv) && !o->info_query && !(getenv("LDSAN_CLANG") && *getenv("LDSAN_CLANG")))
    ldsan_cc_check_openmp(argc, argv, o->has_hip_input || o->has_source_input, !o->no_link && o->has_input);
  if (o->emulate) exec_emulate(o, argc, argv);
  /* Device ASan needs xnack+; the LDS-only mode needs no page faults. */
  if (o->non_xnack_arch && !o->lds_only) check_arch(o->non_xnack_arch);
  if (!o->has_input && !o->verbose && !o->info_query)
    die("no input files; usage: ldsan-cc app.hip -o app (see ldsan-cc --help)%s%s", "", "");
}

/* The files of the build root a compile needs (each checked: a missing one
 * says to run make). */
struct root_files {
  char plugin[PATH_MAX + 64], runtime[PATH_MAX + 64], bitcode_dir[PATH_MAX + 64], config[PATH_MAX + 64];
};

static void find_root_files(const struct options *o, struct root_files *f) {
  char hip_header[PATH_MAX + 64];
  if (!find_program(o->clang))
    die("'%s' not found; run 'make deps' in the ldsan tree (or apt-get install clang-22), or set LDSAN_CLANG%s",
        o->clang, "");
  snprintf(f->plugin, sizeof f->plugin, "%s/lib/ldsan-instrument.so", o->build_root);
  snprintf(f->runtime, sizeof f->runtime, o->lds_only ? "%s/lib/ldsan-rt-lds.bc" : "%s/lib/ldsan-rt.bc",
           o->build_root);
  snprintf(f->bitcode_dir, sizeof f->bitcode_dir, "%s/lib/amdgcn-bitcode", o->build_root);
  snprintf(hip_header, sizeof hip_header, "%s" HIP_HEADER, o->rocm_path);
  if (!exists(f->plugin)) die("the ldsan plugin '%s' is missing; run 'make' in the ldsan tree%s", f->plugin, "");
  if (!exists(f->runtime))
    die("the ldsan device runtime '%s' is missing; run 'make' in the ldsan tree%s", f->runtime, "");
  snprintf(f->config, sizeof f->config, "%s/lib/ldsan.cfg", o->build_root);
  if (!exists(f->config))
    die("the ldsan clang configuration '%s' is missing; run 'make' in the ldsan tree%s", f->config, "");
  if (!o->nogpulib && !exists(f->bitcode_dir))
    die("the device library directory '%s' is missing; run 'make' in the ldsan tree (it needs rocm-device-libs)%s",
        f->bitcode_dir, "");
  if (o->has_hip_input && !o->nogpuinc && !exists(hip_header))
    die("HIP headers not found ('%s'); run 'make deps' in the ldsan tree (or apt-get install libamdhip64-dev), "
        "or pass -nogpuinc%s", hip_header, "");
}

/* ldsan's flags, before the user's. */
static void push_ldsan_flags(struct argv_builder *b, const struct options *o, const struct root_files *f) {
  /* -mcode-object-version=5, the ROCm paths, the plugin: tools/ldsan.cfg. */
  pushf(b, "--config=%s", f->config);
  /* Device (and host) AddressSanitizer, except in the LDS-only mode (where a
   * user's own -fsanitize=address still applies: to the host, and to the device
   * of xnack+ targets, which then get the full checks). */
  if (!o->lds_only && !o->info_query) push(b, "-fsanitize=address");
  /* clang reads no configuration file when the command line has an error (an
   * unknown argument): a HIP compile gets the ROCm paths and the code object
   * version on the command line too, or clang's error about the argument
   * comes with a false "cannot find ROCm device library". Only then: clang
   * would call them unused on other commands. */
  if (o->has_hip_input && !o->info_query) {
    pushf(b, "--rocm-path=%s", o->rocm_path);
    if (!o->nogpulib) pushf(b, "--rocm-device-lib-path=%s", f->bitcode_dir);
    push(b, "-mcode-object-version=5");
  }
  /* ROCm 5.2's headers read the wave size from a macro (ldsan-hip-compat.h). */
  if (o->wave64) push(b, "-D__LDSAN_WAVEFRONT_SIZE=64");
  /* An -fgpu-rdc link of objects links device code too: for the same default target. */
  if (!o->has_arch && (o->has_hip_input || (o->rdc && o->has_object_input && !o->no_link)))
    push(b, o->lds_only ? "--offload-arch=" DEFAULT_LDS_ONLY_ARCH : "--offload-arch=" DEFAULT_ARCH);
  push_default_debug(b, o);
  /* -fgpu-rdc: each TU's device code is left uninstrumented, and the device link
   * (lld's LTO, with the plugin loaded) instruments the linked module, where
   * every kernel's LDS is known (instrument/Plugin.cpp). */
  if (o->rdc) {
    setenv("LDSAN_GPU_RDC", "1", 1);
    if (!o->no_link) {
      push(b, "-Xoffload-linker");
      pushf(b, "--load-pass-plugin=%s", f->plugin);
    }
  } else {
    unsetenv("LDSAN_GPU_RDC");
  }
  /* An executable gets ldsan's HSA tools library as a dependency: it makes itself
   * a tool of the HIP runtime's HSA (host/hsa/hsa_tool.c), so LDS reports print
   * on a GPU with no environment variable. */
  /* Before the inputs: no -x is in effect yet. */
  if (!o->no_link && o->has_input && !o->info_query) {
    char tool[PATH_MAX + 64];
    /* Objects and libraries need the HIP runtime at the link, as hipcc's --hip-link gives it. */
    if (o->has_object_input) push(b, "--hip-link");
    snprintf(tool, sizeof tool, "%s/lib/libldsan-host.so", o->build_root);
    if (!exists(tool)) die("the ldsan HSA tools library '%s' is missing; run 'make' in the ldsan tree%s", tool, "");
    pushf(b, "-Wl,-rpath,%s/lib", o->build_root);
    push(b, "-Wl,--push-state,--no-as-needed");
    push(b, tool);
    push(b, "-Wl,--pop-state");
  }
}

/* The user's arguments. Each .hip/.cu input is compiled as HIP and each .c as
 * C (clang++ would take it for C++); other inputs keep clang's usual rules
 * (`-x none` after, but only if another input follows: clang warns
 * otherwise). A user's `-x <lang>` is kept. */
static void push_user_args(struct argv_builder *b, struct options *o, int argc, char **argv) {
  int last_input = 0;
  for (int i = 1; i < argc; i++)
    if (is_input(argv, i)) last_input = i;
  /* A compile of C/C++ files only uses no GPU target: hipcc takes the same flags
   * for every file of a Makefile without a warning, so the targets are left out
   * (clang would say "argument unused"). */
  int drop_targets = o->no_link && !o->has_hip_input;
  const char *lang = "none";
  for (int i = 1; i < argc; i++) {
    const char *a = argv[i];
    if (ldsan_cc_lds_checks_option(a)) continue; /* not clang's: the environment says it */
    char rest[PATH_MAX];
    if (ldsan_cc_sanitize_lds_option(a, rest, sizeof rest)) { /* lds is ldsan's; the rest is clang's */
      if (rest[0]) push(b, rest);
      continue;
    }
    if (drop_targets && (!strncmp(a, "--offload-arch", 14) || !strncmp(a, "--cuda-gpu-arch", 15) ||
                         !strncmp(a, "--no-offload-arch", 17))) {
      i += !strcmp(a, "--offload-arch") || !strcmp(a, "--cuda-gpu-arch");  /* and its separate value */
      continue;
    }
    if (strcmp(a, "-x") == 0 && i + 1 < argc) lang = argv[i + 1];
    else if (strncmp(a, "-x", 2) == 0 && a[2] && !(i > 1 && takes_value(argv[i - 1]))) lang = a + 2;
    const char *as = NULL;
    if (is_input(argv, i) && strcmp(lang, "none") == 0)
      as = input_is_hip(o, argv, i) ? "hip" : ldsan_cc_ends_with(a, ".c") ? "c" : NULL;
    if (as) {
      push(b, "-x"); push(b, as); push(b, a);
      if (i < last_input) { push(b, "-x"); push(b, "none"); }
    } else {
      push(b, a);
    }
  }
}

int main(int argc, char **argv) {
  struct options o = {0};
  o.clang = getenv("LDSAN_CLANG") && *getenv("LDSAN_CLANG") ? cxx_driver(getenv("LDSAN_CLANG")) : DEFAULT_CLANG;
  o.rocm_path = DEFAULT_ROCM_PATH;
  o.input_is_hip = malloc((size_t)argc);
  if (!o.input_is_hip) die("out of memory%s%s", "", "");
  memset(o.input_is_hip, -1, (size_t)argc);
  for (int i = 1; i < argc; i++) {
    if (strcmp(argv[i], "--help") == 0 || strcmp(argv[i], "-h") == 0) { usage(stdout); return 0; }
  }
  prepare(&o, argc, argv);
  /* A C/C++ source without HIP is compiled as clang++ (hipcc) would: `ldsan-cc -c
   * main.cpp` is the host half of a program whose kernels are in another file. */
  struct root_files f;
  find_root_files(&o, &f);
  struct argv_builder b = {0};
  push(&b, o.clang);
  push_ldsan_flags(&b, &o, &f);
  push_user_args(&b, &o, argc, argv);
  if (o.verbose) {
    announce_rocm_root(&o);
    fprintf(stderr, "ldsan-cc: running");
    for (int i = 0; i < b.n; i++) fprintf(stderr, " %s", b.v[i]);
    fputc('\n', stderr);
  }
  execvp(o.clang, b.v);
  die("cannot run '%s': %s", o.clang, strerror(errno));
  return 2;
}
