/* hsa_double/selftest/probe_tool.h — what libhsad_probe_tool.so, a tools
 * library for the double's self-test, records. Unlike libdummy_tool.so it
 * accepts any table (it reads nothing at a header's offsets): the test reads
 * the table it was given, byte by byte, as each ROCm release lays it out.
 * The test finds the state with dlopen(path, RTLD_NOLOAD) + dlsym("hsad_probe"). */
#ifndef HSAD_PROBE_TOOL_H
#define HSAD_PROBE_TOOL_H

#include <stdint.h>

typedef struct hsad_probe_state {
  int onload_calls, onunload_calls, refused; /* refused: OnLoad returned false (HSAD_PROBE_REFUSE set) */
  uint64_t runtime_version, failed_count;    /* OnLoad's 2nd and 3rd arguments */
  char failed[4][256];                       /* the first failed tool names it was given */
  void *root;                                /* the HsaApiTable* it was given */
} hsad_probe_state;

#endif /* HSAD_PROBE_TOOL_H */
