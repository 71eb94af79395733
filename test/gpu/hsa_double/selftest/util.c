/* hsa_double/selftest/util.c — the self-test's shared helpers (selftest.h):
 * check counters, files, agents and pools, the simulated device, packets,
 * kernel arguments, captured stderr and child processes. */
#define _GNU_SOURCE
#include <fcntl.h>
#include <pthread.h>
#include <stdlib.h>
#include <sys/uio.h>
#include <sys/wait.h>
#include <unistd.h>

#include "selftest.h"

int st_failures, st_checks;
const char *g_dir;
char g_tool_path[4096], g_probe_path[4096];
uint64_t g_kernel_object;

const char *const st_releases[] = {"5.2", "5.3", "5.4", "5.5", "5.6", "5.7", "6.0",
                                   "6.1", "6.2", "6.2.1", "6.3", "7"};
const int st_release_count = (int)(sizeof st_releases / sizeof st_releases[0]);

int release_index(const char *name) {
  for (int i = 0; i < st_release_count; i++)
    if (!strcmp(st_releases[i], name)) return i;
  return -1;
}

int release_at_least(const char *name) {
  const char *now = getenv("HSA_DOUBLE_ROCM");
  return release_index(now && *now ? now : "5.2") >= release_index(name);
}

int wait_flag(atomic_int *flag, int want) {
  for (int i = 0; i < 10000 && atomic_load(flag) < want; i++) usleep(1000);
  return atomic_load(flag);
}

void *read_file(const char *name, size_t *size) {
  char path[4096];
  snprintf(path, sizeof path, "%s/%s", g_dir, name);
  FILE *f = fopen(path, "rb");
  if (!f) {
    fprintf(stderr, "cannot open %s\n", path);
    exit(1);
  }
  fseek(f, 0, SEEK_END);
  *size = (size_t)ftell(f);
  fseek(f, 0, SEEK_SET);
  void *data = malloc(*size);
  if (fread(data, 1, *size, f) != *size) exit(1);
  fclose(f);
  return data;
}

/* ---- agents and pools ----------------------------------------------------------- */

static hsa_status_t collect_agent(hsa_agent_t a, void *data) {
  agent_list *l = data;
  hsa_device_type_t type;
  hsa_agent_get_info(a, HSA_AGENT_INFO_DEVICE, &type);
  if (type == HSA_DEVICE_TYPE_CPU) l->cpu = a;
  else if (l->ngpu < 4) l->gpu[l->ngpu++] = a;
  return HSA_STATUS_SUCCESS;
}

agent_list agents(void) {
  agent_list l;
  memset(&l, 0, sizeof l);
  hsa_iterate_agents(collect_agent, &l);
  return l;
}

static hsa_status_t first_global_pool(hsa_amd_memory_pool_t p, void *data) {
  hsa_amd_segment_t seg;
  hsa_amd_memory_pool_get_info(p, HSA_AMD_MEMORY_POOL_INFO_SEGMENT, &seg);
  if (seg != HSA_AMD_SEGMENT_GLOBAL) return HSA_STATUS_SUCCESS;
  *(hsa_amd_memory_pool_t *)data = p;
  return HSA_STATUS_INFO_BREAK;
}

hsa_amd_memory_pool_t global_pool(hsa_agent_t a) {
  hsa_amd_memory_pool_t p = {0};
  hsa_amd_agent_iterate_memory_pools(a, first_global_pool, &p);
  return p;
}

/* 1 if the host can read `addr` (process_vm_readv on ourselves: no fault risk). */
int host_readable(const void *addr) {
  char byte;
  struct iovec local = {&byte, 1}, remote = {(void *)addr, 1};
  return process_vm_readv(getpid(), &local, 1, &remote, 1, 0) == 1;
}

/* ---- queues and the simulated device ---------------------------------------------------- */

hsa_double_outcome device(void *ctx, hsa_agent_t agent, const hsa_kernel_dispatch_packet_t *p) {
  device_state *d = ctx;
  (void)agent;
  atomic_fetch_add(&d->running, 1);
  while (atomic_load(&d->hold)) usleep(200);
  const char *name = hsa_double_kernel_name(p->kernel_object);
  if (name && strcmp(name, "_Z10static_ldsPii.kd") == 0) atomic_store(&d->name_ok, 1);
  struct {
    uint64_t out;
    int32_t n;
  } *args = hsa_double_device_view((uint64_t)p->kernarg_address, 12);
  if (args) {
    int32_t *out = hsa_double_device_view(args->out, 4);
    if (out) *out = args->n + 100;
  }
  if (d->outcome == HSA_DOUBLE_MEMFAULT) hsa_double_memory_fault(d->fault_address, d->fault_reason);
  atomic_fetch_add(&d->dispatches, 1);
  atomic_fetch_sub(&d->running, 1);
  return d->outcome;
}

uint64_t submit(hsa_queue_t *q, const void *packet) {
  uint64_t index = hsa_queue_add_write_index_screlease(q, 1);
  while (index - hsa_queue_load_read_index_scacquire(q) >= q->size) usleep(100);
  uint8_t *slot = (uint8_t *)q->base_address + (index % q->size) * 64;
  memcpy(slot + 2, (const uint8_t *)packet + 2, 62);
  __atomic_store_n((uint16_t *)slot, *(const uint16_t *)packet, __ATOMIC_RELEASE);
  hsa_signal_store_screlease(q->doorbell_signal, (hsa_signal_value_t)index);
  return index;
}

hsa_kernel_dispatch_packet_t dispatch_packet(uint64_t ko, void *kernarg, hsa_signal_t done) {
  hsa_kernel_dispatch_packet_t p;
  memset(&p, 0, sizeof p);
  p.header = (HSA_PACKET_TYPE_KERNEL_DISPATCH << HSA_PACKET_HEADER_TYPE) | (1 << HSA_PACKET_HEADER_BARRIER) |
             (HSA_FENCE_SCOPE_SYSTEM << HSA_PACKET_HEADER_SCACQUIRE_FENCE_SCOPE) |
             (HSA_FENCE_SCOPE_SYSTEM << HSA_PACKET_HEADER_SCRELEASE_FENCE_SCOPE);
  p.setup = 1 << HSA_KERNEL_DISPATCH_PACKET_SETUP_DIMENSIONS;
  p.workgroup_size_x = 64;
  p.workgroup_size_y = p.workgroup_size_z = 1;
  p.grid_size_x = 64;
  p.grid_size_y = p.grid_size_z = 1;
  p.kernel_object = ko;
  p.kernarg_address = kernarg;
  p.completion_signal = done;
  return p;
}

void on_queue_error(hsa_status_t status, hsa_queue_t *source, void *data) {
  queue_error *e = data;
  e->status = status;
  e->source = source;
  e->thread = (unsigned long)pthread_self();
  atomic_fetch_add(&e->calls, 1);
}

args make_args(int n) {
  agent_list l = agents();
  args a;
  CHECK_OK(hsa_amd_memory_pool_allocate(global_pool(l.cpu), 272, 0, &a.kernarg));
  CHECK_OK(hsa_amd_memory_pool_allocate(global_pool(l.gpu[0]), 4, 0, &a.out));
  CHECK_OK(hsa_amd_agents_allow_access(1, &l.gpu[0], NULL, a.kernarg));
  memcpy(a.kernarg, &a.out, 8);
  memcpy((char *)a.kernarg + 8, &n, 4);
  return a;
}

void free_args(args a) {
  CHECK_OK(hsa_amd_memory_pool_free(a.kernarg));
  CHECK_OK(hsa_amd_memory_pool_free(a.out));
}

typedef struct {
  atomic_int calls;
  unsigned long thread;
} thread_probe;

static bool note_thread(hsa_signal_value_t value, void *arg) {
  (void)value;
  thread_probe *t = arg;
  t->thread = (unsigned long)pthread_self();
  atomic_fetch_add(&t->calls, 1);
  return false;
}

unsigned long async_thread(void) {
  thread_probe t;
  memset(&t, 0, sizeof t);
  hsa_signal_t s;
  if (hsa_signal_create(1, 0, NULL, &s) != HSA_STATUS_SUCCESS) return 0;
  CHECK_OK(hsa_amd_signal_async_handler(s, HSA_SIGNAL_CONDITION_EQ, 0, note_thread, &t));
  hsa_signal_store_screlease(s, 0);
  CHECK_EQ(wait_flag(&t.calls, 1), 1);
  hsa_signal_destroy(s);
  return t.thread;
}

/* ---- processes and output ------------------------------------------------------------- */

void capture_stderr(void (*fn)(void *), void *arg, char *err, size_t size) {
  FILE *tmp = tmpfile();
  int saved = dup(2);
  fflush(stderr);
  dup2(fileno(tmp), 2);
  fn(arg);
  fflush(stderr);
  dup2(saved, 2);
  close(saved);
  rewind(tmp);
  size_t n = fread(err, 1, size - 1, tmp);
  err[n] = 0;
  fclose(tmp);
}

static void do_init(void *status) { *(hsa_status_t *)status = hsa_init(); }

hsa_status_t init_capturing_stderr(char *err, size_t size) {
  hsa_status_t s = HSA_STATUS_ERROR;
  capture_stderr(do_init, &s, err, size);
  return s;
}

int run_child(const char *name, char *err, size_t size) {
  char self[4096];
  ssize_t n = readlink("/proc/self/exe", self, sizeof self - 1);
  if (n <= 0) return -1;
  self[n] = 0;
  int pipefd[2];
  if (pipe(pipefd) != 0) return -1;
  fflush(stderr);
  pid_t pid = fork();
  if (pid == 0) {
    dup2(pipefd[1], 2);
    close(pipefd[0]);
    close(pipefd[1]);
    execl(self, self, g_dir, "--child", name, (char *)NULL);
    _exit(127);
  }
  close(pipefd[1]);
  size_t got = 0;
  ssize_t r;
  char sink[4096];
  while ((r = read(pipefd[0], got < size - 1 ? err + got : sink,
                   got < size - 1 ? size - 1 - got : sizeof sink)) > 0)
    if (got < size - 1) got += (size_t)r;
  err[got] = 0;
  close(pipefd[0]);
  int status = 0;
  waitpid(pid, &status, 0);
  return status;
}
