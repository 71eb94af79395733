/* ldsan HSA tools library: the HSA runtime's functions, as ROCr handed them to
 * the tool at OnLoad (ldsan_hsa_tool_start copies the table here). Every file
 * of host/hsa/ calls the runtime through it; it sits below them all. */
#include "hsa_tool.h"

ldsan_hsa_api ldsan_hsa;
