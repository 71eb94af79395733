/* hsa_double/selftest/tools.c — tools libraries as each ROCm release loads
 * them (ROCr core/runtime/runtime.cpp Runtime::LoadTools): HSA_TOOLS_LIB,
 * OnLoad's arguments, the failed list (5.2: only refused tools; 5.3+: also
 * names that fail dlopen, and libraries without OnLoad), a tool that refuses
 * the table (5.2 still calls its OnUnload if it stays mapped),
 * HSA_AMD_TOOL_PRIORITY discovery (5.3+), the rocprofiler-register step
 * (6.1+), OnUnload, and OnLoad again at the next hsa_init. */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <stdlib.h>

#include "dummy_tool.h"
#include "probe_tool.h"
#include "selftest.h"

static dummy_tool_state *tool_state(void **handle) {
  *handle = dlopen(g_tool_path, RTLD_LAZY | RTLD_NOLOAD);
  return *handle ? dlsym(*handle, "dummy_tool") : NULL;
}

/* A tool from HSA_TOOLS_LIB after a name that fails to load: in the failed
 * list OnLoad gets from 5.3, only reported in 5.2. `keep` (if not NULL) gets a
 * handle that keeps the tool loaded after shutdown. */
void phase_tool_from_env(const char *rel, void **keep) {
  char tools[8192], err[1024];
  snprintf(tools, sizeof tools, "/nonexistent/libnope.so %s", g_tool_path);
  setenv("HSA_DOUBLE_ROCM", rel, 1);
  setenv("HSA_DOUBLE_AGENTS", "gfx90a:xnack+", 1);
  setenv("HSA_TOOLS_LIB", tools, 1);
  unsetenv("HSA_TOOLS_REPORT_LOAD_FAILURE"); /* reported unless it is 0 (ROCr release builds) */
  void *h0;
  dummy_tool_state *before = tool_state(&h0);
  int loads = before ? before->onload_calls : 0, unloads = before ? before->onunload_calls : 0;
  int queues = before ? before->queues_created : 0, seen = before ? before->packets_seen : 0;
  int ncalls = before ? before->ncalls : 0;
  if (h0) dlclose(h0);
  CHECK_OK(init_capturing_stderr(err, sizeof err));
  CHECK(strstr(err, "Tool lib \"/nonexistent/libnope.so\" failed to load.") != NULL);
  CHECK_EQ(hsa_double_tool_count(), 1);
  void *h;
  dummy_tool_state *st = tool_state(&h);
  CHECK(st != NULL);
  if (!st) return;
  if (keep) *keep = h;
  else dlclose(h);
  CHECK_EQ(st->onload_calls, loads + 1);
  CHECK_EQ(st->runtime_version, 1); /* ROCr passes the table's major id */
  if (release_at_least("5.3")) {
    CHECK_EQ(st->failed_count, 1);
    CHECK_STR(st->first_failed, "/nonexistent/libnope.so");
  } else {
    CHECK_EQ(st->failed_count, 0);
  }
  CHECK_EQ(st->root_major, 1);
  CHECK_EQ(st->core_major, 1);
  CHECK_EQ(st->amd_major, 1);
  CHECK_EQ(st->root_minor, st->expect_root_minor);
  CHECK_EQ(st->core_minor, st->expect_core_minor);
  CHECK_EQ(st->amd_minor, st->expect_amd_minor);

  /* The caller's hsa_queue_create is the tool's: an intercept queue. */
  agent_list l = agents();
  hsa_queue_t *q = NULL;
  CHECK_OK(hsa_queue_create(l.gpu[0], 64, HSA_QUEUE_TYPE_MULTI, NULL, NULL, UINT32_MAX, UINT32_MAX, &q));
  CHECK_EQ(st->queues_created, queues + 1);
  CHECK_EQ(st->last_queue, q);
  hsa_signal_t done, replacement;
  CHECK_OK(hsa_signal_create(1, 0, NULL, &done));
  CHECK_OK(hsa_signal_create(1, 0, NULL, &replacement));
  st->replacement_signal = replacement.handle;
  hsa_kernel_dispatch_packet_t p = dispatch_packet(0xdead000, NULL, done); /* no executable: the device never looks */
  CHECK_EQ(submit(q, &p), 0);
  CHECK_EQ(hsa_signal_wait_scacquire(replacement, HSA_SIGNAL_CONDITION_EQ, 0, ST_TIMEOUT, HSA_WAIT_STATE_BLOCKED), 0);
  CHECK_EQ(hsa_signal_load_relaxed(done), 1);
  CHECK_EQ(st->packets_seen, seen + 1);
  CHECK_EQ(st->last_user_index, 0);
  CHECK_EQ(st->ncalls, ncalls + 2);
  CHECK_EQ(st->calls[ncalls], 2);
  CHECK_EQ(st->calls[ncalls + 1], 1);
  CHECK_OK(hsa_queue_destroy(q));
  CHECK_OK(hsa_signal_destroy(done));
  CHECK_OK(hsa_signal_destroy(replacement));
  CHECK_OK(hsa_shut_down());
  CHECK_EQ(st->onunload_calls, unloads + 1);
  CHECK_EQ(hsa_double_tool_count(), 0);
  setenv("HSA_TOOLS_REPORT_LOAD_FAILURE", "0", 1);
  CHECK_OK(init_capturing_stderr(err, sizeof err));
  CHECK(strstr(err, "failed to load") == NULL);
  CHECK_OK(hsa_shut_down());
  unsetenv("HSA_TOOLS_REPORT_LOAD_FAILURE");
}

/* The tool refuses a table it does not know (or is told to); it is dlclose'd
 * (the test's handle keeps it mapped). ROCr 5.2 kept its handle and still
 * calls its OnUnload at shutdown; 5.3+ does not. */
void phase_tool_refuses(const char *rel, const char *var, const char *value) {
  void *h;
  dummy_tool_state *st = tool_state(&h);
  if (!st) return;
  dlclose(h);
  int refused = st->refused, created = st->queues_created, unloads = st->onunload_calls;
  setenv("HSA_DOUBLE_ROCM", rel, 1);
  setenv("HSA_TOOLS_LIB", g_tool_path, 1);
  setenv(var, value, 1);
  CHECK_OK(hsa_init());
  CHECK_EQ(hsa_double_tool_count(), 0);
  CHECK_EQ(st->refused, refused + 1);
  agent_list l = agents();
  hsa_queue_t *q = NULL;
  CHECK_OK(hsa_queue_create(l.gpu[0], 64, HSA_QUEUE_TYPE_MULTI, NULL, NULL, UINT32_MAX, UINT32_MAX, &q));
  CHECK_EQ(st->queues_created, created); /* the double's own hsa_queue_create */
  CHECK_OK(hsa_queue_destroy(q));
  CHECK_OK(hsa_shut_down());
  CHECK_EQ(st->onunload_calls, unloads + (release_at_least("5.3") ? 0 : 1));
  unsetenv(var);
}

/* A tool already in the process is found by HSA_AMD_TOOL_PRIORITY (5.3+; not
 * by 5.2), and once only when HSA_TOOLS_LIB names it too. */
void phase_tool_in_process(void) {
  void *h;
  dummy_tool_state *st = tool_state(&h);
  if (!st) return;
  dlclose(h);
  unsetenv("HSA_TOOLS_LIB");
  setenv("HSA_DOUBLE_ROCM", "5.2", 1);
  int loads = st->onload_calls;
  CHECK_OK(hsa_init());
  CHECK_EQ(hsa_double_tool_count(), 0);
  CHECK_EQ(st->onload_calls, loads);
  CHECK_OK(hsa_shut_down());
  setenv("HSA_DOUBLE_ROCM", "5.3", 1);
  CHECK_OK(hsa_init());
  CHECK_EQ(hsa_double_tool_count(), 1);
  CHECK_EQ(st->onload_calls, loads + 1);
  CHECK_EQ(st->failed_count, 0);
  CHECK_OK(hsa_shut_down());
  setenv("HSA_TOOLS_LIB", g_tool_path, 1);
  CHECK_OK(hsa_init());
  CHECK_EQ(hsa_double_tool_count(), 1);
  CHECK_EQ(st->onload_calls, loads + 2);
  CHECK_OK(hsa_shut_down());
  unsetenv("HSA_TOOLS_LIB");
}
