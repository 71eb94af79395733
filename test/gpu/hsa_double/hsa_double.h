/* hsa_double.h — test control of libhsa-double.so, a test double of the ROCm
 * HSA runtime (ROCr) that runs without a GPU. Plain C; include after, or
 * instead of, <hsa/hsa.h>.
 *
 * What the double is: the HSA API subset an HSA tools library and a HIP-like
 * runtime use (agents, memory pools, code-object loader, AQL queues, signals,
 * tool loading via HSA_TOOLS_LIB / HSA_AMD_TOOL_PRIORITY), built from ROCm's
 * 5.2 headers and following ROCr's source, as a chosen ROCm release has it
 * (HSA_DOUBLE_ROCM; what differs is in rocm_versions.cpp). No code runs on a
 * device: every kernel dispatch calls the test's "simulated device" (below),
 * which reads and writes device memory through hsa_double_device_view().
 *
 * Environment read at the first hsa_init() (again after the last hsa_shut_down):
 *   HSA_DOUBLE_ROCM         the ROCm release to behave as: 5.2 (default, Debian's),
 *                           5.3, 5.4, 5.5, 5.6, 5.7, 6.0, 6.1, 6.2 (6.2.0),
 *                           6.2.1 (6.2.1-6.2.4), 6.3, 7 (ROCr develop of 2025-08,
 *                           the newest source studied); anything else makes
 *                           hsa_init fail and say which values are known
 *   HSA_DOUBLE_AGENTS       GPU agents, comma separated target ids
 *                           (default "gfx90a:xnack+"); a target id without
 *                           xnack takes it from HSA_XNACK (1: xnack+) as ROCr does
 *   HSA_DOUBLE_VRAM_MB      size of each GPU's VRAM pool (default 65536)
 *   HSA_DOUBLE_TABLE_MAJOR  overrides the API table's version.major_id tools see
 *   HSA_DOUBLE_CORE_MINOR   overrides the core table's version.minor_id
 *   HSA_DOUBLE_ROCPROFILER_SDK_TOOL=1  (6.1+) stands for "a rocprofiler-sdk tool
 *                           is present and accepted the API table": legacy tools
 *                           are then not loaded, as in ROCr
 *   as in ROCr: HSA_TOOLS_LIB, HSA_TOOLS_REPORT_LOAD_FAILURE,
 *   HSA_TOOLS_DISABLE_REGISTER, HSA_TOOLS_ROCPROFILER_V1_TOOLS,
 *   HSA_ENABLE_INTERRUPT, HSA_ENABLE_QUEUE_FAULT_MESSAGE, HSA_ENABLE_VM_FAULT_MESSAGE
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

/* What a dispatch did. Either error stops the queue: the completion signal is
 * not decremented and the queue processes no further packets.
 * TRAP (the wave executed s_trap 2, llvm.trap): the queue's error callback gets
 * HSA_STATUS_ERROR_EXCEPTION on the runtime's async-events thread, as ROCr
 * reports it; a queue created without a callback (and a cooperative queue)
 * gets ROCr's default handler, which prints "Queue at %p inactivated due to
 * async error:" and aborts.
 * MEMFAULT (a GPU page fault): never reaches the queue's callback. The system
 * event handlers (hsa_amd_register_system_event_handler) get
 * HSA_AMD_GPU_MEMORY_FAULT_EVENT; unless one returns HSA_STATUS_SUCCESS the
 * process prints ROCr's "Memory access fault by GPU node-..." and aborts. */
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

/* Called on a hardware queue's packet-processor thread for every packet it
 * takes off its ring, in order, before running it: `queue` is that hardware
 * queue (for an intercept queue, the hidden one it feeds), `packet` a copy of
 * the 64 bytes. It shows what really reaches the hardware, packets the runtime
 * writes itself included. fn NULL removes it. Survives hsa_shut_down. */
typedef void (*hsa_double_packet_fn)(void *ctx, hsa_agent_t agent, const hsa_queue_t *queue, uint64_t index,
                                     const void *packet);
HSA_DOUBLE_API void hsa_double_set_packet_observer(hsa_double_packet_fn fn, void *ctx);

/* Called by the simulated device before it returns HSA_DOUBLE_MEMFAULT: the
 * faulting address and the hsa_amd_memory_fault_reason_t bits the fault event
 * carries (default: address 0, HSA_AMD_MEMORY_FAULT_PAGE_NOT_PRESENT). */
HSA_DOUBLE_API void hsa_double_memory_fault(uint64_t address, uint32_t reason_mask);

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

/* Number of tool libraries the runtime keeps loaded: OnLoad returned true
 * (5.2: or there was none). 0 when not initialized. */
HSA_DOUBLE_API int hsa_double_tool_count(void);

/* ---- tools-only entries for C tests -------------------------------------------------- */

/* ROCr offers hsa_amd_queue_intercept_create/_register and
 * hsa_amd_runtime_queue_create_register only through the API table
 * (hsa_api_trace.h, C++). These call the same table entries, so a C test can
 * use them; a tool that replaced the entries sees the call. */
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
/* hsa_amd_runtime_queue_create_register, also a tools-only table entry. */
HSA_DOUBLE_API hsa_status_t hsa_double_runtime_queue_create_register(
    void (*callback)(const hsa_queue_t *queue, hsa_agent_t agent, void *data), void *data);

#ifdef __cplusplus
}
#endif
#endif /* HSA_DOUBLE_H */
