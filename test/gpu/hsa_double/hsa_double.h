/* hsa_double.h — test control of libhsa-double.so, a test double of the ROCm
 * HSA runtime (ROCr) that runs without a GPU. Plain C; include after, or
 * instead of, <hsa/hsa.h>.
 *
 * What the double is: the HSA API subset an HSA tools library and a HIP-like
 * runtime use (agents, memory pools, code-object loader, AQL queues, signals,
 * tool loading via HSA_TOOLS_LIB / HSA_AMD_TOOL_PRIORITY), built from ROCm's
 * headers and following ROCr's documented behaviour. No code runs on a device:
 * every kernel dispatch calls the test's "simulated device" (below), which
 * reads and writes device memory through hsa_double_device_view().
 *
 * Environment read at the first hsa_init():
 *   HSA_DOUBLE_AGENTS       GPU agents, comma separated target ids
 *                           (default "gfx90a:xnack+"); a target id without
 *                           xnack takes it from HSA_XNACK (1: xnack+) as ROCr does
 *   HSA_DOUBLE_VRAM_MB      size of each GPU's VRAM pool (default 65536)
 *   HSA_DOUBLE_TABLE_MAJOR  overrides the API table's version.major_id tools see
 *   HSA_DOUBLE_CORE_MINOR   overrides the core table's version.minor_id
 *   HSA_TOOLS_LIB, HSA_TOOLS_REPORT_LOAD_FAILURE   as in ROCr
 *
 * Threading: every function here may be called from any thread, including the
 * simulated device callback (which runs on a queue's packet-processor thread). */
#ifndef HSA_DOUBLE_H
#define HSA_DOUBLE_H

#include <stddef.h>
#include <stdint.h>

#include <hsa/hsa.h>

#ifdef __cplusplus
extern "C" {
#endif

#define HSA_DOUBLE_API __attribute__((visibility("default")))

/* ---- simulated device ------------------------------------------------------ */

/* What a dispatch did. TRAP (the wave executed s_trap) puts the queue in error:
 * its error callback gets HSA_STATUS_ERROR_EXCEPTION, as ROCr reports a debug
 * trap. MEMFAULT (an access to unmapped memory) gets
 * HSA_STATUS_ERROR_MEMORY_APERTURE_VIOLATION. Either way the completion signal
 * is not decremented and the queue processes no further packets. */
typedef enum {
  HSA_DOUBLE_COMPLETE = 0,
  HSA_DOUBLE_TRAP = 1,
  HSA_DOUBLE_MEMFAULT = 2
} hsa_double_outcome;

/* Called on the queue's packet-processor thread for every kernel dispatch, in
 * queue order, after the packet left the ring (the read index is already past
 * it) and before its completion signal is decremented. `packet` is a copy. */
typedef hsa_double_outcome (*hsa_double_device_fn)(void *ctx, hsa_agent_t agent,
                                                   const hsa_kernel_dispatch_packet_t *packet);

/* Installs the simulated device for all GPU agents; fn NULL restores the
 * default (every dispatch COMPLETEs). Survives hsa_shut_down. */
HSA_DOUBLE_API void hsa_double_set_device(hsa_double_device_fn fn, void *ctx);

/* ---- device memory ----------------------------------------------------------- */

/* A read-write host pointer to [addr, addr+n) of memory allocated from any
 * memory pool (VRAM or system) or holding a loaded code object; NULL if the
 * range is not entirely inside one such allocation. VRAM addresses themselves
 * are mapped PROT_NONE: the host cannot dereference them, as on a dGPU without
 * large BAR; this view is the only way in (besides hsa_memory_copy). */
HSA_DOUBLE_API void *hsa_double_device_view(uint64_t addr, size_t n);

/* 1 if hsa_amd_agents_allow_access (or the pool's default) lets `agent` reach
 * [addr, addr+n), 0 if not or not allocated memory. The double never enforces
 * access itself; a simulated device may check with this. */
HSA_DOUBLE_API int hsa_double_access_allowed(hsa_agent_t agent, uint64_t addr, size_t n);

/* ---- loader and tools ------------------------------------------------------------ */

/* Symbol name ("foo.kd") of the kernel descriptor at kernel_object in a loaded
 * executable, NULL if none. Valid until that executable is destroyed. */
HSA_DOUBLE_API const char *hsa_double_kernel_name(uint64_t kernel_object);

/* Agent the kernel descriptor at kernel_object was loaded for ({0} if none). */
HSA_DOUBLE_API hsa_agent_t hsa_double_kernel_agent(uint64_t kernel_object);

/* Number of tool libraries whose OnLoad returned true (0 when not initialized). */
HSA_DOUBLE_API int hsa_double_tool_count(void);

/* ---- intercept queues for C tests -------------------------------------------------- */

/* ROCr exports hsa_amd_queue_intercept_create/_register only through the API
 * table (hsa_api_trace.h, C++). These call the same table entries, so a C test
 * can drive an intercept queue; a tool that replaced the entries sees the call. */
typedef void (*hsa_double_packet_writer)(const void *pkts, uint64_t pkt_count);
typedef void (*hsa_double_intercept_handler)(const void *pkts, uint64_t pkt_count,
                                             uint64_t user_pkt_index, void *data,
                                             hsa_double_packet_writer writer);
HSA_DOUBLE_API hsa_status_t hsa_double_queue_intercept_create(
    hsa_agent_t agent, uint32_t size, hsa_queue_type32_t type,
    void (*callback)(hsa_status_t status, hsa_queue_t *source, void *data), void *data,
    uint32_t private_segment_size, uint32_t group_segment_size, hsa_queue_t **queue);
HSA_DOUBLE_API hsa_status_t hsa_double_queue_intercept_register(hsa_queue_t *queue,
                                                                hsa_double_intercept_handler handler,
                                                                void *data);

#ifdef __cplusplus
}
#endif
#endif /* HSA_DOUBLE_H */
