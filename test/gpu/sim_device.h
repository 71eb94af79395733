/* ldsan GPU-path tests: a simulated GPU for the HSA test double. It plays the
 * part of ldsan's device runtime in a dispatched kernel: it takes a block for
 * the workgroup in the code object's own LDS pool, writes the block header and
 * the shadow as the runtime does, and reports bad accesses into the report
 * channel that __ldsan_device_state names, following the protocol of
 * include/ldsan/abi.h (claim, fill, publish READY with release). Device memory
 * is reached only through hsa_double_device_view(), like a kernel's own loads
 * and stores; the shadow is host memory, as on an xnack+ GPU. */
#ifndef LDSAN_TEST_SIM_DEVICE_H
#define LDSAN_TEST_SIM_DEVICE_H

#include <hsa/hsa.h>
#include <stdint.h>

/* One loaded code object, as the test knows it from its file. */
typedef struct sim_code_object {
  const char *path;
  hsa_agent_t agent;
  hsa_executable_t executable;
  uint64_t load_delta;       /* device address = ELF st_value + load_delta */
  uint64_t state;            /* device address of __ldsan_device_state */
  uint64_t pool;             /* device address of __ldsan_builtin_pool */
} sim_code_object;

/* Reads the code object file, creates an executable on `agent`, loads and
 * freezes it (the tools library sees the freeze). Returns 0 or prints why. */
int sim_load(sim_code_object *co, const char *path, hsa_agent_t agent);
/* Device address of symbol `name` of the code object (from its .symtab), 0 if none. */
uint64_t sim_symbol(const sim_code_object *co, const char *name);

/* sim_plan.workgroup: take it from the dispatch's first kernel argument (uint32). */
#define SIM_FROM_ARG 0xffffffffu

/* What the simulated kernel does in one dispatch. */
typedef struct sim_plan {
  const sim_code_object *co;
  const char *kernel;        /* mangled name, e.g. "_Z10static_ldsPii" */
  const char *variable;      /* LDS variable (source name) the bad accesses overrun */
  uint32_t reports;          /* lanes that report (each its own work-item) */
  uint32_t workgroup;        /* x of the reporting workgroup, or SIM_FROM_ARG */
  uint32_t first_item;       /* x of the first reporting work-item */
  int fault;                 /* trap with no report at all (a non-ldsan trap) */
  int memory_fault;          /* after its reports, the kernel faults on a bad address */
} sim_plan;

/* The plan the next dispatch of `kernel_object` runs (one per kernel object). */
void sim_set_plan(uint64_t kernel_object, const sim_plan *plan);

/* Installs the simulated device into the HSA double. */
void sim_install(void);

#endif /* LDSAN_TEST_SIM_DEVICE_H */
