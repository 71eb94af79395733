/* hsa_double/selftest/tools_release.c — what differs between ROCm releases
 * in tool loading (ROCr core/runtime/runtime.cpp Runtime::LoadTools), with
 * libhsad_probe_tool.so: a library without OnLoad (kept in 5.2, a failed tool
 * from 5.3), OnLoad called again at every hsa_init after a full shutdown, and
 * the 6.1+ rocprofiler-register step that skips legacy tools unless
 * HSA_TOOLS_ROCPROFILER_V1_TOOLS is true. */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <stdlib.h>

#include "dummy_tool.h"
#include "probe_tool.h"
#include "selftest.h"

static hsad_probe_state *probe(void) {
  void *h = dlopen(g_probe_path, RTLD_LAZY | RTLD_NOLOAD);
  hsad_probe_state *st = h ? dlsym(h, "hsad_probe") : NULL;
  if (h) dlclose(h); /* the caller holds its own reference */
  return st;
}

/* A library without OnLoad ahead of the probe in HSA_TOOLS_LIB. */
static void no_onload(const char *rel) {
  char tools[8192];
  snprintf(tools, sizeof tools, "libm.so.6 %s", g_probe_path);
  setenv("HSA_DOUBLE_ROCM", rel, 1);
  setenv("HSA_TOOLS_LIB", tools, 1);
  CHECK_OK(hsa_init());
  hsad_probe_state *st = probe();
  if (st && release_at_least("5.3")) { /* (the dummy tool, found by its priority, may be a tool too) */
    CHECK_EQ(st->failed_count, 1);
    CHECK_STR(st->failed[0], "libm.so.6");
  } else if (st) {
    CHECK_EQ(hsa_double_tool_count(), 2); /* 5.2 keeps a library without OnLoad */
    CHECK_EQ(st->failed_count, 0);
  }
  CHECK_OK(hsa_shut_down());
}

/* Each hsa_init after the last hsa_shut_down loads the tools and calls OnLoad
 * again (the test's handle keeps the same instance). */
static void onload_again(const char *rel) {
  setenv("HSA_DOUBLE_ROCM", rel, 1);
  setenv("HSA_TOOLS_LIB", g_probe_path, 1);
  hsad_probe_state *st = probe();
  if (!st) return;
  int loads = st->onload_calls, unloads = st->onunload_calls;
  for (int i = 1; i <= 2; i++) {
    CHECK_OK(hsa_init());
    CHECK_OK(hsa_init()); /* not the first: nothing is loaded */
    CHECK_EQ(st->onload_calls, loads + i);
    CHECK_OK(hsa_shut_down());
    CHECK_EQ(st->onunload_calls, unloads + i - 1); /* not the last */
    CHECK_OK(hsa_shut_down());
    CHECK_EQ(st->onunload_calls, unloads + i);
  }
}

/* One hsa_init at `rel` with rocprofiler-sdk's stand-in present (sdk) and
 * HSA_TOOLS_ROCPROFILER_V1_TOOLS = v1 (NULL: unset); whether the legacy tools
 * (the probe from HSA_TOOLS_LIB, the dummy tool by its priority) got OnLoad. */
static void registered(const char *rel, int sdk, const char *v1, const char *disable, int want_legacy) {
  setenv("HSA_DOUBLE_ROCM", rel, 1);
  setenv("HSA_TOOLS_LIB", g_probe_path, 1);
  if (sdk) setenv("HSA_DOUBLE_ROCPROFILER_SDK_TOOL", "1", 1);
  else unsetenv("HSA_DOUBLE_ROCPROFILER_SDK_TOOL");
  if (v1) setenv("HSA_TOOLS_ROCPROFILER_V1_TOOLS", v1, 1);
  else unsetenv("HSA_TOOLS_ROCPROFILER_V1_TOOLS");
  if (disable) setenv("HSA_TOOLS_DISABLE_REGISTER", disable, 1);
  else unsetenv("HSA_TOOLS_DISABLE_REGISTER");
  hsad_probe_state *st = probe();
  void *dh = dlopen(g_tool_path, RTLD_LAZY | RTLD_NOLOAD);
  dummy_tool_state *dummy = dh ? dlsym(dh, "dummy_tool") : NULL;
  if (!st || !dummy) {
    CHECK(st && dummy);
    if (dh) dlclose(dh);
    return;
  }
  int loads = st->onload_calls, dummy_loads = dummy->onload_calls;
  CHECK_OK(hsa_init());
  if (want_legacy != (st->onload_calls == loads + 1))
    fprintf(stderr, "  (ROCm %s, sdk tool %d, V1_TOOLS %s, DISABLE_REGISTER %s)\n", rel, sdk, v1 ? v1 : "unset",
            disable ? disable : "unset");
  CHECK_EQ(st->onload_calls, loads + want_legacy);
  CHECK_EQ(dummy->onload_calls, dummy_loads + want_legacy); /* HSA_AMD_TOOL_PRIORITY is skipped too */
  CHECK_OK(hsa_shut_down());
  dlclose(dh);
}

void phase_tool_releases(void) {
  setenv("HSA_DOUBLE_AGENTS", "gfx90a:xnack+", 1);
  void *keep = dlopen(g_probe_path, RTLD_LAZY); /* one probe instance across the cycles */
  no_onload("5.2");
  no_onload("5.3");
  no_onload("7");
  onload_again("5.2");
  onload_again("6.2.1");
  /* rocprofiler-register (6.1+): a rocprofiler-sdk tool that accepted the table
   * keeps legacy tools out unless V1_TOOLS is true; ROCr parses it: set and
   * empty is true, digits by value, off/false/no/n/f in any case false. */
  registered("6.1", 0, NULL, NULL, 1);
  registered("6.1", 1, NULL, NULL, 0);
  registered("6.1", 1, "", NULL, 1);
  registered("6.1", 1, "1", NULL, 1);
  registered("6.1", 1, "0", NULL, 0);
  registered("6.1", 1, "00", NULL, 0);
  registered("6.1", 1, "2", NULL, 1);
  registered("6.1", 1, "OFF", NULL, 0);
  registered("6.1", 1, "False", NULL, 0);
  registered("6.1", 1, "no", NULL, 0);
  registered("6.1", 1, "N", NULL, 0);
  registered("6.1", 1, "f", NULL, 0);
  registered("6.1", 1, "yes", NULL, 1);
  registered("6.1", 1, "offf", NULL, 1);
  registered("6.1", 1, "-1", NULL, 1);
  registered("6.1", 1, NULL, "1", 1); /* HSA_TOOLS_DISABLE_REGISTER=1: no register step */
  registered("6.1", 1, NULL, "yes", 0); /* only "1" disables it */
  registered("7", 1, NULL, NULL, 0);
  registered("6.0", 1, NULL, NULL, 1); /* before 6.1: no register step */
  registered("5.3", 1, NULL, NULL, 1);
  unsetenv("HSA_DOUBLE_ROCPROFILER_SDK_TOOL");
  unsetenv("HSA_TOOLS_ROCPROFILER_V1_TOOLS");
  unsetenv("HSA_TOOLS_DISABLE_REGISTER");
  unsetenv("HSA_TOOLS_LIB");
  unsetenv("HSA_DOUBLE_ROCM");
  if (keep) dlclose(keep);
}
