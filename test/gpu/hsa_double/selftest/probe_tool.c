/* hsa_double/selftest/probe_tool.c — libhsad_probe_tool.so, a tools library
 * for the double's self-test (probe_tool.h). OnLoad records its arguments and
 * the table and accepts, or refuses when HSAD_PROBE_REFUSE is set; OnUnload
 * counts. It has no HSA_AMD_TOOL_PRIORITY: only HSA_TOOLS_LIB loads it. */
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "probe_tool.h"

__attribute__((visibility("default"))) hsad_probe_state hsad_probe;

__attribute__((visibility("default"))) bool OnLoad(void *table, uint64_t runtime_version, uint64_t failed_count,
                                                   const char *const *failed_names) {
  hsad_probe.onload_calls++;
  hsad_probe.runtime_version = runtime_version;
  hsad_probe.failed_count = failed_count;
  memset(hsad_probe.failed, 0, sizeof hsad_probe.failed);
  for (uint64_t i = 0; i < failed_count && i < 4; i++)
    strncpy(hsad_probe.failed[i], failed_names[i], sizeof hsad_probe.failed[i] - 1);
  hsad_probe.root = table;
  if (getenv("HSAD_PROBE_REFUSE")) {
    hsad_probe.refused++;
    return false;
  }
  return true;
}

__attribute__((visibility("default"))) void OnUnload(void) { hsad_probe.onunload_calls++; }
