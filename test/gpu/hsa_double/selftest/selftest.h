/* hsa_double/selftest/selftest.h — what the parts of the double's self-test
 * (test/gpu/double_selftest.c and the files here) share: the CHECK macros,
 * the test's directory, and helpers to find agents and pools, run the
 * simulated device, write packets, and run a check in a child process. */
#ifndef HSAD_SELFTEST_H
#define HSAD_SELFTEST_H

#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <hsa/hsa.h>
#include <hsa/hsa_ext_amd.h>

#include "hsa_double.h"

/* ---- checks: both sides and file:line on failure ------------------------------ */
extern int st_failures, st_checks;

#define CHECK(cond)                                                              \
  do {                                                                           \
    st_checks++;                                                                 \
    if (!(cond)) {                                                               \
      st_failures++;                                                             \
      fprintf(stderr, "%s:%d: CHECK failed: %s\n", __FILE__, __LINE__, #cond);   \
    }                                                                            \
  } while (0)
#define CHECK_EQ(a, b)                                                                                 \
  do {                                                                                                 \
    unsigned long long a_ = (unsigned long long)(a), b_ = (unsigned long long)(b);                     \
    st_checks++;                                                                                       \
    if (a_ != b_) {                                                                                    \
      st_failures++;                                                                                   \
      fprintf(stderr, "%s:%d: CHECK_EQ(%s, %s) failed: 0x%llx != 0x%llx\n", __FILE__, __LINE__, #a, #b, \
              a_, b_);                                                                                 \
    }                                                                                                  \
  } while (0)
#define CHECK_STR(a, b)                                                                                    \
  do {                                                                                                     \
    const char *a_ = (a), *b_ = (b);                                                                       \
    st_checks++;                                                                                           \
    if (!a_ || !b_ || strcmp(a_, b_)) {                                                                    \
      st_failures++;                                                                                       \
      fprintf(stderr, "%s:%d: CHECK_STR(%s, %s) failed: \"%s\" != \"%s\"\n", __FILE__, __LINE__, #a, #b, \
              a_ ? a_ : "(null)", b_ ? b_ : "(null)");                                                     \
    }                                                                                                      \
  } while (0)
/* An HSA call returning `want`; prints both statuses by name. */
#define CHECK_HSA(call, want)                                                                          \
  do {                                                                                                 \
    hsa_status_t got_ = (call), want_ = (want);                                                        \
    st_checks++;                                                                                       \
    if (got_ != want_) {                                                                               \
      const char *g_ = "?", *w_ = "?";                                                                 \
      hsa_status_string(got_, &g_);                                                                    \
      hsa_status_string(want_, &w_);                                                                   \
      st_failures++;                                                                                   \
      fprintf(stderr, "%s:%d: %s\n    returned %s\n    expected %s\n", __FILE__, __LINE__, #call, g_, w_); \
    }                                                                                                  \
  } while (0)
#define CHECK_OK(call) CHECK_HSA(call, HSA_STATUS_SUCCESS)
/* `text` occurs in `hay` (a captured output). */
#define CHECK_HAS(hay, text)                                                                     \
  do {                                                                                           \
    const char *h_ = (hay), *t_ = (text);                                                        \
    st_checks++;                                                                                 \
    if (!h_ || !strstr(h_, t_)) {                                                                \
      st_failures++;                                                                             \
      fprintf(stderr, "%s:%d: output lacks \"%s\"; it is:\n%s\n", __FILE__, __LINE__, t_, h_ ? h_ : ""); \
    }                                                                                            \
  } while (0)

#define ST_TIMEOUT (10ull * 1000 * 1000 * 1000) /* 10 s in timestamp ticks (ns) */

extern const char *g_dir;          /* the directory of code objects and tools */
extern char g_tool_path[4096];     /* libdummy_tool.so there */
extern char g_probe_path[4096];    /* libhsad_probe_tool.so there */
extern uint64_t g_kernel_object;   /* static_lds on the gfx90a agent, for the dispatch tests */

/* The ROCm releases HSA_DOUBLE_ROCM names, oldest first, and their count. */
extern const char *const st_releases[];
extern const int st_release_count;
/* Index of `name` in st_releases (-1 if none); release_at_least("6.0") compares
 * the current HSA_DOUBLE_ROCM (unset: 5.2) with a release. */
int release_index(const char *name);
int release_at_least(const char *name);

/* Polls `flag` until it is at least `want` or 10 s pass; returns its value. */
int wait_flag(atomic_int *flag, int want);
void *read_file(const char *name, size_t *size);

/* ---- agents and pools ----------------------------------------------------------- */
typedef struct {
  hsa_agent_t cpu, gpu[4];
  int ngpu;
} agent_list;
agent_list agents(void);
hsa_amd_memory_pool_t global_pool(hsa_agent_t a);
int host_readable(const void *addr);

/* ---- queues and the simulated device ---------------------------------------------- */
typedef struct {
  atomic_int dispatches;
  hsa_double_outcome outcome;
  uint64_t kernel_object;
  atomic_int name_ok;
  atomic_int hold;               /* nonzero: each dispatch waits until it is 0 again */
  atomic_int running;            /* dispatches inside the device right now */
  uint64_t fault_address;        /* MEMFAULT: reported through hsa_double_memory_fault */
  uint32_t fault_reason;
} device_state;
/* The simulated device: writes out[0] = n + 100 through the view, then returns d->outcome. */
hsa_double_outcome device(void *ctx, hsa_agent_t agent, const hsa_kernel_dispatch_packet_t *p);
/* Writes one packet into `q` and rings its doorbell; returns the packet's index. */
uint64_t submit(hsa_queue_t *q, const void *packet);
hsa_kernel_dispatch_packet_t dispatch_packet(uint64_t ko, void *kernarg, hsa_signal_t done);

typedef struct {
  atomic_int calls;
  hsa_status_t status;
  hsa_queue_t *source;
  unsigned long thread;  /* pthread_self() of the call */
} queue_error;
void on_queue_error(hsa_status_t status, hsa_queue_t *source, void *data);
/* pthread_self() of the thread hsa_amd_signal_async_handler handlers run on. */
unsigned long async_thread(void);

/* Kernel arguments (int *out, int n) in the kernarg pool, out in VRAM. */
typedef struct {
  void *kernarg, *out;
} args;
args make_args(int n);
void free_args(args a);

/* ---- processes and output ------------------------------------------------------------- */
/* Runs hsa_init with stderr captured into `err` (up to size - 1 bytes). */
hsa_status_t init_capturing_stderr(char *err, size_t size);
/* Calls fn() with stderr captured into `err` (up to size - 1 bytes). */
void capture_stderr(void (*fn)(void *), void *arg, char *err, size_t size);
/* Runs this program again as `<self> <dir> --child <name>` (the child runs
 * child_main(name)); its stderr goes into `err`. Returns the raw wait status. */
int run_child(const char *name, char *err, size_t size);
int child_main(const char *name); /* double_selftest.c: dispatches to the parts' children */

/* ---- the parts (one file each) ----------------------------------------------------------- */
void test_agents(void);                                        /* agents_memory.c */
void test_memory(void);
void test_loader(hsa_executable_t *kept, hsa_code_object_reader_t *kept_reader, void *co90a,
                 size_t size90a);                              /* loader.c */
void test_dispatch(void);                                      /* queues.c */
void test_queue_errors(void);
void test_async_handler(void);                                 /* async.c */
void test_intercept(void);                                     /* intercept.c */
void phase_tool_from_env(const char *rel, void **keep);        /* tools.c */
void phase_tool_refuses(const char *rel, const char *var, const char *value);
void phase_tool_in_process(void);
void phase_tool_releases(void);                                /* tools_release.c */
void phase_tables(void);                                       /* tables.c */
void phase_faults(void);                                       /* faults.c */
void phase_threads(void);                                      /* async.c */
void phase_cooperative(void);                                  /* cooperative.c */
void phase_intercept_releases(void);                           /* intercept_full.c */
void phase_packets(void);                                      /* packets.c */
int intercept_child(const char *name);
int faults_child(const char *name);  /* -1: not one of its children */

#endif /* HSAD_SELFTEST_H */
