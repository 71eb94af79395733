/* ldsan host: the log file (option log_path, reports to "<prefix>.<pid>").
 * It is created mode 0660 and close-on-exec; a symbolic link planted at its
 * name is never followed (one line on stderr names it, reports go to stderr);
 * a log whose writes fail (EFBIG under RLIMIT_FSIZE) says so once on stderr
 * and every report from then on goes to stderr, whole; with stderr closed
 * nothing crashes. Each case runs in a child: its own pid (its own log file),
 * its stderr a pipe the parent reads. */
#include "host_test.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>

static fake_memory mem_map;
static char dir[] = "/tmp/ldsan-log-test-XXXXXX";
static char prefix[64];

#define OVERFLOW "ERROR: AddressSanitizer: lds-buffer-overflow on address"
#define SUMMARY "SUMMARY: AddressSanitizer: lds-buffer-overflow in k1(int*, int)\n"

/* Drains one overflow record (halt_on_error=0) to the configured log. */
static void report_once(void) {
  static ldsan_report_channel ch;
  memset(&ch, 0, sizeof ch);
  ch.abi_version = LDSAN_ABI_VERSION;
  ch.capacity = LDSAN_CHANNEL_CAPACITY;
  ch.records[ch.next++] = mini_record(288, 4, 1, LDSAN_SHADOW_LDS_REDZONE);
  ldsan_device_memory mem = fake_reader(&mem_map);
  ldsan_host_drain_channel(&ch, &mem, &mini_dispatch);
}

/* "<prefix>.<pid>" in a static buffer. */
static const char *log_name(pid_t pid) {
  static char name[96];
  snprintf(name, sizeof name, "%s.%ld", prefix, (long)pid);
  return name;
}

typedef struct child {
  pid_t pid;
  int status;
  char *err;  /* its stderr (caller frees) */
} child;

/* Runs fn(arg) in a child with stderr a pipe; the child then exits 0. */
static child run_child(void (*fn)(void *), void *arg) {
  child c = {0, 0, NULL};
  int p[2];
  if (pipe(p) != 0) { perror("pipe"); exit(1); }
  fflush(NULL);
  c.pid = fork();
  if (c.pid == 0) {
    close(p[0]);
    dup2(p[1], 2);
    close(p[1]);
    fn(arg);
    fflush(NULL);
    _exit(0);
  }
  close(p[1]);
  size_t len = 0, cap = 1 << 16;
  c.err = malloc(cap);
  for (;;) {
    if (len + 4096 > cap) c.err = realloc(c.err, cap *= 2);
    ssize_t n = read(p[0], c.err + len, cap - len - 1);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) break;
    len += (size_t)n;
  }
  c.err[len] = 0;
  close(p[0]);
  waitpid(c.pid, &c.status, 0);
  fprintf(stderr, "---- child %ld's stderr (status 0x%x):\n%s---- end\n", (long)c.pid, c.status, c.err);
  return c;
}

static int exited_0(int status) { return WIFEXITED(status) && WEXITSTATUS(status) == 0; }

/* ---- a plain log file ------------------------------------------------------ */
static void plain_child(void *arg) {
  (void)arg;
  umask(0);
  report_once();
  report_once();
  /* The log's descriptor is close-on-exec: find it by name. */
  char want[PATH_MAX], link[64], got[PATH_MAX];
  if (!realpath(log_name(getpid()), want)) _exit(3);
  for (int fd = 3; fd < 1024; fd++) {
    snprintf(link, sizeof link, "/proc/self/fd/%d", fd);
    ssize_t n = readlink(link, got, sizeof got - 1);
    if (n <= 0) continue;
    got[n] = 0;
    if (!strcmp(got, want)) _exit(fcntl(fd, F_GETFD) & FD_CLOEXEC ? 0 : 4);
  }
  _exit(5);
}

static void test_plain(void) {
  child c = run_child(plain_child, NULL);
  CHECK_EQ(WIFEXITED(c.status) ? WEXITSTATUS(c.status) : -1, 0);  /* 4: not close-on-exec, 5: not open */
  struct stat st;
  CHECK_EQ(lstat(log_name(c.pid), &st), 0);
  CHECK(S_ISREG(st.st_mode));
  CHECK_EQ(st.st_mode & 07777, 0660);  /* ASan's mode, with umask 0 */
  char *text = slurp(log_name(c.pid));
  CHECK_EQ(count_of(text, OVERFLOW), 2);
  CHECK_EQ(count_of(text, SUMMARY), 2);
  CHECK_LACKS(c.err, "ldsan:");
  CHECK_LACKS(c.err, OVERFLOW);
  free(text);
  free(c.err);
  remove(log_name(c.pid));
}

/* ---- fork: a child reports to its own <prefix>.<pid>, as ASan's does ------- */
static void forking_child(void *arg) {
  (void)arg;
  report_once(); /* opens <prefix>.<this pid> */
  fflush(NULL);
  pid_t grandchild = fork();
  if (grandchild == 0) {
    report_once();
    report_once();
    fflush(NULL);
    _exit(0);
  }
  int status = 0;
  waitpid(grandchild, &status, 0);
  _exit(WIFEXITED(status) && WEXITSTATUS(status) == 0 ? 0 : 6);
}

static void test_fork(void) {
  child c = run_child(forking_child, NULL);
  CHECK(exited_0(c.status));
  char *mine = slurp(log_name(c.pid));
  CHECK(mine != NULL);
  CHECK_EQ(count_of(mine ? mine : "", OVERFLOW), 1); /* the forked process's reports are not here */
  /* The grandchild's file: the one other <prefix>.<pid> in the directory. */
  int others = 0, theirs = 0;
  for (pid_t p = c.pid + 1; p < c.pid + 4096 && !others; p++) {
    char *text = slurp(log_name(p));
    if (!text) continue;
    others++;
    theirs = count_of(text, OVERFLOW);
    free(text);
    remove(log_name(p));
  }
  CHECK_EQ(others, 1);
  CHECK_EQ(theirs, 2);
  free(mine);
  free(c.err);
  remove(log_name(c.pid));
}

/* ---- a symbolic link planted at the log's name ----------------------------- */
static void symlink_child(void *target) {
  if (symlink(target, log_name(getpid())) != 0) _exit(3);
  report_once();
  report_once();
}

static void test_symlink(int target_exists) {
  char target[96];
  snprintf(target, sizeof target, "%s/target%d", dir, target_exists);
  if (target_exists) {
    int fd = open(target, O_WRONLY | O_CREAT | O_TRUNC, 0600);
    CHECK(fd >= 0);
    close(fd);
  }
  child c = run_child(symlink_child, target);
  CHECK(exited_0(c.status));
  const char *name = log_name(c.pid);
  struct stat st;
  CHECK_EQ(lstat(name, &st), 0);
  CHECK(S_ISLNK(st.st_mode));  /* left as it was */
  if (target_exists) {
    CHECK_EQ(stat(target, &st), 0);
    CHECK_EQ(st.st_size, 0);  /* nothing written through the link */
  } else {
    CHECK_EQ(access(target, F_OK), -1);  /* nothing created through the link */
  }
  /* One line naming the link and what to do; both reports on stderr. */
  char want[256];
  snprintf(want, sizeof want, "ldsan: warning: log file '%s' (log_path=%s) is a symbolic link", name, prefix);
  CHECK_HAS(c.err, want);
  CHECK_EQ(count_of(c.err, "ldsan: warning:"), 1);
  CHECK_HAS(c.err, "remove it or set log_path");
  CHECK_EQ(count_of(c.err, OVERFLOW), 2);
  CHECK_EQ(count_of(c.err, SUMMARY), 2);
  free(c.err);
  remove(name);
  remove(target);
}

/* ---- a log that cannot be written ------------------------------------------ */
/* Writes past 100 bytes of a file fail with EFBIG (SIGXFSZ ignored): the first
 * report's write is short, the rest fail. The stderr pipe is not a file. */
static void limit_file_size(void) {
  signal(SIGXFSZ, SIG_IGN);
  struct rlimit rl;
  getrlimit(RLIMIT_FSIZE, &rl);
  rl.rlim_cur = 100;
  if (setrlimit(RLIMIT_FSIZE, &rl) != 0) _exit(3);
}

static void full_child(void *arg) {
  (void)arg;
  limit_file_size();
  for (int i = 0; i < 3; i++) report_once();
}

static void test_write_fails(void) {
  child c = run_child(full_child, NULL);
  CHECK(exited_0(c.status));
  const char *name = log_name(c.pid);
  struct stat st;
  CHECK_EQ(stat(name, &st), 0);
  CHECK(st.st_size <= 100);
  char want[256];
  snprintf(want, sizeof want, "ldsan: warning: cannot write reports to log file '%s' (log_path=%s): %s; ", name,
           prefix, strerror(EFBIG));
  CHECK_HAS(c.err, want);
  CHECK_EQ(count_of(c.err, "ldsan: warning:"), 1);  /* once, not per report */
  /* Every report reached stderr whole: the one cut short in the file too. */
  CHECK_EQ(count_of(c.err, "=================================================================\n"), 3);
  CHECK_EQ(count_of(c.err, OVERFLOW), 3);
  CHECK_EQ(count_of(c.err, SUMMARY), 3);
  free(c.err);
  remove(name);
}

/* The same with stderr closed: the log takes descriptor 2, the fallback has
 * nowhere to go, and the process goes on. */
static void closed_child(void *arg) {
  (void)arg;
  close(2);
  limit_file_size();
  for (int i = 0; i < 3; i++) report_once();
}

static void test_stderr_closed(void) {
  child c = run_child(closed_child, NULL);
  CHECK(exited_0(c.status));
  CHECK_STREQ(c.err, "");
  free(c.err);
  remove(log_name(c.pid));
}

int main(void) {
  ldsan_host_init();
  ldsan_flags_set_defaults();  /* hermetic: whatever options the runner has */
  CHECK(mkdtemp(dir) != NULL);
  snprintf(prefix, sizeof prefix, "%s/log", dir);
  char opt[128];
  snprintf(opt, sizeof opt, "color=never:print_legend=0:halt_on_error=0:log_path=%s", prefix);
  CHECK_EQ(ldsan_flags_parse(opt, stderr), 0);
  mini_setup(&mem_map, 0, 0);
  test_plain();
  test_fork();
  test_symlink(1);
  test_symlink(0);
  test_write_fails();
  test_stderr_closed();
  fake_free(&mem_map);
  rmdir(dir);
  return test_done("log_test");
}
