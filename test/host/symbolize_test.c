/* ldsan host: the external symbolizer (host/symbolize.c) with the real
 * llvm-symbolizer on this test's own executable: a call inlined into another
 * function gives two frames, answers are cached, symbolize=0 runs nothing,
 * a forked child and several threads each get right answers; and every way
 * the symbolizer can fail (missing, not executable, dying, hanging, talking
 * nonsense) gives exactly one warning and frames with the module only. */
#include "host_test.h"

#include <dlfcn.h>
#include <link.h>
#include <pthread.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>

static volatile int sink;
static int call_column;  /* the column of the call to where() */

/* The address of its call site (the return address), like the device runtime records. */
__attribute__((noinline)) static uint64_t where(int builtin_column) {
  sink++;
  call_column = builtin_column - (int)strlen("where(");
  return (uint64_t)(uintptr_t)__builtin_return_address(0);
}

/* Inlined into outer: the call to where() has two frames, inner's and outer's
 * call of inner. Each records the line and column of its call. */
static inline __attribute__((always_inline)) uint64_t inner(int *lines, int *columns, int outer_builtin_column) {
  columns[1] = outer_builtin_column - (int)strlen("inner(lines, columns, ");
  lines[0] = __LINE__; uint64_t pc = where(__builtin_COLUMN());
  columns[0] = call_column;
  sink++;
  return pc;
}

__attribute__((noinline, disable_tail_calls)) static uint64_t outer(int *lines, int *columns) {
  lines[1] = __LINE__; uint64_t pc = inner(lines, columns, __builtin_COLUMN());
  sink++;
  return pc;
}

static char self[4096];

/* This executable and the ELF address of pc in it. */
static uint64_t elf_address(uint64_t pc) {
  Dl_info info;
  struct link_map *lm = NULL;
  if (!dladdr1((void *)(uintptr_t)pc, &info, (void **)&lm, RTLD_DL_LINKMAP) || !lm) {
    fprintf(stderr, "dladdr1 failed\n");
    exit(1);
  }
  return pc - lm->l_addr;
}

static int lines[2], columns[2];
static uint64_t call_address;  /* ELF address inside the call instruction */

static void test_inlined_frames(void) {
  ldsan_frame f[LDSAN_MAX_FRAMES];
  int n = ldsan_symbolize_module(self, call_address, f, LDSAN_MAX_FRAMES);
  CHECK_EQ(n, 2);
  CHECK_STREQ(f[0].function, "inner");
  CHECK_STREQ(f[0].file, "test/host/symbolize_test.c");
  CHECK_EQ(f[0].line, lines[0]);
  CHECK_EQ(f[0].column, columns[0]);
  CHECK_STREQ(f[1].function, "outer");
  CHECK_STREQ(f[1].file, "test/host/symbolize_test.c");
  CHECK_EQ(f[1].line, lines[1]);
  CHECK_EQ(f[1].column, columns[1]);
  for (int i = 0; i < n; i++) {
    CHECK_STREQ(f[i].module, self);
    CHECK_EQ(f[i].module_offset, call_address);
  }
  /* Cached: the same strings, the same process, no new question. */
  long pid = ldsan_symbolizer_pid();
  CHECK(pid > 0);
  ldsan_frame g[1];
  CHECK_EQ(ldsan_symbolize_module(self, call_address, g, 1), 1);
  CHECK(g[0].function == f[0].function && g[0].file == f[0].file);
  CHECK_EQ(ldsan_symbolizer_pid(), pid);
  /* Nothing known at an address: the module only. A missing module: the same, no warning. */
  n = ldsan_symbolize_module(self, 0x1, f, LDSAN_MAX_FRAMES);
  CHECK_EQ(n, 1);
  CHECK(!f[0].function && !f[0].file && f[0].line == 0);
  CHECK_STREQ(f[0].module, self);
  CHECK_EQ(f[0].module_offset, 1);
  n = ldsan_symbolize_module("/nonexistent/k.co", 0x1000, f, LDSAN_MAX_FRAMES);
  CHECK_EQ(n, 1);
  CHECK_STREQ(f[0].module, "/nonexistent/k.co");
  CHECK(!f[0].function && !f[0].file);
  /* Paths the protocol cannot quote are not sent. */
  CHECK_EQ(ldsan_symbolize_module("/tmp/a\"b", 0x10, f, 4), 1);
  CHECK_EQ(ldsan_symbolizer_pid(), pid);
  CHECK_EQ(ldsan_symbolize_module(NULL, 0x10, f, 4), 0);
  CHECK_EQ(ldsan_symbolize_module("", 0x10, f, 4), 0);
  CHECK_EQ(ldsan_symbolize_module(self, 0x10, f, 0), 0);
}

static void test_symbolize_off(void) {
  ldsan_symbolizer_reset(0);
  ldsan_flags_parse("symbolize=0", stderr);
  ldsan_frame f[4];
  CHECK_EQ(ldsan_symbolize_module(self, call_address, f, 4), 1);
  CHECK(!f[0].function && !f[0].file);
  CHECK(f[0].module == self);  /* the caller's string: nothing is cached */
  CHECK_EQ(f[0].module_offset, call_address);
  CHECK_EQ(ldsan_symbolizer_pid(), 0);
  ldsan_flags_parse("symbolize=1", stderr);
}

/* A child of fork() must not talk to the parent's symbolizer. */
static void test_fork(void) {
  ldsan_frame f[4];
  CHECK_EQ(ldsan_symbolize_module(self, call_address, f, 4), 2);
  long parent_symbolizer = ldsan_symbolizer_pid();
  pid_t child = fork();
  if (child == 0) {
    ldsan_frame c[4];
    int n = ldsan_symbolize_module(self, call_address + 1, c, 4);  /* not cached */
    int ok = n == 2 && c[1].function && !strcmp(c[1].function, "outer") && ldsan_symbolizer_pid() != parent_symbolizer &&
             ldsan_symbolizer_pid() > 0;
    _exit(ok ? 0 : 1);
  }
  int st = -1;
  waitpid(child, &st, 0);
  CHECK(WIFEXITED(st) && WEXITSTATUS(st) == 0);
  CHECK_EQ(ldsan_symbolizer_pid(), parent_symbolizer);
  CHECK_EQ(ldsan_symbolize_module(self, call_address + 2, f, 4), 2);  /* the parent's still answers */
  CHECK_STREQ(f[0].function, "inner");
}

static void *thread_main(void *arg) {
  (void)arg;
  for (int round = 0; round < 3; round++)
    for (uint64_t d = 0; d < 8; d++) {
      ldsan_frame f[4];
      int n = ldsan_symbolize_module(self, call_address - d % 2, f, 4);  /* the call's first two bytes */
      if (n != 2 || !f[1].function || strcmp(f[1].function, "outer")) return (void *)1;
    }
  return NULL;
}

static void test_threads(void) {
  ldsan_symbolizer_reset(0);
  pthread_t t[4];
  for (int i = 0; i < 4; i++) pthread_create(&t[i], NULL, thread_main, NULL);
  for (int i = 0; i < 4; i++) {
    void *r;
    pthread_join(t[i], &r);
    CHECK(r == NULL);
  }
}

static char dir[64];

static const char *script(const char *name, const char *body, mode_t mode) {
  static char path[128];
  snprintf(path, sizeof path, "%s/%s", dir, name);
  FILE *f = fopen(path, "w");
  fprintf(f, "#!/bin/sh\n%s\n", body);
  fclose(f);
  chmod(path, mode);
  return path;
}

/* With `options`, a lookup gives the module only and one warning ending in `why`. */
static void failure(const char *options, const char *why, const char *path, int timeout_ms) {
  ldsan_symbolizer_reset(timeout_ms);
  ldsan_flags_parse(options, stderr);
  capture c;
  capture_begin(&c);
  ldsan_log_override(c.f);
  struct timespec t0, t1;
  clock_gettime(CLOCK_MONOTONIC, &t0);
  ldsan_frame f[4];
  CHECK_EQ(ldsan_symbolize_module(self, call_address, f, 4), 1);
  CHECK(!f[0].function && !f[0].file && f[0].module && f[0].module_offset == call_address);
  CHECK_EQ(ldsan_symbolize_module(self, call_address - 1, f, 4), 1);  /* not asked again */
  clock_gettime(CLOCK_MONOTONIC, &t1);
  CHECK(t1.tv_sec - t0.tv_sec < 10);
  CHECK_EQ(ldsan_symbolizer_pid(), 0);
  ldsan_log_override(NULL);
  const char *out = capture_end(&c);
  fputs(out, stderr);
  char want[512];
  snprintf(want, sizeof want, "ldsan: warning: cannot run the symbolizer '%s': %s; reports show bare pcs "
           "(set external_symbolizer_path or install llvm-22)\n", path, why);
  CHECK_STREQ(out, want);
  capture_free(&c);
}

static void test_broken_symbolizers(void) {
  snprintf(dir, sizeof dir, "/tmp/ldsan-symbolize-XXXXXX");
  if (!mkdtemp(dir)) { perror("mkdtemp"); exit(1); }
  char opt[256];
  failure("external_symbolizer_path=/nonexistent/llvm-symbolizer", "No such file or directory",
          "/nonexistent/llvm-symbolizer", 0);
  const char *p = script("not-executable", "exit 0", 0644);
  snprintf(opt, sizeof opt, "external_symbolizer_path=%s", p);
  failure(opt, "Permission denied", p, 0);
  p = script("dies", "read line; exit 3", 0755);
  snprintf(opt, sizeof opt, "external_symbolizer_path=%s", p);
  failure(opt, "it stopped answering (it exited with status 3)", p, 0);
  p = script("hangs", "exec sleep 60", 0755);
  snprintf(opt, sizeof opt, "external_symbolizer_path=%s", p);
  failure(opt, "it did not answer within 0.3 s", p, 300);
  p = script("chatters", "read line; exec yes x", 0755);
  snprintf(opt, sizeof opt, "external_symbolizer_path=%s", p);
  failure(opt, "it answered more than 64 KiB without the blank line that ends an answer", p, 0);
  /* PATH without any llvm-symbolizer: both names are tried. */
  const char *old_path = getenv("PATH");
  char *saved = old_path ? strdup(old_path) : NULL;
  setenv("PATH", dir, 1);
  failure("external_symbolizer_path=", "neither it nor 'llvm-symbolizer' is on PATH", "llvm-symbolizer-22", 0);
  if (saved) setenv("PATH", saved, 1);
  free(saved);
  /* Back to normal after a reset. */
  ldsan_symbolizer_reset(0);
  ldsan_frame f[4];
  CHECK_EQ(ldsan_symbolize_module(self, call_address, f, 4), 2);
  char cmd[128];
  snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
  CHECK_EQ(system(cmd), 0);
}

int main(void) {
  ldsan_host_init();
  ldsan_flags_set_defaults();
  ldsan_flags_parse("color=never", stderr);
  ssize_t n = readlink("/proc/self/exe", self, sizeof self - 1);
  if (n <= 0) { perror("readlink"); return 1; }
  self[n] = 0;
  call_address = elf_address(outer(lines, columns)) - 1;
  test_inlined_frames();
  test_symbolize_off();
  test_fork();
  test_threads();
  test_broken_symbolizers();
  return test_done("symbolize_test");
}
