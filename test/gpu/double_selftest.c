/* test/gpu/double_selftest.c — self-test of libhsa-double (the ROCr test
 * double) as a HIP-like caller and a tool would use it, in the ROCm releases
 * it can behave as (HSA_DOUBLE_ROCM). This file runs the phases; the checks
 * are in test/gpu/hsa_double/selftest/, one file per part: agents and memory,
 * the loader, queues and queue errors, packets and profiling, async handlers
 * and their threads, intercept queues (and a full hardware ring), cooperative
 * queues, memory faults and ROCr's aborts, tools, and the API table of every
 * release. Where a release matters, a check says which ROCr behaviour it
 * expects.
 *
 * Usage: double_selftest <dir>   (<dir> holds static_lds.gfx90a.co,
 * static_lds.gfx942.co, libdummy_tool.so and libhsad_probe_tool.so). Each
 * phase sets its environment and runs its own hsa_init .. hsa_shut_down.
 * Checks that must end the process (an abort) run in a child: the program
 * runs itself as `double_selftest <dir> --child <name>`. Exit 0 when every
 * check passes. */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <stdlib.h>

#include "selftest.h"

static void phase_runtime(void) {
  hsa_agent_t none = {0};
  char name[64];
  CHECK_HSA(hsa_agent_get_info(none, HSA_AGENT_INFO_NAME, name), HSA_STATUS_ERROR_NOT_INITIALIZED);
  setenv("HSA_DOUBLE_AGENTS", "gfx90a:xnack+, gfx942:xnack+", 1);
  CHECK_OK(hsa_init());
  CHECK_OK(hsa_init()); /* reference counted */
  CHECK_OK(hsa_shut_down());
  size_t size90a;
  void *co90a = read_file("static_lds.gfx90a.co", &size90a);
  hsa_executable_t exec;
  hsa_code_object_reader_t reader;
  test_agents();
  test_memory();
  test_loader(&exec, &reader, co90a, size90a);
  test_dispatch();
  test_queue_errors();
  test_async_handler();
  test_intercept();
  CHECK_OK(hsa_executable_destroy(exec));
  CHECK_OK(hsa_code_object_reader_destroy(reader));
  CHECK_EQ(hsa_double_tool_count(), 0);
  CHECK_OK(hsa_shut_down());
  CHECK_HSA(hsa_shut_down(), HSA_STATUS_ERROR_NOT_INITIALIZED);
  free(co90a);
}

int child_main(const char *name) {
  int rc = faults_child(name);
  if (rc == -1) rc = intercept_child(name);
  if (rc != -1) return rc;
  fprintf(stderr, "double_selftest: no child named %s\n", name);
  return 2;
}

int main(int argc, char **argv) {
  if (argc != 2 && !(argc == 4 && !strcmp(argv[2], "--child"))) {
    fprintf(stderr, "usage: %s <dir with static_lds.gfx90a.co, static_lds.gfx942.co, libdummy_tool.so>\n", argv[0]);
    return 2;
  }
  g_dir = argv[1];
  snprintf(g_tool_path, sizeof g_tool_path, "%s/libdummy_tool.so", g_dir);
  snprintf(g_probe_path, sizeof g_probe_path, "%s/libhsad_probe_tool.so", g_dir);
  unsetenv("HSA_TOOLS_LIB");
  if (argc == 4) return child_main(argv[3]);
  phase_runtime();
  void *keep = NULL;
  phase_tool_from_env("5.3", &keep);
  phase_tool_from_env("5.2", NULL);
  phase_tool_refuses("5.3", "HSA_DOUBLE_TABLE_MAJOR", "2");
  phase_tool_refuses("5.3", "HSA_DOUBLE_CORE_MINOR", "16");
  phase_tool_refuses("5.3", "DUMMY_TOOL_REFUSE", "1");
  phase_tool_refuses("5.2", "DUMMY_TOOL_REFUSE", "1");
  phase_tool_refuses("5.2", "HSA_DOUBLE_TABLE_MAJOR", "2");
  phase_tool_in_process();
  phase_tool_releases();
  unsetenv("HSA_DOUBLE_ROCM");
  phase_tables();
  phase_faults();
  phase_threads();
  phase_cooperative();
  phase_intercept_releases();
  phase_packets();
  if (keep) dlclose(keep);
  fprintf(stderr, "double_selftest: %d checks, %d failed\n", st_checks, st_failures);
  return st_failures ? 1 : 0;
}
