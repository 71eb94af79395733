/* ldsan host library: the external symbolizer, as compiler-rt's. One
 * llvm-symbolizer child per process, started on first use and kept running,
 * talks its interactive protocol over a socket pair: ldsan writes
 * `"<module>" 0x<address>`, it answers "function\nfile:line:column\n" per frame
 * (innermost first, inlined frames included) and a blank line. A socket, not
 * a pipe, so a dead child is an error (MSG_NOSIGNAL), not a SIGPIPE.
 * Answers are cached per (module, address) for the life of the process: the
 * strings in returned frames stay valid until exit. A symbolizer that cannot
 * start, dies, says something that is not its protocol, or does not answer
 * within the timeout is killed, one warning goes to the report stream, and it
 * is not asked again: frames then carry only the module and address.
 * Threading: one mutex around the cache and the child; fork() handlers keep it
 * consistent, and a forked child starts its own symbolizer. */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <spawn.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "internal.h"

extern char **environ;

#define SYM_DEFAULT "llvm-symbolizer-22"
#define SYM_FALLBACK "llvm-symbolizer"
#define SYM_ANSWER_MAX (64u << 10)  /* bytes of one answer; more is not the protocol */
#define SYM_MAX_FRAMES 64           /* inlined frames kept per address */
#define SYM_BUCKETS 1024
#define SYM_DEFAULT_TIMEOUT_MS 30000

typedef struct sym_entry {
  struct sym_entry *next;
  char *module;
  uint64_t address;
  int n;                      /* frames, >= 1 (the last resort: module only) */
  ldsan_frame frames[];
} sym_entry;

static pthread_mutex_t sym_mu = PTHREAD_MUTEX_INITIALIZER;
static pthread_once_t sym_once = PTHREAD_ONCE_INIT;
static sym_entry *sym_cache[SYM_BUCKETS];
static pid_t sym_pid;               /* 0: not running */
static int sym_fd = -1;             /* our end of the socket pair */
static int sym_failed;              /* warned once; never asked again */
static int sym_timeout_ms = SYM_DEFAULT_TIMEOUT_MS;
static char sym_name[512];          /* the program that runs (for the warning) */

static void sym_prepare(void) { pthread_mutex_lock(&sym_mu); }
static void sym_parent(void) { pthread_mutex_unlock(&sym_mu); }
/* The child shares the parent's socket: it must start its own symbolizer. */
static void sym_child(void) {
  if (sym_fd >= 0) close(sym_fd);
  sym_fd = -1;
  sym_pid = 0;
  pthread_mutex_unlock(&sym_mu);
}
static void sym_init_once(void) { pthread_atfork(sym_prepare, sym_parent, sym_child); }

static void sym_stop(void) {
  if (sym_fd >= 0) close(sym_fd);
  sym_fd = -1;
  if (sym_pid > 0) {
    kill(sym_pid, SIGKILL);
    while (waitpid(sym_pid, NULL, 0) < 0 && errno == EINTR) {}
  }
  sym_pid = 0;
}

/* The one warning: stops the symbolizer for good. */
static void sym_fail(const char *why) {
  sym_stop();
  if (sym_failed) return;
  sym_failed = 1;
  FILE *out = ldsan_log_stream();
  fprintf(out, "ldsan: warning: cannot run the symbolizer '%s': %s; reports show bare pcs "
               "(set external_symbolizer_path or install llvm-22)\n", sym_name, why);
  fflush(out);
}

/* Starts `prog` (searched on PATH unless it has a '/'); 0 or an errno value. */
static int sym_spawn(const char *prog) {
  int sv[2];
  if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sv) != 0) return errno;
  posix_spawn_file_actions_t fa;
  posix_spawnattr_t attr;
  posix_spawn_file_actions_init(&fa);
  posix_spawn_file_actions_adddup2(&fa, sv[1], 0);
  posix_spawn_file_actions_adddup2(&fa, sv[1], 1);
  /* Its complaints (a module that is not there, not ELF) would land in the
   * middle of reports; the answer "??" says enough. */
  posix_spawn_file_actions_addopen(&fa, 2, "/dev/null", O_WRONLY, 0);
  posix_spawnattr_init(&attr);
  sigset_t none, dfl;
  sigemptyset(&none);
  sigemptyset(&dfl);
  sigaddset(&dfl, SIGPIPE);
  posix_spawnattr_setsigmask(&attr, &none);
  posix_spawnattr_setsigdefault(&attr, &dfl);
  posix_spawnattr_setflags(&attr, POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF);
  char *argv[] = {(char *)prog, "--inlining", "--demangle", "--relativenames", "--functions=linkage",
                  "--output-style=LLVM", NULL};
  pid_t pid = 0;
  int rc = posix_spawnp(&pid, prog, &fa, &attr, argv, environ);
  posix_spawn_file_actions_destroy(&fa);
  posix_spawnattr_destroy(&attr);
  close(sv[1]);
  if (rc != 0) { close(sv[0]); return rc; }
  sym_fd = sv[0];
  sym_pid = pid;
  snprintf(sym_name, sizeof sym_name, "%s", prog);
  return 0;
}

/* Runs the configured symbolizer; on failure warns and returns -1. */
static int sym_start(void) {
  const char *path = ldsan_flags_get()->external_symbolizer_path;
  if (path && *path) {
    snprintf(sym_name, sizeof sym_name, "%s", path);
    int rc = sym_spawn(path);
    if (rc) { sym_fail(strerror(rc)); return -1; }
    return 0;
  }
  snprintf(sym_name, sizeof sym_name, "%s", SYM_DEFAULT);
  int rc = sym_spawn(SYM_DEFAULT);
  if (rc == ENOENT) rc = sym_spawn(SYM_FALLBACK);
  if (rc == ENOENT) { sym_fail("neither it nor '" SYM_FALLBACK "' is on PATH"); return -1; }
  if (rc) { sym_fail(strerror(rc)); return -1; }
  return 0;
}

static long long now_ms(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (long long)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

/* Waits for `events` on the socket until `deadline`; 0 ready, else fills why. */
static int sym_wait(short events, long long deadline, char *why, size_t len) {
  for (;;) {
    long long left = deadline - now_ms();
    if (left <= 0) {
      snprintf(why, len, "it did not answer within %d.%d s", sym_timeout_ms / 1000, sym_timeout_ms % 1000 / 100);
      return -1;
    }
    struct pollfd p = {sym_fd, events, 0};
    int rc = poll(&p, 1, left > 1000000 ? 1000000 : (int)left);
    if (rc > 0) return 0;
    if (rc < 0 && errno != EINTR) { snprintf(why, len, "poll: %s", strerror(errno)); return -1; }
  }
}

/* Why the child stopped talking: its exit status if it is gone (it closes
 * the socket just before it exits: give it 200 ms to finish). */
static void sym_gone(char *why, size_t len, const char *what) {
  int st = 0;
  pid_t r = 0;
  for (int i = 0; i < 20 && sym_pid > 0 && (r = waitpid(sym_pid, &st, WNOHANG)) == 0; i++) {
    struct timespec ts = {0, 10 * 1000 * 1000};
    nanosleep(&ts, NULL);
  }
  if (r == sym_pid && WIFEXITED(st)) snprintf(why, len, "%s (it exited with status %d)", what, WEXITSTATUS(st));
  else if (r == sym_pid && WIFSIGNALED(st)) snprintf(why, len, "%s (it was killed by signal %d)", what, WTERMSIG(st));
  else snprintf(why, len, "%s", what);
  if (r == sym_pid) sym_pid = 0;
}

/* One question, one answer (ending in a blank line) into buf; 0 or -1 + why. */
static int sym_ask(const char *question, char *buf, size_t cap, char *why, size_t len) {
  long long deadline = now_ms() + sym_timeout_ms;
  size_t n = strlen(question), done = 0;
  while (done < n) {
    if (sym_wait(POLLOUT, deadline, why, len)) return -1;
    ssize_t w = send(sym_fd, question + done, n - done, MSG_NOSIGNAL);
    if (w < 0 && errno == EINTR) continue;
    if (w <= 0) { sym_gone(why, len, "it stopped reading"); return -1; }
    done += (size_t)w;
  }
  size_t got = 0;
  for (;;) {
    if (got >= 2 && buf[got - 1] == '\n' && buf[got - 2] == '\n') break;
    if (got + 1 >= cap) {
      snprintf(why, len, "it answered more than %zu KiB without the blank line that ends an answer", cap >> 10);
      return -1;
    }
    if (sym_wait(POLLIN, deadline, why, len)) return -1;
    ssize_t r = recv(sym_fd, buf + got, cap - 1 - got, 0);
    if (r < 0 && errno == EINTR) continue;
    if (r <= 0) { sym_gone(why, len, "it stopped answering"); return -1; }
    got += (size_t)r;
  }
  buf[got] = 0;
  return 0;
}

/* Splits "file:line:column" (maybe " (discriminator N)" after it); "??" is unknown. */
static void parse_location(char *s, ldsan_frame *f) {
  char *d = strstr(s, " (discriminator ");
  if (d) *d = 0;
  unsigned long nums[2] = {0, 0};
  int count = 0;
  for (char *colon; count < 2 && (colon = strrchr(s, ':')) && colon[1] >= '0' && colon[1] <= '9';) {
    char *end;
    unsigned long v = strtoul(colon + 1, &end, 10);
    if (*end) break;
    nums[count++] = v;
    *colon = 0;
  }
  if (!*s || !strcmp(s, "??")) return;
  f->file = strdup(s);
  f->line = (uint32_t)(count == 2 ? nums[1] : nums[0]);
  f->column = (uint32_t)(count == 2 ? nums[0] : 0);
}

/* A copy of the symbolizer's function name fn without the demangled suffix
 * of the emulator's checked copies (" (.ldsan.checked)"): the report names
 * the program's function. */
static char *function_name(const char *fn) {
  static const char suffix[] = " (" LDSAN_CHECKED_COPY_SUFFIX ")";
  size_t n = strlen(fn), k = sizeof suffix - 1;
  return n > k && !strcmp(fn + n - k, suffix) ? strndup(fn, n - k) : strdup(fn);
}

/* Frames of one answer into e (which has room for SYM_MAX_FRAMES). */
static void parse_answer(char *buf, sym_entry *e) {
  char *save = NULL;
  for (char *fn = strtok_r(buf, "\n", &save); fn && e->n < SYM_MAX_FRAMES; fn = strtok_r(NULL, "\n", &save)) {
    char *loc = strtok_r(NULL, "\n", &save);
    ldsan_frame *f = &e->frames[e->n];
    memset(f, 0, sizeof *f);
    if (strcmp(fn, "??") != 0) f->function = function_name(fn);
    if (loc) parse_location(loc, f);
    if (f->function || f->file) e->n++;
  }
}

static unsigned sym_hash(const char *module, uint64_t address) {
  uint64_t h = 1469598103934665603ull ^ address;
  for (const unsigned char *p = (const unsigned char *)module; *p; p++) h = (h ^ *p) * 1099511628211ull;
  return (unsigned)(h ^ (h >> 29)) % SYM_BUCKETS;
}

/* Looks up (module, address), asking the symbolizer on a miss. Never NULL
 * unless out of memory. Called with sym_mu held. */
static sym_entry *sym_lookup(const char *module, uint64_t address) {
  unsigned h = sym_hash(module, address);
  for (sym_entry *e = sym_cache[h]; e; e = e->next)
    if (e->address == address && !strcmp(e->module, module)) return e;
  sym_entry *e = calloc(1, sizeof *e + SYM_MAX_FRAMES * sizeof(ldsan_frame));
  if (!e || !(e->module = strdup(module))) { free(e); return NULL; }
  e->address = address;
  /* A path the protocol cannot quote is answered "unknown" right away. */
  int quotable = !strpbrk(module, "\"\n\r");
  if (quotable && !sym_failed && (sym_pid > 0 || sym_start() == 0)) {
    size_t qlen = strlen(module) + 32;
    char *question = malloc(qlen), *answer = malloc(SYM_ANSWER_MAX);
    char why[600];
    if (question && answer) {
      snprintf(question, qlen, "\"%s\" 0x%llx\n", module, (unsigned long long)address);
      if (sym_ask(question, answer, SYM_ANSWER_MAX, why, sizeof why) == 0) parse_answer(answer, e);
      else sym_fail(why);
    }
    free(question);
    free(answer);
  }
  if (e->n == 0) e->n = 1;  /* frames[0] is all zero: the module alone */
  for (int i = 0; i < e->n; i++) {
    e->frames[i].module = e->module;
    e->frames[i].module_offset = address;
  }
  e->next = sym_cache[h];
  sym_cache[h] = e;
  return e;
}

int ldsan_symbolize_module(const char *module, uint64_t address, ldsan_frame *frames, int max_frames) {
  if (!frames || max_frames <= 0) return 0;
  memset(frames, 0, sizeof *frames);
  if (!module || !*module) return 0;
  ldsan_host_init();
  if (!ldsan_flags_get()->symbolize) {  /* bare pc: nothing runs */
    frames[0].module = module;
    frames[0].module_offset = address;
    return 1;
  }
  pthread_once(&sym_once, sym_init_once);
  pthread_mutex_lock(&sym_mu);
  sym_entry *e = sym_lookup(module, address);
  int n = 0;
  if (e) {
    n = e->n < max_frames ? e->n : max_frames;
    memcpy(frames, e->frames, (size_t)n * sizeof *frames);
  }
  pthread_mutex_unlock(&sym_mu);
  if (!e) {  /* out of memory: the caller's module string */
    frames[0].module = module;
    frames[0].module_offset = address;
    n = 1;
  }
  return n;
}

void ldsan_symbolizer_reset(int timeout_ms) {
  pthread_once(&sym_once, sym_init_once);
  pthread_mutex_lock(&sym_mu);
  sym_stop();
  for (unsigned i = 0; i < SYM_BUCKETS; i++) {
    for (sym_entry *e = sym_cache[i], *next; e; e = next) {
      next = e->next;
      for (int k = 0; k < e->n; k++) {
        free((char *)e->frames[k].function);
        free((char *)e->frames[k].file);
      }
      free(e->module);
      free(e);
    }
    sym_cache[i] = NULL;
  }
  sym_failed = 0;
  sym_timeout_ms = timeout_ms > 0 ? timeout_ms : SYM_DEFAULT_TIMEOUT_MS;
  pthread_mutex_unlock(&sym_mu);
}

long ldsan_symbolizer_pid(void) {
  pthread_mutex_lock(&sym_mu);
  long pid = sym_pid;
  pthread_mutex_unlock(&sym_mu);
  return pid;
}
