/* test/gpu/dummy_tool.h — what libdummy_tool.so (an HSA tools library used by
 * the double's self-test) records. The test finds the state with
 * dlopen(path, RTLD_NOLOAD) + dlsym("dummy_tool"). Plain C. */
#ifndef DUMMY_TOOL_H
#define DUMMY_TOOL_H

#include <stdint.h>

#include <hsa/hsa.h>

typedef struct dummy_tool_state {
  int onload_calls, onunload_calls, refused; /* refused: OnLoad returned false */
  uint64_t runtime_version, failed_count;
  char first_failed[256]; /* failed_tool_names[0] as OnLoad saw it */
  /* Table versions OnLoad saw, and what hsa_api_trace.h's container would set. */
  uint32_t root_major, root_minor, core_major, core_minor, amd_major, amd_minor;
  uint32_t expect_root_minor, expect_core_minor, expect_amd_minor;
  /* The tool's hsa_queue_create: an intercept queue with two handlers,
   * id 1 registered first, id 2 second. */
  int queues_created;
  hsa_queue_t *last_queue;
  int calls[16], ncalls; /* handler ids in call order */
  int packets_seen;      /* by handler 2 */
  uint64_t last_user_index;
  uint64_t replacement_signal; /* set by the test: handler 2 puts it in dispatches' completion_signal */
} dummy_tool_state;

#endif /* DUMMY_TOOL_H */
