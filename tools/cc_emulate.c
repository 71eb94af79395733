/* ldsan-cc-emulate: the `ldsan-cc --emulate` driver. Builds a host executable
 * whose kernels run on the ldsan CPU emulator. For each HIP input x.hip:
 *   1. $LDSAN_CC --offload-device-only -emit-llvm -c x.hip -o x.bc   (lowered, ldsan-rt-linked IR)
 *   2. ldsan-emu-retarget x.bc -o x.dev.o                           (x86-64 object, self-registering)
 *   3. $LDSAN_CC --offload-host-only -c x.hip -o x.host.o            (host part, host ASan on)
 * then links host objects, device objects and the emulator runtime with
 * -fsanitize=address, pointing each __hip_fatbin_<cuid> the host objects
 * reference at a placeholder (the device code registers itself instead).
 * With -c, each HIP input becomes one relocatable object (host + device);
 * with -shared, a shared library whose emulator and ASan runtime are the
 * executable's (an `ldsan-cc --emulate` executable exports what it uses).
 * --offload-host-only/--cuda-host-only (CMake's compiler checks) build the host
 * part alone, as clang does. With -fgpu-rdc, -c stores the device bitcode in
 * the object instead (rdc_bitcode.h), not yet instrumented (ldsan-cc defers
 * LDS instrumentation to the device link under -fgpu-rdc); the link links
 * every object's and static library member's bitcode into one device module
 * and instruments it with ldsan's plugin (opt), as the GPU's device link
 * does, before step 2.
 * The device code is compiled for the first --offload-arch's processor with
 * xnack+ when the device libraries know it, otherwise for gfx90a:xnack+: the
 * emulator needs no xnack, and clang sanitizes device code only for xnack+.
 * Other inputs as clang++ takes them: C/C++ sources compiled for the host (with
 * host ASan), objects, static and shared libraries (.so.N too) linked; the real
 * HIP runtime (libamdhip64.so*, -lamdhip64) is left out, the emulated one
 * replaces it. -E, -M, -MM, --version, -dumpversion, -print-* go to ldsan-cc
 * itself: their answer does not depend on where the kernels run.
 * Environment: LDSAN_CC (ldsan-cc), LDSAN_ROOT (build dir), LDSAN_CLANG, LDSAN_CLANGXX,
 * LDSAN_NM, LDSAN_OBJCOPY, LDSAN_LLVM_LINK, LDSAN_OPT, LDSAN_EMU_VERBOSE=1 (print commands),
 * LDSAN_EMU_KEEP_TEMPS=1, LDSAN_EMU_TIME=1 (the CPU time of each step, user + system, on
 * stderr, and the retarget tool's own steps; =passes adds LLVM's -time-passes there).
 * Single-threaded; runs each step as a child process. */
#include <errno.h>
#include <signal.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "ldsan/emu/retarget_exit.h"

#include "input_kind.h"
#include "sanitize_mode.h"
#include "rdc_bitcode.h"

#ifndef LDSAN_DEFAULT_CLANG
#define LDSAN_DEFAULT_CLANG "clang-22"
#endif
#ifndef LDSAN_DEFAULT_CLANGXX
#define LDSAN_DEFAULT_CLANGXX "clang++-22"
#endif
#ifndef LDSAN_DEFAULT_NM
#define LDSAN_DEFAULT_NM "llvm-nm-22"
#endif
#ifndef LDSAN_DEFAULT_OBJCOPY
#define LDSAN_DEFAULT_OBJCOPY "llvm-objcopy-22"
#endif
#ifndef LDSAN_DEFAULT_LLVM_LINK
#define LDSAN_DEFAULT_LLVM_LINK "llvm-link-22"
#endif
#ifndef LDSAN_DEFAULT_OPT
#define LDSAN_DEFAULT_OPT "opt-22"
#endif
#define EMU_DEFAULT_ARCH "gfx90a:xnack+"
#define EMU_DEFAULT_LDS_ONLY_ARCH "gfx90a"

#define PROG "ldsan-cc --emulate"

typedef struct strvec { char **v; int n, cap; } strvec;

static char ldsan_emu_tmpdir[PATH_MAX];
static int ldsan_emu_verbose;
static int ldsan_emu_time;          /* LDSAN_EMU_TIME: print each step's CPU time */
static double ldsan_emu_time_total; /* the steps' CPU time so far */
static const char *ldsan_emu_hint;  /* printed under the next error, if set */
static int ldsan_emu_hint_exit;     /* if not 0: only when a step fails with this exit status */

static void cleanup(void);

/* Prints "ldsan-cc --emulate: error: ..." and exits 1 after removing temporaries. */
__attribute__((format(printf, 1, 2), noreturn)) static void die(const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  fprintf(stderr, PROG ": error: ");
  vfprintf(stderr, fmt, ap);
  fputc('\n', stderr);
  va_end(ap);
  if (ldsan_emu_hint) fprintf(stderr, PROG ": hint: %s\n", ldsan_emu_hint);
  cleanup();
  exit(1);
}

static char *xstrdup(const char *s) {
  char *d = strdup(s);
  if (!d) die("out of memory");
  return d;
}

static char *fmt(const char *f, ...) __attribute__((format(printf, 1, 2)));
static char *fmt(const char *f, ...) {
  va_list ap;
  va_start(ap, f);
  char *s = NULL;
  if (vasprintf(&s, f, ap) < 0) die("out of memory");
  va_end(ap);
  return s;
}

static void push(strvec *v, const char *s) {
  if (v->n + 2 > v->cap) {
    v->cap = v->cap ? 2 * v->cap : 32;
    v->v = realloc(v->v, (size_t)v->cap * sizeof *v->v);
    if (!v->v) die("out of memory");
  }
  v->v[v->n++] = xstrdup(s);
  v->v[v->n] = NULL;
}

static void push_all(strvec *v, const strvec *from) {
  for (int i = 0; i < from->n; i++) push(v, from->v[i]);
}

/* SIGINT/SIGTERM/SIGHUP: removes the temporary directory, then dies of the
 * signal as it would have. */
/* rm -rf the temporary directory (async-signal-safe: fork, exec, waitpid). */
static void remove_tmpdir(void) {
  pid_t pid = fork();
  if (pid == 0) {
    execlp("rm", "rm", "-rf", ldsan_emu_tmpdir, (char *)NULL);
    _exit(127);
  }
  if (pid > 0) waitpid(pid, NULL, 0);
}

static void on_signal(int sig) {
  if (ldsan_emu_tmpdir[0]) remove_tmpdir();
  signal(sig, SIG_DFL);
  raise(sig);
}

static void cleanup(void) {
  if (!ldsan_emu_tmpdir[0]) return;
  if (getenv("LDSAN_EMU_KEEP_TEMPS")) {
    fprintf(stderr, PROG ": kept temporary files in %s\n", ldsan_emu_tmpdir);
    ldsan_emu_tmpdir[0] = '\0';
    return;
  }
  remove_tmpdir();
  ldsan_emu_tmpdir[0] = '\0';
}

/* Runs argv to completion; if out is non-NULL its output on out_fd (1 or 2)
 * goes there (malloc'd, NUL-terminated). Dies naming the step when the command
 * fails. */
static void run_capture(const char *step, const strvec *argv, char **out, int out_fd) {
  if (ldsan_emu_verbose) {
    fprintf(stderr, PROG ": %s:", step);
    for (int i = 0; i < argv->n; i++) fprintf(stderr, " %s", argv->v[i]);
    fputc('\n', stderr);
  }
  int fds[2] = {-1, -1};
  if (out && pipe(fds) != 0) die("pipe: %s", strerror(errno));
  fflush(stdout);
  fflush(stderr);
  pid_t pid = fork();
  if (pid < 0) die("fork: %s", strerror(errno));
  if (pid == 0) {
    if (out) {
      dup2(fds[1], out_fd);
      close(fds[0]);
      close(fds[1]);
    }
    execvp(argv->v[0], argv->v);
    fprintf(stderr, PROG ": error: cannot run '%s' (%s): %s\n", argv->v[0], step, strerror(errno));
    _exit(127);
  }
  if (out) {
    close(fds[1]);
    size_t len = 0, cap = 4096;
    char *buf = malloc(cap);
    ssize_t r;
    while (buf && (r = read(fds[0], buf + len, cap - len - 1)) > 0) {
      len += (size_t)r;
      if (cap - len < 2) buf = realloc(buf, cap *= 2);
    }
    close(fds[0]);
    if (!buf) die("out of memory");
    buf[len] = '\0';
    *out = buf;
  }
  int status;
  struct rusage ru;
  while (wait4(pid, &status, 0, &ru) < 0)
    if (errno != EINTR) die("waitpid: %s", strerror(errno));
  if (ldsan_emu_time) {
    double t = (double)ru.ru_utime.tv_sec + ru.ru_utime.tv_usec / 1e6 + (double)ru.ru_stime.tv_sec +
               ru.ru_stime.tv_usec / 1e6;
    ldsan_emu_time_total += t;
    fprintf(stderr, PROG ": time: %-60s %8.3f s\n", step, t);
  }
  if (WIFEXITED(status) && WEXITSTATUS(status) == 0) return;
  if (WIFEXITED(status) && WEXITSTATUS(status) == 127) die("%s: '%s' could not be run", step, argv->v[0]);
  if (ldsan_emu_hint_exit && !(WIFEXITED(status) && WEXITSTATUS(status) == ldsan_emu_hint_exit)) ldsan_emu_hint = NULL;
  die("%s failed (%s %d); command: %s ...; rerun with LDSAN_EMU_VERBOSE=1 to see every step", step,
      WIFEXITED(status) ? "exit" : "signal", WIFEXITED(status) ? WEXITSTATUS(status) : WTERMSIG(status),
      argv->v[0]);
}

/* Runs argv to completion, its stdout into *out if out is non-NULL (run_capture). */
static void run(const char *step, const strvec *argv, char **out) { run_capture(step, argv, out, 1); }

/* Compiles one side of a HIP file with ldsan-cc: part "device" gives the
 * lowered, runtime-linked bitcode; part "host" the host object (hostflags
 * first, so that the user's flags win). */
static void compile_hip_part(const char *cc, const char *part, const strvec *cflags, const strvec *hipflags,
                             const strvec *hostflags, const char *in, const char *out) {
  int device = strcmp(part, "device") == 0;
  strvec c = {0};
  push(&c, cc);
  push(&c, device ? "--offload-device-only" : "--offload-host-only");
  if (device) push(&c, "-emit-llvm");
  else push_all(&c, hostflags);
  for (int i = 0; i < cflags->n; i++) {  /* dependency files come from the host part, as clang's for HIP */
    const char *a = cflags->v[i];
    int dep_value = !strcmp(a, "-MF") || !strcmp(a, "-MT") || !strcmp(a, "-MQ");
    if (device && (dep_value || !strcmp(a, "-MD") || !strcmp(a, "-MMD") || !strcmp(a, "-MP") ||
                   !strncmp(a, "-MF", 3) || !strncmp(a, "-MT", 3) || !strncmp(a, "-MQ", 3))) {
      i += dep_value;
      continue;
    }
    push(&c, a);
  }
  push_all(&c, hipflags);
  /* Device printf stays a call of printf (not clang's hostcall expansion,
   * which a CPU cannot run): the retarget tool hands it to the emulator core.
   * LDSAN_EMULATE: the plugin hands device assert() to it too (EmulatorCalls.h). */
  if (device) push(&c, "-fno-builtin-printf");
  push(&c, "-c");
  push(&c, "-x");
  push(&c, "hip");
  push(&c, in);
  push(&c, "-o");
  push(&c, out);
  if (device) setenv("LDSAN_EMULATE", "1", 1);
  run(fmt("compiling the %s part of %s", part, in), &c, NULL);
  if (device) unsetenv("LDSAN_EMULATE");
}

static int file_exists(const char *p) {
  struct stat st;
  return stat(p, &st) == 0;
}

static const char *base_name(const char *p) {
  const char *s = strrchr(p, '/');
  return s ? s + 1 : p;
}

/* x/y/app.hip -> app (without directory or extension). */
static char *stem(const char *p) {
  char *s = xstrdup(base_name(p));
  char *dot = strrchr(s, '.');
  if (dot && dot != s) *dot = '\0';
  return s;
}

/* Options whose value is the next argument. */
static int takes_value(const char *a) {
  static const char *const opts[] = {"-I", "-D", "-U", "-include", "-isystem", "-iquote", "-idirafter",
                                     "-Xclang", "-mllvm", "-MF", "-MT", "-MQ", "-L", "-Xlinker",
                                     "-target", "-Xarch_host", "-Xarch_device", "-Xoffload-linker", NULL};
  for (int i = 0; opts[i]; i++)
    if (strcmp(a, opts[i]) == 0) return 1;
  return 0;
}

/* The real HIP runtime, which would shadow the emulated one. */
static int is_real_hip_runtime(const char *a) {
  return strcmp(a, "-lamdhip64") == 0 || strncmp(base_name(a), "libamdhip64.so", 14) == 0;
}

/* Arguments answered without building anything: passed to ldsan-cc as they are. */
static int is_passthrough(const char *a) {
  return !strcmp(a, "-E") || !strcmp(a, "-M") || !strcmp(a, "-MM") || !strcmp(a, "--version") ||
         !strcmp(a, "-dumpversion") || !strcmp(a, "-dumpfullversion") || !strcmp(a, "-dumpmachine") ||
         !strncmp(a, "-print-", 7) || !strncmp(a, "--print-", 8);
}

/* Arguments that only matter when linking. */
static int link_only(const char *a) {
  return strncmp(a, "-l", 2) == 0 || strncmp(a, "-L", 2) == 0 || strncmp(a, "-Wl,", 4) == 0 ||
         strcmp(a, "-Xlinker") == 0 || strcmp(a, "-pthread") == 0 || strcmp(a, "-rdynamic") == 0 ||
         strncmp(a, "-fuse-ld=", 9) == 0;
}

typedef struct input { const char *path; int hip; } input;

/* Finds `name` in dir, dying with a "run make" hint when it is missing. */
static char *need(const char *root, const char *rel, const char *what) {
  char *p = fmt("%s/%s", root, rel);
  if (!file_exists(p)) die("%s '%s' is missing; run 'make' in the ldsan tree", what, p);
  return p;
}

/* Adds to stubs each __hip_fatbin_<cuid> (the fat binary a HIP host object
 * registers) and __hip_gpubin_handle_<cuid> (where an -fgpu-rdc translation
 * unit keeps its registration; the GPU's device link defines it) that obj
 * references: the link defines them (write_link_stubs). */
static void collect_link_stubs(const char *nm, const char *obj, strvec *stubs) {
  strvec argv = {0};
  push(&argv, nm);
  push(&argv, "--undefined-only");
  push(&argv, "--quiet");  /* no "no symbols" line per empty archive member */
  push(&argv, "--format=just-symbols");
  push(&argv, obj);
  char *out = NULL;
  run("listing the object's undefined symbols", &argv, &out);
  for (char *line = strtok(out, "\n"); line; line = strtok(NULL, "\n")) {
    if (strncmp(line, "__hip_gpubin_handle_", 20) != 0 && strncmp(line, "__hip_fatbin_", 13) != 0) continue;
    int dup = 0;
    for (int i = 0; i < stubs->n; i++) dup |= strcmp(stubs->v[i], line) == 0;
    if (!dup) push(stubs, line);
  }
  free(out);
}

/* Assembles an object defining the stubs (hidden, so each executable or shared
 * library has its own): every fat binary is one placeholder (the device code
 * registers itself), every registration handle a zeroed pointer. */
static char *write_link_stubs(const char *clang, const strvec *stubs) {
  char *as = fmt("%s/link-stubs.s", ldsan_emu_tmpdir), *obj = fmt("%s/link-stubs.o", ldsan_emu_tmpdir);
  FILE *f = fopen(as, "w");
  if (!f) die("cannot create '%s': %s", as, strerror(errno));
  fprintf(f, "\t.section .note.GNU-stack,\"\",@progbits\n"
             "\t.section .rodata\n\t.p2align 4\nldsan_emu_fatbin_stub:\n\t.asciz \"ldsan-emu-fatbin\"\n"
             "\t.bss\n\t.p2align 3\n");
  for (int i = 0; i < stubs->n; i++) {
    const char *name = stubs->v[i];
    fprintf(f, "\t.globl %s\n\t.hidden %s\n", name, name);
    if (!strncmp(name, "__hip_fatbin_", 13)) fprintf(f, "\t.set %s, ldsan_emu_fatbin_stub\n", name);
    else fprintf(f, "%s:\n\t.zero 8\n", name);
  }
  if (fclose(f) != 0) die("cannot write '%s': %s", as, strerror(errno));
  strvec c = {0};
  push(&c, clang);
  push(&c, "-c");
  push(&c, as);
  push(&c, "-o");
  push(&c, obj);
  run("assembling the HIP registration stubs", &c, NULL);
  return obj;
}

/* An --offload-arch (or --cuda-gpu-arch) option's value, or NULL. *i moves
 * past a separate value. */
static const char *arch_option(int argc, char **argv, int *i) {
  const char *a = argv[*i];
  if (!strncmp(a, "--offload-arch=", 15)) return a + 15;
  if (!strncmp(a, "--cuda-gpu-arch=", 16)) return a + 16;
  if ((!strcmp(a, "--offload-arch") || !strcmp(a, "--cuda-gpu-arch")) && *i + 1 < argc) return argv[++*i];
  return NULL;
}

/* Processors with the xnack feature: device ASan's targets. */
static const char *const emu_xnack_processors[] = {"gfx900", "gfx902", "gfx904", "gfx906", "gfx908", "gfx909",
                                                   "gfx90a", "gfx90c", "gfx940", "gfx941", "gfx942", "gfx950", NULL};

/* Whether device code for processor proc runs as itself: the device libraries
 * have its ISA file and it has xnack (the LDS-only mode: or it is RDNA,
 * gfx10xx-gfx12xx, wave32 unless -mwavefrontsize64, as on the GPU). *xnack
 * and *rdna say which it is. */
static int emu_runs_as_itself(const char *root, const char *proc, int lds_only, int *xnack, int *rdna) {
  *xnack = 0;
  for (int i = 0; emu_xnack_processors[i]; i++) *xnack |= !strcmp(proc, emu_xnack_processors[i]);
  *rdna = !strncmp(proc, "gfx1", 4) && strlen(proc) == 7;
  if (strncmp(proc, "gfx", 3) != 0 || !(*xnack || (lds_only && *rdna))) return 0;
  char *isa = fmt("%s/lib/amdgcn-bitcode/oclc_isa_version_%s.bc", root, proc + 3);
  int known = file_exists(isa);
  free(isa);
  return known;
}

/* Fills procs with the AMD GPU processors clang knows, as it lists them
 * (--print-supported-cpus writes "\tgfx90a" lines to stderr); returns how
 * many (0: it listed none that way). */
static int clang_amdgpu_processors(const char *clang, strvec *procs) {
  strvec c = {0};
  push(&c, clang);
  push(&c, "--target=amdgcn-amd-amdhsa");
  push(&c, "--print-supported-cpus");
  char *out = NULL;
  run_capture("listing the AMD GPU processors clang knows", &c, &out, 2);
  for (char *line = strtok(out, "\n"); line; line = strtok(NULL, "\n"))
    if (line[0] == '\t' && line[1]) push(procs, line + 1);
  free(out);
  return procs->n;
}

/* The target the device code is compiled for: the requested processor with
 * xnack+ if it has the xnack feature and the device libraries have its ISA
 * file (clang sanitizes device code only for xnack+; the emulator itself
 * needs neither), else gfx90a:xnack+, said in a note. The LDS-only mode
 * (-fsanitize=lds) needs no xnack: the target as requested, gfx9 or RDNA
 * (wave32: the image says so, and the core runs 32-lane waves), else gfx90a.
 * A processor clang does not know is an error, as clang makes it on a GPU
 * build (amdgcnspirv, a HIP target but no processor, runs as gfx90a too). */
static char *emu_device_arch(const char *root, const char *clang, const char *requested, int lds_only) {
  if (!requested) return xstrdup(lds_only ? EMU_DEFAULT_LDS_ONLY_ARCH : EMU_DEFAULT_ARCH);
  const char *fallback = lds_only ? EMU_DEFAULT_LDS_ONLY_ARCH : EMU_DEFAULT_ARCH;
  size_t len = strcspn(requested, ":");
  char *proc = fmt("%.*s", (int)len, requested);
  int xnack, rdna;
  strvec procs = {0};
  if (strcmp(proc, "amdgcnspirv") != 0 && clang_amdgpu_processors(clang, &procs) > 0) {
    int listed = 0;
    for (int i = 0; i < procs.n; i++) listed |= !strcmp(procs.v[i], proc);
    if (!listed) {
      char *as_itself = xstrdup("");
      for (int i = 0; i < procs.n; i++) {
        if (!emu_runs_as_itself(root, procs.v[i], lds_only, &xnack, &rdna)) continue;
        char *more = fmt("%s%s%s", as_itself, *as_itself ? ", " : "", procs.v[i]);
        free(as_itself);
        as_itself = more;
      }
      die("unsupported HIP gpu architecture '%s' (--offload-arch=%s): clang knows no such AMD GPU processor; the "
          "emulator runs device code for %s as they are, and for other processors clang knows as %s; give one of "
          "them, e.g. --offload-arch=%s", proc, requested, *as_itself ? as_itself : "none", fallback, fallback);
    }
  }
  if (emu_runs_as_itself(root, proc, lds_only, &xnack, &rdna)) {
    char *arch = lds_only ? xstrdup(requested) : fmt("%s:xnack+", proc);
    free(proc);
    return arch;
  }
  fprintf(stderr, PROG ": note: the emulator runs device code compiled for %s (wave64) in place of '%s' (%s)\n",
          fallback, requested,
          xnack || (lds_only && rdna) ? "the device libraries have no ISA file for it"
          : lds_only                  ? "the emulator runs gfx9 and RDNA targets"
                                      : "it has no xnack+ mode, which device ASan needs (RDNA: use -fsanitize=lds)");
  free(proc);
  return xstrdup(fallback);
}

static void add_found_bitcode(const char *path, void *ctx) { push((strvec *)ctx, path); }

/* Retargets device bitcode `bc` (what: the source it came from) to x86-64
 * object `dev`, whose image (the program's run-time warnings and the tool's
 * errors) calls it `name`: the user's source or output, not `bc`, a temporary. */
static void retarget_device(const char *retarget, const strvec *cflags, const char *bc, const char *dev,
                            const char *what, const char *name) {
  strvec r = {0};
  push(&r, retarget);
  push(&r, bc);
  push(&r, "-o");
  push(&r, dev);
  push(&r, "--name");
  push(&r, name);
  int optimized = 0; /* the last -O flag decides, as for clang */
  for (int k = 0; k < cflags->n; k++)
    if (strncmp(cflags->v[k], "-O", 2) == 0) optimized = strcmp(cflags->v[k], "-O0") != 0;
  /* The retarget tool checks only code the kernels can reach, so unused
   * device-library functions do not matter at -O0; reachable unoptimized
   * code still has branches that inlining and constant folding would
   * remove, and an unsupported intrinsic there may go away with -O1+ (said
   * only when the tool's errors were all such intrinsics). */
  if (!optimized && !ldsan_emu_hint) {
    ldsan_emu_hint = "the device code was compiled without optimization, so code that inlining and constant "
                     "folding would have removed is still retargeted; if the intrinsic above comes from such "
                     "code, -O1 or higher may avoid the error";
    ldsan_emu_hint_exit = LDSAN_EMU_RETARGET_EXIT_INTRINSIC;
  }
  run(fmt("retargeting the device code of %s to the CPU", what), &r, NULL);
  ldsan_emu_hint = NULL;
  ldsan_emu_hint_exit = 0;
}

/* The programs the steps run: the environment's (ldsan-cc sets them), else
 * the build's defaults; root is the build directory (LDSAN_ROOT, else two
 * levels above this executable: build/libexec/ldsan-cc-emulate). */
typedef struct emu_tools {
  const char *root, *cc, *clang, *clangxx, *nm, *objcopy, *llvm_link, *opt;
  char *retarget;
} emu_tools;

static const char *tool_env(const char *name, const char *fallback) {
  const char *v = getenv(name);
  return v && *v ? v : fallback;
}

static void find_tools(emu_tools *t) {
  static char self_root[PATH_MAX];
  t->root = getenv("LDSAN_ROOT");
  if (!t->root || !*t->root) {
    ssize_t n = readlink("/proc/self/exe", self_root, sizeof self_root - 1);
    if (n <= 0) die("LDSAN_ROOT is not set; run this through 'ldsan-cc --emulate'");
    self_root[n] = '\0';
    for (int k = 0; k < 2; k++) {
      char *slash = strrchr(self_root, '/');
      if (slash) *slash = '\0';
    }
    t->root = self_root;
  }
  t->cc = getenv("LDSAN_CC");
  if (!t->cc || !*t->cc) t->cc = fmt("%s/bin/ldsan-cc", t->root);
  t->clang = tool_env("LDSAN_CLANG", LDSAN_DEFAULT_CLANG);
  t->clangxx = tool_env("LDSAN_CLANGXX", LDSAN_DEFAULT_CLANGXX);
  t->nm = tool_env("LDSAN_NM", LDSAN_DEFAULT_NM);
  t->objcopy = tool_env("LDSAN_OBJCOPY", LDSAN_DEFAULT_OBJCOPY);
  t->llvm_link = tool_env("LDSAN_LLVM_LINK", LDSAN_DEFAULT_LLVM_LINK);
  t->opt = tool_env("LDSAN_OPT", LDSAN_DEFAULT_OPT);
}

/* A command line --emulate does not build (-v alone, --version, ...):
 * ldsan-cc runs it as it is. */
static void exec_passthrough(const emu_tools *t, int argc, char **argv) {
  for (int i = 1; i < argc; i++) {
    if (!is_passthrough(argv[i])) continue;
    char **args = calloc((size_t)argc + 1, sizeof *args);
    if (!args) die("out of memory");
    args[0] = (char *)t->cc;
    for (int k = 1; k < argc; k++) args[k] = argv[k];
    fflush(stdout);
    execvp(t->cc, args);
    die("cannot run '%s': %s", t->cc, strerror(errno));
  }
}

/* The command line, split: inputs, -o, -c, compile flags, link flags. */
typedef struct emu_build {
  input *inputs;
  int ninputs, compile_only, host_only, rdc, shared;
  int lds_only;                     /* -fsanitize=lds: no AddressSanitizer in the program */
  const char *output;
  strvec cflags, lflags;
  strvec hipflags;                  /* for HIP compiles only: the target, -fgpu-rdc */
  strvec hostflags;                 /* for host compiles only, before the user's */
  strvec rdc_bitcode;               /* -fgpu-rdc: the device bitcode to link */
  strvec objects;                   /* what the link takes */
} emu_build;

static void parse_command_line(int argc, char **argv, const emu_tools *t, emu_build *b) {
  static ldsan_cc_include_dirs includes; /* where a .cpp's own headers are */
  ldsan_cc_find_include_dirs(argc, argv, &includes);
  int lang_hip = 0, lang_set = 0;
  const char *requested_arch = NULL, *arch;
  b->inputs = calloc((size_t)argc, sizeof *b->inputs);
  if (!b->inputs) die("out of memory");
  ldsan_cc_mode mode = ldsan_cc_sanitize_mode(argc, argv, 1);
  b->lds_only = mode.lds_only;
  if (mode.note) fprintf(stderr, "ldsan-cc: note: %s\n", mode.note);
  for (int i = 1; i < argc; i++) {
    const char *a = argv[i];
    char rest[PATH_MAX];
    int sanitize_lds = ldsan_cc_sanitize_lds_option(a, rest, sizeof rest);
    if (ldsan_cc_lds_checks_option(a)) {
      /* ldsan-cc's: every compile below reads it from the environment. */
      setenv("LDSAN_LDS_CHECKS", ldsan_cc_lds_checks_option(a), 1);
    } else if (sanitize_lds) {
      /* ldsan-cc's too: its HIP compiles get it back (hipflags); the rest is clang's. */
      if (rest[0]) push(&b->cflags, xstrdup(rest));
    } else if (strcmp(a, "-o") == 0) {
      if (i + 1 >= argc) die("-o needs a file name");
      b->output = argv[++i];
    } else if (strcmp(a, "-c") == 0) {
      b->compile_only = 1;
    } else if (strcmp(a, "-x") == 0 && i + 1 < argc) {
      lang_hip = strcmp(argv[++i], "hip") == 0 || strcmp(argv[i], "cuda") == 0;
      lang_set = strcmp(argv[i], "none") != 0;
    } else if (strcmp(a, "-xhip") == 0) {
      lang_hip = lang_set = 1;
    } else if (strcmp(a, "--offload-host-only") == 0 || strcmp(a, "--cuda-host-only") == 0) {
      b->host_only = 1;
    } else if (strcmp(a, "-shared") == 0) {
      b->shared = 1;
    } else if (strcmp(a, "-S") == 0 || strcmp(a, "-E") == 0 || strcmp(a, "-emit-llvm") == 0 ||
               strcmp(a, "--offload-device-only") == 0 || strcmp(a, "--cuda-device-only") == 0) {
      die("'%s' is not supported with --emulate (it builds executables and objects, whose kernels run on the "
          "emulator); drop it, or build for the GPU without --emulate", a);
    } else if ((arch = arch_option(argc, argv, &i)) != NULL) {
      if (!requested_arch) requested_arch = arch;  /* the emulator runs one target: the first */
    } else if (strncmp(a, "--no-offload-arch=", 18) == 0) {
      continue;
    } else if (strcmp(a, "-fgpu-rdc") == 0 || strcmp(a, "-fno-gpu-rdc") == 0) {
      b->rdc = a[2] == 'g';
    } else if (strcmp(a, "--hip-link") == 0 || is_real_hip_runtime(a)) {
      continue;  /* the emulated HIP runtime is linked instead */
    } else if (takes_value(a) && i + 1 < argc) {
      strvec *dst = link_only(a) ? &b->lflags : &b->cflags;
      push(dst, a);
      push(dst, argv[++i]);
    } else if (a[0] == '-' && a[1] != '\0') {
      push(link_only(a) ? &b->lflags : &b->cflags, a);
    } else {
      if (!lang_hip && is_real_hip_runtime(a)) continue;
      input *in = &b->inputs[b->ninputs++];
      in->path = a;
      in->hip = lang_hip || ldsan_cc_is_hip_source(a) || (!lang_set && ldsan_cc_is_cxx_using_hip(a, &includes));
    }
  }
  if (b->ninputs == 0) die("no input files; usage: ldsan-cc --emulate app.hip [more inputs] -o app");
  int any_hip = 0;
  for (int i = 0; i < b->ninputs; i++) any_hip |= b->inputs[i].hip;
  if (any_hip)
    push(&b->hipflags, fmt("--offload-arch=%s", emu_device_arch(t->root, t->clang, requested_arch, b->lds_only)));
  if (b->lds_only) push(&b->hipflags, "-fsanitize=lds");
  /* Host compiles under ASan keep frame pointers: ASan's malloc stacks unwind
   * by them, and a kernel's overflow of a hipMalloc buffer prints the stack
   * that allocated it through the program's own functions (host/asan_heap.c). */
  if (!b->lds_only) push(&b->hostflags, "-fno-omit-frame-pointer");
  if (b->rdc) push(&b->hipflags, "-fgpu-rdc");
  if (b->compile_only && b->output && b->ninputs > 1) die("-c with -o takes exactly one input (got %d)", b->ninputs);
  for (int i = 0; i < b->ninputs; i++) {
    const char *path = b->inputs[i].path;
    if (!file_exists(path)) die("input '%s' does not exist", path);
    struct stat st;
    if (stat(path, &st) == 0 && S_ISDIR(st.st_mode))
      die("input '%s' is a directory; give the source and object files in it (e.g. %s/*.hip)", path, path);
  }
}

/* The temporary directory, removed at exit and when interrupted (Ctrl-C, a
 * build tool's timeout). */
static void make_tmpdir(void) {
  snprintf(ldsan_emu_tmpdir, sizeof ldsan_emu_tmpdir, "%s/ldsan-emu-XXXXXX",
           getenv("TMPDIR") && *getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp");
  if (!mkdtemp(ldsan_emu_tmpdir)) {
    ldsan_emu_tmpdir[0] = '\0';
    die("cannot create a temporary directory: %s", strerror(errno));
  }
  struct sigaction sa;
  memset(&sa, 0, sizeof sa);
  sa.sa_handler = on_signal;
  sigemptyset(&sa.sa_mask);
  sigaction(SIGINT, &sa, NULL);
  sigaction(SIGTERM, &sa, NULL);
  sigaction(SIGHUP, &sa, NULL);
}

/* Input i, not HIP: an object is linked as it is; a host C/C++ source is
 * compiled like the host part of a .hip (C++ unless .c). s: its stem. */
static void compile_host_input(const emu_tools *t, emu_build *b, int i, const char *s) {
  const char *in = b->inputs[i].path;
  if (ldsan_cc_is_object(in)) {
    push(&b->objects, in);
    return;
  }
  char *obj = b->compile_only ? (b->output ? xstrdup(b->output) : fmt("%s.o", s))
                              : fmt("%s/%d-%s.o", ldsan_emu_tmpdir, i, s);
  strvec c = {0};
  push(&c, ldsan_cc_ends_with(in, ".c") ? t->clang : t->clangxx);
  if (!b->lds_only) push(&c, "-fsanitize=address");
  push_all(&c, &b->hostflags);
  push_all(&c, &b->cflags);
  push(&c, "-c");
  push(&c, in);
  push(&c, "-o");
  push(&c, obj);
  run(fmt("compiling %s", in), &c, NULL);
  push(&b->objects, obj);
}

/* Input i, HIP: its device part (lowered bitcode, retargeted to x86-64
 * unless -fgpu-rdc links it with the others first) and its host part. */
static void compile_hip_input(const emu_tools *t, emu_build *b, int i, const char *s) {
  const char *in = b->inputs[i].path;
  char *bc = fmt("%s/%d-%s.bc", ldsan_emu_tmpdir, i, s);
  char *dev = fmt("%s/%d-%s.dev.o", ldsan_emu_tmpdir, i, s);
  char *host = fmt("%s/%d-%s.host.o", ldsan_emu_tmpdir, i, s);
  char *out = b->compile_only ? (b->output ? xstrdup(b->output) : fmt("%s.o", s)) : NULL;
  if (b->host_only) {  /* the host part alone, as clang's --offload-host-only */
    compile_hip_part(t->cc, "host", &b->cflags, &b->hipflags, &b->hostflags, in, b->compile_only ? out : host);
    if (!b->compile_only) push(&b->objects, host);
    return;
  }
  compile_hip_part(t->cc, "device", &b->cflags, &b->hipflags, &b->hostflags, in, bc);
  compile_hip_part(t->cc, "host", &b->cflags, &b->hipflags, &b->hostflags, in, host);
  if (b->rdc) {  /* the device code is linked with the other TUs' first */
    if (!b->compile_only) {
      push(&b->rdc_bitcode, bc);
      push(&b->objects, host);
    } else {
      strvec e = {0};
      push(&e, t->objcopy);
      push(&e, fmt("--add-section=%s=%s", LDSAN_EMU_RDC_SECTION, bc));
      push(&e, fmt("--set-section-flags=%s=exclude,readonly", LDSAN_EMU_RDC_SECTION));
      push(&e, host);
      push(&e, out);
      run(fmt("storing the device bitcode of %s in %s", in, out), &e, NULL);
    }
    return;
  }
  retarget_device(t->retarget, &b->cflags, bc, dev, in, in);
  if (b->compile_only) {  /* one relocatable object per input: host + device */
    strvec l = {0};
    push(&l, t->clangxx);
    push(&l, "-r");
    push(&l, "-nostdlib");
    push(&l, host);
    push(&l, dev);
    push(&l, "-o");
    push(&l, out);
    run(fmt("combining host and device objects of %s", in), &l, NULL);
  } else {
    push(&b->objects, host);
    push(&b->objects, dev);
  }
}

static void compile_inputs(const emu_tools *t, emu_build *b) {
  for (int i = 0; i < b->ninputs; i++) {
    char *s = stem(b->inputs[i].path);
    if (b->inputs[i].hip) compile_hip_input(t, b, i, s);
    else compile_host_input(t, b, i, s);
    free(s);
  }
}

/* The objects and static libraries linked (those named by -l: the first
 * lib<name>.a in the -L directories): where HIP registration stubs and
 * -fgpu-rdc device code come from. */
static void linked_files(const emu_build *b, strvec *files) {
  const strvec *lf = &b->lflags;
  for (int i = 0; i < lf->n; i++) {
    const char *a = lf->v[i];
    if (strncmp(a, "-l", 2) != 0 || !a[2]) continue;
    for (int k = 0; k < lf->n; k++) {
      const char *dir = strcmp(lf->v[k], "-L") == 0 && k + 1 < lf->n ? lf->v[k + 1]
                        : strncmp(lf->v[k], "-L", 2) == 0 && lf->v[k][2] ? lf->v[k] + 2 : NULL;
      if (!dir) continue;
      char *lib = fmt("%s/lib%s.a", dir, a + 2);
      int found = file_exists(lib);
      if (found) push(files, lib);
      free(lib);
      if (found) break;
    }
  }
  for (int i = 0; i < b->objects.n; i++)
    if (ldsan_cc_ends_with(b->objects.v[i], ".o") || ldsan_cc_ends_with(b->objects.v[i], ".a"))
      push(files, b->objects.v[i]);
}

/* -fgpu-rdc: every object's and archive member's device bitcode, linked into
 * one device module, instrumented and retargeted: one image, as the GPU's
 * device link makes one code object. Returns its object. */
static char *link_rdc_device_code(const emu_tools *t, emu_build *b) {
  char *linked = fmt("%s/rdc-linked.bc", ldsan_emu_tmpdir), *dev = fmt("%s/rdc-linked.dev.o", ldsan_emu_tmpdir);
  char *lowered = fmt("%s/rdc-instrumented.bc", ldsan_emu_tmpdir);
  strvec k = {0};
  push(&k, t->llvm_link);
  push_all(&k, &b->rdc_bitcode);
  push(&k, "-o");
  push(&k, linked);
  run("linking the -fgpu-rdc device code of all translation units", &k, NULL);
  strvec in = {0};
  push(&in, t->opt);
  push(&in, fmt("-load-pass-plugin=%s", need(t->root, "lib/ldsan-instrument.so", "the ldsan plugin")));
  push(&in, "-passes=ldsan-instrument");
  push(&in, linked);
  push(&in, "-o");
  push(&in, lowered);
  run("instrumenting the LDS of the -fgpu-rdc device code", &in, NULL);
  ldsan_emu_hint = "with -fgpu-rdc, each __device__ function and variable a kernel uses must be defined in "
                   "one of the objects or static libraries linked (as for the GPU's device link)";
  retarget_device(t->retarget, &b->cflags, lowered, dev, "the -fgpu-rdc link",
                  fmt("the -fgpu-rdc device code of %s", b->output ? b->output : "a.out"));
  return dev;
}

/* Compile flags that also change what is linked (-fopenmp: libomp). */
static int also_a_link_flag(const char *a) {
  return strncmp(a, "-fsanitize", 10) == 0 || strncmp(a, "-fno-sanitize", 13) == 0 || strcmp(a, "-static") == 0 ||
         strcmp(a, "-no-pie") == 0 || strcmp(a, "-pie") == 0 || strcmp(a, "-v") == 0 || strcmp(a, "-fopenmp") == 0 ||
         strncmp(a, "-fopenmp=", 9) == 0 || strcmp(a, "-fno-openmp") == 0;
}

/* The executable (or shared library): the objects, the -fgpu-rdc device
 * code, the HIP registration stubs, the user's link flags, and the
 * emulator's libraries. */
static void link_program(const emu_tools *t, emu_build *b) {
  strvec l = {0};
  push(&l, t->clangxx);
  /* Host ASan and the emulated device share one shadow. An LDS-only program
   * has none, unless the emulator itself is the ASan build (LDSAN_EMU_SANITIZED). */
  if (!b->lds_only || file_exists(fmt("%s/sanitized", t->root))) push(&l, "-fsanitize=address");
  if (b->shared) push(&l, "-shared");
  for (int i = 0; i < b->cflags.n; i++)
    if (also_a_link_flag(b->cflags.v[i])) push(&l, b->cflags.v[i]);
  push_all(&l, &b->objects);
  strvec files = {0}, stubs = {0};
  linked_files(b, &files);
  int counter = 0;
  char *prefix = fmt("%s/rdc-", ldsan_emu_tmpdir), err[4400];
  for (int i = 0; i < files.n; i++) {
    collect_link_stubs(t->nm, files.v[i], &stubs);
    if (ldsan_emu_rdc_extract(files.v[i], prefix, &counter, add_found_bitcode, &b->rdc_bitcode, err, sizeof err))
      die("reading the -fgpu-rdc device code: %s", err);
  }
  if (b->rdc_bitcode.n > 0) push(&l, link_rdc_device_code(t, b));
  if (stubs.n > 0) push(&l, write_link_stubs(t->clang, &stubs));
  push_all(&l, &b->lflags);
  /* A shared library leaves the emulator (and ASan's runtime) to the executable
   * it is loaded into: one emulator per process. */
  if (!b->shared) {
    push(&l, need(t->root, "lib/libldsan-emu-hip.a", "the emulated HIP runtime"));
    push(&l, need(t->root, "lib/libldsan-emu-core.a", "the emulator core"));
    push(&l, need(t->root, "lib/libldsan-host.a", "the ldsan host library"));
  }
  push(&l, "-lstdc++");
  push(&l, "-lpthread");
  push(&l, "-lm");
  push(&l, "-o");
  push(&l, b->output ? b->output : "a.out");
  run("linking", &l, NULL);
}

int main(int argc, char **argv) {
  ldsan_emu_verbose = getenv("LDSAN_EMU_VERBOSE") && strcmp(getenv("LDSAN_EMU_VERBOSE"), "0") != 0;
  ldsan_emu_time = getenv("LDSAN_EMU_TIME") && *getenv("LDSAN_EMU_TIME") && strcmp(getenv("LDSAN_EMU_TIME"), "0") != 0;
  emu_tools t = {0};
  find_tools(&t);
  exec_passthrough(&t, argc, argv);
  emu_build b = {0};
  parse_command_line(argc, argv, &t, &b);
  t.retarget = need(t.root, "bin/ldsan-emu-retarget", "the emulator's retarget tool");
  if (strchr(t.cc, '/') && !file_exists(t.cc)) die("ldsan-cc ('%s') is missing; run 'make' in the ldsan tree", t.cc);
  make_tmpdir();
  compile_inputs(&t, &b);
  if (!b.compile_only) link_program(&t, &b);
  cleanup();
  if (ldsan_emu_time) fprintf(stderr, PROG ": time: %-60s %8.3f s\n", "all steps", ldsan_emu_time_total);
  return 0;
}
