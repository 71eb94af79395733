/* ldsan HSA tools library: start and stop (the pieces in their order: the
 * agents, the abort watch, the code objects watched (hsa_watch.c), the queues),
 * and the environment ROCr reads when it loads its tools. */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hsa_tool.h"

int ldsan_hsa_tool_start(const ldsan_hsa_api *runtime) {
  ldsan_hsa = *runtime;
  ldsan_host_init();
  /* Without host ASan, ASan's shadow is ldsan's to provide (device code writes
   * it through the process page tables): mapped when the first full-ASan code
   * object registers (backend maps_asan_shadow), never for LDS-only ones. */
  ldsan_hsa_agents_init();
  ldsan_hsa_abort_watch_start();
  return 0;
}

void ldsan_hsa_tool_stop(void) {
  ldsan_hsa_abort_watch_stop();
  ldsan_hsa_watch_release();
  /* ROCr unloads its tools (dlclose) after OnUnload: nothing may stay behind. */
  ldsan_hsa_queues_release();
  ldsan_hsa_agents_release();
  ldsan_host_shutdown();
}

/* Linked into a program by ldsan-cc, this library must be a tool before the
 * HIP runtime's hsa_init, and ROCr reads its environment once, at the start of
 * that hsa_init (Runtime::Load: Flag::Refresh, before LoadTools):
 *  - HSA_TOOLS_LIB: ROCr from 5.3 finds HSA_AMD_TOOL_PRIORITY by itself, 5.2
 *    (Debian's) only loads what HSA_TOOLS_LIB names: the constructor adds this
 *    library's path;
 *  - HSA_TOOLS_ROCPROFILER_V1_TOOLS: from 6.1, when a rocprofiler-sdk tool is in
 *    the process (rocprofiler-register accepted the table) ROCr loads no other
 *    tool unless this says so (Runtime::LoadTools): set to 1 when unset;
 *  - HSA_XNACK=1 unless the user chose: the ASan code objects are xnack+.
 * Once ROCr has read them (OnLoad), each goes back to what the user had, so
 * that a child process (built for xnack-, or with no ldsan) sees the user's
 * environment; OnUnload sets them again for a later hsa_init. */
typedef struct env_var { const char *name; char *user; int had; } env_var;
static env_var env_vars[] = {{"HSA_TOOLS_LIB", NULL, 0}, {"HSA_TOOLS_ROCPROFILER_V1_TOOLS", NULL, 0},
                             {"HSA_XNACK", NULL, 0}};
static char *tools_value;  /* HSA_TOOLS_LIB as ldsan sets it */

static void env_set_ours(void) {
  if (tools_value) setenv("HSA_TOOLS_LIB", tools_value, 1);
  setenv("HSA_TOOLS_ROCPROFILER_V1_TOOLS", "1", 0);
  setenv("HSA_XNACK", "1", 0);
}

void ldsan_hsa_env_restore(void) {
  for (size_t i = 0; i < sizeof env_vars / sizeof *env_vars; i++) {
    if (env_vars[i].had) setenv(env_vars[i].name, env_vars[i].user, 1);
    else unsetenv(env_vars[i].name);
  }
}

void ldsan_hsa_env_reapply(void) { env_set_ours(); }

__attribute__((constructor)) static void ldsan_hsa_preload(void) {
  for (size_t i = 0; i < sizeof env_vars / sizeof *env_vars; i++) {
    const char *v = getenv(env_vars[i].name);
    env_vars[i].had = v != NULL;
    env_vars[i].user = v ? strdup(v) : NULL;
    if (v && !env_vars[i].user) env_vars[i].had = 0;  /* out of memory: leave it as ldsan sets it */
  }
  Dl_info self;
  if (dladdr((void *)ldsan_hsa_preload, &self) && self.dli_fname) {
    const char *tools = getenv("HSA_TOOLS_LIB");
    if (!tools || !strstr(tools, self.dli_fname)) {
      size_t n = strlen(self.dli_fname) + (tools ? strlen(tools) + 1 : 0) + 1;
      tools_value = malloc(n);
      if (tools_value) snprintf(tools_value, n, "%s%s%s", self.dli_fname, tools && *tools ? " " : "", tools ? tools : "");
    }
  }
  env_set_ours();
}

/* ROCr dlcloses its tools at the last hsa_shut_down (after OnUnload). */
__attribute__((destructor)) static void ldsan_hsa_unload(void) {
  for (size_t i = 0; i < sizeof env_vars / sizeof *env_vars; i++) {
    free(env_vars[i].user);
    env_vars[i].user = NULL;
  }
  free(tools_value);
  tools_value = NULL;
}
