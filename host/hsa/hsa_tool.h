/* ldsan HSA tools library: what its C files share. The HSA API table
 * (hsa_api_trace.h) is C++; hsa_table.cpp alone reads and patches it, copying
 * the runtime's functions ldsan calls into an ldsan_hsa_api and installing the
 * ldsan_hsa_* wrappers below. Everything else is C over the real hsa.h.
 * Threading: HSA calls come from any application thread, queue error
 * callbacks and signal handlers from the runtime's own threads. */
#ifndef LDSAN_HSA_TOOL_H
#define LDSAN_HSA_TOOL_H

#include <hsa/hsa.h>
#include <hsa/hsa_ext_amd.h>
#include <stddef.h>
#include <stdint.h>

#include "ldsan/host.h"

/* hsa_api_trace.h's intercept types, restated in C (hsa_table.cpp checks they match). */
typedef void (*ldsan_hsa_packet_writer)(const void *packets, uint64_t count);
typedef void (*ldsan_hsa_intercept_handler)(const void *packets, uint64_t count, uint64_t user_index,
                                            void *data, ldsan_hsa_packet_writer writer);
typedef void (*ldsan_hsa_queue_error_cb)(hsa_status_t status, hsa_queue_t *source, void *data);

/* The runtime's own functions, as the table held them before ldsan's wrappers. */
typedef struct ldsan_hsa_api {
  hsa_status_t (*iterate_agents)(hsa_status_t (*cb)(hsa_agent_t, void *), void *data);
  hsa_status_t (*agent_get_info)(hsa_agent_t agent, hsa_agent_info_t attribute, void *value);
  hsa_status_t (*agent_iterate_isas)(hsa_agent_t agent, hsa_status_t (*cb)(hsa_isa_t, void *), void *data);
  hsa_status_t (*isa_get_info_alt)(hsa_isa_t isa, hsa_isa_info_t attribute, void *value);
  hsa_status_t (*queue_create)(hsa_agent_t agent, uint32_t size, hsa_queue_type32_t type,
                               ldsan_hsa_queue_error_cb callback, void *data, uint32_t private_segment_size,
                               uint32_t group_segment_size, hsa_queue_t **queue);
  hsa_status_t (*memory_copy)(void *dst, const void *src, size_t size);
  hsa_status_t (*system_get_major_extension_table)(uint16_t extension, uint16_t version_major, size_t table_length,
                                                   void *table);
  hsa_status_t (*signal_create)(hsa_signal_value_t initial_value, uint32_t num_consumers,
                                const hsa_agent_t *consumers, hsa_signal_t *signal);
  hsa_status_t (*signal_destroy)(hsa_signal_t signal);
  hsa_signal_value_t (*signal_load_relaxed)(hsa_signal_t signal);
  void (*signal_store_relaxed)(hsa_signal_t signal, hsa_signal_value_t value);
  void (*signal_store_screlease)(hsa_signal_t signal, hsa_signal_value_t value);
  void (*signal_subtract_screlease)(hsa_signal_t signal, hsa_signal_value_t value);
  hsa_status_t (*executable_freeze)(hsa_executable_t executable, const char *options);
  hsa_status_t (*executable_destroy)(hsa_executable_t executable);
  hsa_status_t (*executable_iterate_agent_symbols)(hsa_executable_t executable, hsa_agent_t agent,
                                                   hsa_status_t (*cb)(hsa_executable_t, hsa_agent_t,
                                                                      hsa_executable_symbol_t, void *),
                                                   void *data);
  hsa_status_t (*executable_symbol_get_info)(hsa_executable_symbol_t symbol,
                                             hsa_executable_symbol_info_t attribute, void *value);
  /* AMD extension table */
  hsa_status_t (*amd_signal_async_handler)(hsa_signal_t signal, hsa_signal_condition_t cond,
                                           hsa_signal_value_t value, hsa_amd_signal_handler handler, void *arg);
  hsa_status_t (*amd_agent_iterate_memory_pools)(hsa_agent_t agent,
                                                 hsa_status_t (*cb)(hsa_amd_memory_pool_t, void *), void *data);
  hsa_status_t (*amd_memory_pool_get_info)(hsa_amd_memory_pool_t pool, hsa_amd_memory_pool_info_t attribute,
                                           void *value);
  hsa_status_t (*amd_memory_pool_allocate)(hsa_amd_memory_pool_t pool, size_t size, uint32_t flags, void **ptr);
  hsa_status_t (*amd_memory_pool_free)(void *ptr);
  hsa_status_t (*amd_memory_fill)(void *ptr, uint32_t value, size_t count);
  hsa_status_t (*amd_agents_allow_access)(uint32_t num_agents, const hsa_agent_t *agents, const uint32_t *flags,
                                          const void *ptr);
  hsa_status_t (*amd_register_system_event_handler)(hsa_amd_system_event_callback_t callback, void *data);
  hsa_status_t (*amd_queue_intercept_create)(hsa_agent_t agent, uint32_t size, hsa_queue_type32_t type,
                                             ldsan_hsa_queue_error_cb callback, void *data,
                                             uint32_t private_segment_size, uint32_t group_segment_size,
                                             hsa_queue_t **queue);
  hsa_status_t (*amd_queue_intercept_register)(hsa_queue_t *queue, ldsan_hsa_intercept_handler handler,
                                               void *data);
} ldsan_hsa_api;

/* ---- hsa_api.c -------------------------------------------------------------- */
/* The runtime's functions (valid after ldsan_hsa_tool_start). */
extern ldsan_hsa_api ldsan_hsa;

/* ---- hsa_tool.c: start, stop, the environment -------------------------------- */
/* Called by OnLoad with the runtime's functions: finds the agents, prepares the
 * shadow. Returns 0, or -1 after printing why ldsan cannot run. */
int ldsan_hsa_tool_start(const ldsan_hsa_api *runtime);
/* OnUnload: drains every channel and forgets every code object. */
void ldsan_hsa_tool_stop(void);
/* The environment variables ldsan set for ROCr back to the user's (OnLoad:
 * ROCr has read them), or ldsan's again (OnUnload: for a later hsa_init). */
void ldsan_hsa_env_restore(void);
void ldsan_hsa_env_reapply(void);

/* ---- hsa_watch.c: the code objects ldsan watches ------------------------------ */
/* Wrappers installed in the table. */
hsa_status_t ldsan_hsa_executable_freeze(hsa_executable_t executable, const char *options);
hsa_status_t ldsan_hsa_executable_destroy(hsa_executable_t executable);

/* What ldsan knows about one kernel it watches. */
typedef struct ldsan_hsa_kernel {
  uint64_t kernel_object;        /* the kernel descriptor's device address */
  uint32_t kernarg_size;         /* bytes of its kernel-argument segment, hidden arguments included */
  char *name;                    /* symbol name without ".kd" */
  struct ldsan_image *image;     /* the code object's registration */
} ldsan_hsa_kernel;
/* The watched kernel with this kernel_object, copied into *out; 0 if found. */
int ldsan_hsa_find_kernel(uint64_t kernel_object, ldsan_hsa_kernel *out, char *name_buf, size_t name_len);
/* OnUnload: unregisters (drains) and forgets every watched code object. */
void ldsan_hsa_watch_release(void);

/* ---- hsa_backend.c: one ldsan_backend per GPU agent ------------------------- */
typedef struct ldsan_hsa_agent {
  hsa_agent_t agent;
  int index;                     /* among GPU agents, for reports */
  char name[96];                 /* target, e.g. "gfx90a:sramecc+:xnack+" (from its ISA) */
  hsa_amd_memory_pool_t vram;    /* its coarse-grained global pool (the LDS backing store) */
  int have_vram;
  ldsan_backend backend;
} ldsan_hsa_agent;
/* Finds the GPU agents and the fine-grained system pool; returns how many GPU agents. */
int ldsan_hsa_agents_init(void);
/* The agent record of `agent`, or NULL if it is not a GPU agent ldsan knows. */
ldsan_hsa_agent *ldsan_hsa_agent_of(hsa_agent_t agent);
/* Frees the bounce buffer and forgets the agents (OnUnload). */
void ldsan_hsa_agents_release(void);

/* ---- hsa_symbolize.c: device pcs to source lines ----------------------------- */
/* Remembers the code objects of `exec` loaded on agent `a` (load range, and the
 * ELF image written to a file llvm-symbolizer can read) and writes into name
 * (len bytes) what to call the code object in messages (its loader URI). */
void ldsan_hsa_symbols_add(hsa_executable_t exec, ldsan_hsa_agent *a, char *name, size_t len);
/* Forgets the code objects of `exec` (all when exec is NULL) and removes their files. */
void ldsan_hsa_symbols_remove(const hsa_executable_t *exec);
/* The backend symbolizer of a GPU agent (ctx: its ldsan_hsa_agent). */
int ldsan_hsa_symbolize(void *ctx, uint64_t pc, ldsan_frame *frames, int max_frames);

/* Removes the code object images ldsan wrote (the list stays): when the process
 * is about to end without exit handlers. Skips them when the list is busy. */
void ldsan_hsa_symbols_unlink_all(void);

/* ---- hsa_abort.c: draining before an abort ---------------------------------- */
/* Installs (stops) the SIGABRT handler that drains every channel and removes the
 * code object images before the process aborts. */
void ldsan_hsa_abort_watch_start(void);
void ldsan_hsa_abort_watch_stop(void);

/* ---- hsa_worker.c: ldsan's work off the runtime's threads --------------------- */
/* A job: embedded in the record it works on, run once on ldsan's worker thread. */
typedef struct ldsan_hsa_job {
  struct ldsan_hsa_job *next;
  void (*run)(struct ldsan_hsa_job *job);
} ldsan_hsa_job;
/* Queues job to run after every job posted before it (on the calling thread if
 * no worker thread can be started). */
void ldsan_hsa_worker_post(ldsan_hsa_job *job);
/* Returns once every posted job has run. */
void ldsan_hsa_worker_flush(void);
/* Runs what is left, then ends the worker thread (OnUnload; a later job starts
 * a new one). */
void ldsan_hsa_worker_stop(void);

/* ---- hsa_queue.c: dispatches and queue errors ------------------------------- */
hsa_status_t ldsan_hsa_queue_create(hsa_agent_t agent, uint32_t size, hsa_queue_type32_t type,
                                    ldsan_hsa_queue_error_cb callback, void *data, uint32_t private_segment_size,
                                    uint32_t group_segment_size, hsa_queue_t **queue);
/* Frees the queue records and completion signals, once the worker has finished
 * every dispatch and stopped (OnUnload: the runtime calls no queue callback
 * after it). */
void ldsan_hsa_queues_release(void);

#endif /* LDSAN_HSA_TOOL_H */
