/* ldsan GPU-path tests: a HIP-runtime-like program over the HSA test double.
 * It does what CLR does with HSA — hsa_init, load the kernel's code object per
 * agent, create queues with an error callback that aborts, write AQL kernel
 * dispatch packets, ring the doorbell, wait — while the simulated GPU
 * (sim_device.c) plays ldsan's device runtime. ldsan's tools library is loaded
 * by the double as ROCr would (HSA_TOOLS_LIB, or linked in).
 * How CLR launches and waits (the facts, from CLR's source, ROCm 5.2-6.3):
 *  - a kernel dispatch packet has no completion signal unless the dispatch is
 *    profiled (VirtualGPU::dispatchGenericAqlPacket: only with timestamp_ set,
 *    or a blocking dispatch); its header is KERNEL_DISPATCH, barrier bit,
 *    agent-scope acquire and release (0x0B02, VirtualGPU's constructor);
 *  - hipDeviceSynchronize, hipStreamSynchronize and hipEventRecord put a
 *    barrier-AND packet after it, barrier bit and system-scope fences
 *    (kBarrierPacketHeader, 0x1503), with a completion signal of value 1 the
 *    host waits on until it is below 1 (VirtualGPU::dispatchBarrierPacket,
 *    releaseGpuMemoryFence, WaitForSignal);
 *  - from ROCm 5.6 the marker's signal also gets an hsa_amd_signal_async_handler
 *    (HwQueueTracker::ActiveSignal); hipDeviceSynchronize waits on the signal
 *    itself (releaseGpuMemoryFence, IsHwEventReady -> WaitForSignal), while
 *    hipStreamSynchronize(0) from 6.2 waits until that handler has run
 *    (Event::awaitCompletion): CLR_LIKE_SYNC=stream0 does the latter;
 *  - one packet per doorbell, rung with the packet's own index.
 * CLR_LIKE_PROFILED=1 makes every dispatch profiled: the kernel packet gets the
 * completion signal (hipExtLaunchKernel with events, or a profiler attached).
 * Usage: tool_scenarios <scenario> <code object>... ; see gpu_tool.sh. Lines
 * the test checks are printed to stderr, in order with the reports. */
#define _GNU_SOURCE
#include <hsa/hsa.h>
#include <hsa/hsa_ext_amd.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include "hsa_double.h"
#include "sim_device.h"

#define QUEUE_SIZE 64u
#define MAX_GPUS 4

static hsa_agent_t gpus[MAX_GPUS];
static int gpu_count;

static void die_test(const char *what, hsa_status_t st) {
  fprintf(stderr, "test: %s failed: status 0x%x\n", what, st);
  exit(2);
}

static hsa_status_t first_gpu(hsa_agent_t agent, void *data) {
  hsa_device_type_t type;
  hsa_agent_get_info(agent, HSA_AGENT_INFO_DEVICE, &type);
  if (type != HSA_DEVICE_TYPE_GPU) return HSA_STATUS_SUCCESS;
  *(hsa_agent_t *)data = agent;
  return HSA_STATUS_INFO_BREAK;
}

static hsa_status_t add_gpu(hsa_agent_t agent, void *data) {
  (void)data;
  hsa_device_type_t type;
  hsa_agent_get_info(agent, HSA_AGENT_INFO_DEVICE, &type);
  if (type == HSA_DEVICE_TYPE_GPU && gpu_count < MAX_GPUS) gpus[gpu_count++] = agent;
  return HSA_STATUS_SUCCESS;
}

/* What CLR's queue callback does: say so and abort the process. */
static void clr_queue_error(hsa_status_t status, hsa_queue_t *queue, void *data) {
  (void)data;
  const char *s = NULL;
  hsa_status_string(status, &s);
  fprintf(stderr, "CLR-like: Callback: Queue %p aborting with error : %s code: 0x%x\n", (void *)queue,
          s ? s : "?", status);
  abort();
}

/* CLR's Device::acquireQueue: every queue gets profiling enabled, profiler or
 * not; hipLaunchCooperativeKernel's queue is HSA_QUEUE_TYPE_COOPERATIVE
 * (Device::createVirtualDevice), created with the same callback. */
static hsa_queue_t *make_queue_of(hsa_agent_t agent, hsa_queue_type32_t type) {
  hsa_queue_t *q = NULL;
  hsa_status_t st = hsa_queue_create(agent, QUEUE_SIZE, type, clr_queue_error, NULL, UINT32_MAX, UINT32_MAX, &q);
  if (st != HSA_STATUS_SUCCESS) die_test("hsa_queue_create", st);
  hsa_amd_profiling_set_profiler_enabled(q, 1);
  return q;
}

static hsa_queue_t *make_queue(hsa_agent_t agent) { return make_queue_of(agent, HSA_QUEUE_TYPE_MULTI); }

static uint64_t kernel_object(const sim_code_object *co, const char *kernel) {
  char name[300];
  snprintf(name, sizeof name, "%s.kd", kernel);
  hsa_executable_symbol_t sym;
  hsa_agent_t agent = co->agent;
  if (hsa_executable_get_symbol_by_name(co->executable, name, &agent, &sym) != HSA_STATUS_SUCCESS)
    die_test("hsa_executable_get_symbol_by_name", HSA_STATUS_ERROR_INVALID_SYMBOL_NAME);
  uint64_t ko = 0;
  hsa_executable_symbol_get_info(sym, HSA_EXECUTABLE_SYMBOL_INFO_KERNEL_OBJECT, &ko);
  return ko;
}

/* Writes one packet at the next index of q (body first, header last with a
 * release store) and rings the doorbell, as CLR does. */
static void submit(hsa_queue_t *q, const void *packet, uint16_t header, uint16_t rest) {
  uint64_t index = hsa_queue_add_write_index_screlease(q, 1);
  uint32_t *slot = (uint32_t *)((char *)q->base_address + (index % q->size) * 64);
  memcpy(slot + 1, (const uint32_t *)packet + 1, 60);
  __atomic_store_n(slot, header | ((uint32_t)rest << 16), __ATOMIC_RELEASE);
  hsa_signal_store_screlease(q->doorbell_signal, (hsa_signal_value_t)index);
}

static pthread_mutex_t marker_mu = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t marker_cv = PTHREAD_COND_INITIALIZER;
static bool marker_done(hsa_signal_value_t value, void *arg) {
  (void)value;
  pthread_mutex_lock(&marker_mu);
  *(int *)arg = 1;
  pthread_cond_broadcast(&marker_cv);
  pthread_mutex_unlock(&marker_mu);
  return false;
}

/* Dispatches `ko` (grid x workgroups of 256) on q and waits for it, as
 * hipLaunchKernel + hipDeviceSynchronize do: the kernel packet, then a
 * barrier-AND the host waits on (or, CLR_LIKE_SYNC=stream0, whose async
 * handler it waits for).
 * The kernel packet's completion signal is 0 unless CLR_LIKE_PROFILED=1. */
static void dispatch_and_wait(hsa_queue_t *q, uint64_t ko, uint32_t groups, uint32_t arg0) {
  int profiled = getenv("CLR_LIKE_PROFILED") && !strcmp(getenv("CLR_LIKE_PROFILED"), "1");
  hsa_signal_t kernel_done = {0}, marker;
  if (profiled && hsa_signal_create(1, 0, NULL, &kernel_done) != HSA_STATUS_SUCCESS)
    die_test("hsa_signal_create", HSA_STATUS_ERROR);
  if (hsa_signal_create(1, 0, NULL, &marker) != HSA_STATUS_SUCCESS) die_test("hsa_signal_create", HSA_STATUS_ERROR);
  uint32_t *kernarg = calloc(1, 512);
  kernarg[0] = arg0;  /* the simulated kernel's first argument (sim_plan.workgroup = SIM_FROM_ARG) */
  hsa_kernel_dispatch_packet_t p;
  memset(&p, 0, sizeof p);
  p.workgroup_size_x = 256;
  p.workgroup_size_y = p.workgroup_size_z = 1;
  p.grid_size_x = 256 * groups;
  p.grid_size_y = p.grid_size_z = 1;
  p.kernel_object = ko;
  p.kernarg_address = kernarg;
  p.completion_signal = kernel_done;
  submit(q, &p,
         (HSA_PACKET_TYPE_KERNEL_DISPATCH << HSA_PACKET_HEADER_TYPE) | (1 << HSA_PACKET_HEADER_BARRIER) |
             (HSA_FENCE_SCOPE_AGENT << HSA_PACKET_HEADER_SCACQUIRE_FENCE_SCOPE) |
             (HSA_FENCE_SCOPE_AGENT << HSA_PACKET_HEADER_SCRELEASE_FENCE_SCOPE),
         1u << HSA_KERNEL_DISPATCH_PACKET_SETUP_DIMENSIONS);
  hsa_barrier_and_packet_t b;
  memset(&b, 0, sizeof b);
  b.completion_signal = marker;
  /* A CPU-wait marker (hipDeviceSynchronize) gets no handler; a marker that
   * heads a batch does (HwQueueTracker::ActiveSignal). */
  const char *sync = getenv("CLR_LIKE_SYNC");
  int stream0 = sync && !strcmp(sync, "stream0"), handled = 0;
  if (stream0) hsa_amd_signal_async_handler(marker, HSA_SIGNAL_CONDITION_LT, 1, marker_done, &handled);
  submit(q, &b,
         (HSA_PACKET_TYPE_BARRIER_AND << HSA_PACKET_HEADER_TYPE) | (1 << HSA_PACKET_HEADER_BARRIER) |
             (HSA_FENCE_SCOPE_SYSTEM << HSA_PACKET_HEADER_SCACQUIRE_FENCE_SCOPE) |
             (HSA_FENCE_SCOPE_SYSTEM << HSA_PACKET_HEADER_SCRELEASE_FENCE_SCOPE),
         0);
  if (stream0) {
    pthread_mutex_lock(&marker_mu);
    while (!handled) pthread_cond_wait(&marker_cv, &marker_mu);
    pthread_mutex_unlock(&marker_mu);
  } else {
    while (hsa_signal_wait_scacquire(marker, HSA_SIGNAL_CONDITION_LT, 1, UINT64_MAX, HSA_WAIT_STATE_BLOCKED) >= 1) {}
  }
  if (profiled) {
    /* The kernel's signal is done too (it completed before the barrier); its
     * timestamps, read as hipEventElapsedTime does for a profiled launch. */
    if (hsa_signal_load_scacquire(kernel_done) != 0) fprintf(stderr, "test: the profiled kernel's signal is not done\n");
    hsa_amd_profiling_dispatch_time_t t = {0, 0};
    hsa_agent_t agent = {0};
    hsa_iterate_agents(first_gpu, &agent);
    hsa_status_t st = hsa_amd_profiling_get_dispatch_time(agent, kernel_done, &t);
    fprintf(stderr, "test: profiled dispatch time %s\n",
            st == HSA_STATUS_SUCCESS && t.start && t.end > t.start ? "start < end" : "missing");
    hsa_signal_destroy(kernel_done);
  }
  hsa_signal_destroy(marker);
  free(kernarg);
}

/* One report plan for `kernel` of co. */
static sim_plan plan_for(const sim_code_object *co, const char *kernel, const char *var, uint32_t reports,
                         uint32_t workgroup) {
  sim_plan p = {co, kernel, var, reports, workgroup, 64, 0, 0};
  return p;
}

typedef struct thread_job { const sim_code_object *co; uint64_t ko; int thread; int dispatches; } thread_job;

static void *thread_main(void *arg) {
  thread_job *j = arg;
  hsa_queue_t *q = make_queue(j->co->agent);
  for (int i = 0; i < j->dispatches; i++) {
    /* Which workgroup reports is the dispatch's argument: dispatches run concurrently. */
    dispatch_and_wait(q, j->ko, 1, (uint32_t)(j->thread * 100 + i));
  }
  hsa_queue_destroy(q);
  return NULL;
}

int main(int argc, char **argv) {
  if (argc < 3) { fprintf(stderr, "usage: %s <scenario> <code object>...\n", argv[0]); return 2; }
  const char *scenario = argv[1];
  hsa_status_t st = hsa_init();
  if (st != HSA_STATUS_SUCCESS) die_test("hsa_init", st);
  /* What a child process started now would inherit. */
  const char *env_names[] = {"HSA_TOOLS_LIB", "HSA_XNACK", "HSA_TOOLS_ROCPROFILER_V1_TOOLS"};
  for (int i = 0; i < 3; i++)
    fprintf(stderr, "test: after hsa_init %s=%s\n", env_names[i], getenv(env_names[i]) ? getenv(env_names[i]) : "(unset)");
  sim_install();
  hsa_iterate_agents(add_gpu, NULL);
  int objects = argc - 2;
  sim_code_object co[4];
  for (int i = 0; i < objects && i < 4; i++) {
    /* Code object i goes to GPU i when there are several GPUs, else to GPU 0. */
    hsa_agent_t agent = gpus[gpu_count > 1 ? i % gpu_count : 0];
    if (sim_load(&co[i], argv[2 + i], agent) != 0) return 2;
  }
  fprintf(stderr, "test: loaded %d code object(s) on %d GPU agent(s)\n", objects, gpu_count);

  if (!strcmp(scenario, "threads")) {
    /* Four host threads, each with its own queue, ten dispatches each, one report each. */
    uint64_t ko = kernel_object(&co[0], "_Z10static_ldsPii");
    sim_plan p = plan_for(&co[0], "_Z10static_ldsPii", "tile", 1, SIM_FROM_ARG);
    sim_set_plan(ko, &p);
    pthread_t t[4];
    thread_job jobs[4];
    for (int i = 0; i < 4; i++) {
      jobs[i] = (thread_job){&co[0], ko, i, 10};
      pthread_create(&t[i], NULL, thread_main, &jobs[i]);
    }
    for (int i = 0; i < 4; i++) pthread_join(t[i], NULL);
    fprintf(stderr, "test: all dispatches completed\n");
  } else {
    hsa_queue_t *q[MAX_GPUS];
    /* hipLaunchCooperativeKernel: its dispatches go to the cooperative queue. */
    hsa_queue_type32_t type = !strcmp(scenario, "cooperative") ? HSA_QUEUE_TYPE_COOPERATIVE : HSA_QUEUE_TYPE_MULTI;
    for (int g = 0; g < gpu_count; g++) q[g] = make_queue_of(gpus[g], type);
    for (int i = 0; i < objects; i++) {
      const char *kernel = strstr(argv[2 + i], "dynamic") ? "_Z11dynamic_ldsPf" : "_Z10static_ldsPii";
      const char *var = strstr(argv[2 + i], "dynamic") ? "count" : "tile";
      uint64_t ko = kernel_object(&co[i], kernel);
      sim_plan p = plan_for(&co[i], kernel, var, 3, 1);
      if (!strcmp(scenario, "full-channel")) p.reports = 300;
      /* A code object ldsan refused runs unchecked: here a clean dispatch. */
      if (!strcmp(scenario, "clean") || !strcmp(scenario, "abi-mismatch")) p.reports = 0;
      if (!strcmp(scenario, "foreign-trap")) { p.reports = 0; p.fault = 1; }
      if (!strcmp(scenario, "memory-fault")) p.memory_fault = 1;
      sim_set_plan(ko, &p);
      int g = gpu_count > 1 ? i % gpu_count : 0;
      dispatch_and_wait(q[g], ko, 4, 0);
      fprintf(stderr, "test: dispatch %d completed\n", i + 1);
    }
    for (int g = 0; g < gpu_count; g++) hsa_queue_destroy(q[g]);
  }
  for (int i = 0; i < objects; i++) hsa_executable_destroy(co[i].executable);
  hsa_shut_down();
  if (!strcmp(scenario, "reinit")) {
    /* A program that shuts the runtime down and starts it again: ROCr loads
     * its tools again at the new hsa_init. */
    if ((st = hsa_init()) != HSA_STATUS_SUCCESS) die_test("hsa_init (again)", st);
    sim_install();
    gpu_count = 0;
    hsa_iterate_agents(add_gpu, NULL);
    if (sim_load(&co[0], argv[2], gpus[0]) != 0) return 2;
    uint64_t ko = kernel_object(&co[0], "_Z10static_ldsPii");
    sim_plan p = plan_for(&co[0], "_Z10static_ldsPii", "tile", 1, 2);
    sim_set_plan(ko, &p);
    hsa_queue_t *q = make_queue(gpus[0]);
    dispatch_and_wait(q, ko, 4, 0);
    fprintf(stderr, "test: dispatch after hsa_init again completed\n");
    hsa_queue_destroy(q);
    hsa_executable_destroy(co[0].executable);
    hsa_shut_down();
  }
  /* Whether anything mapped ASan's shadow (host ASan, or ldsan for a full-ASan
   * code object): an LDS-only program needs none. */
  fprintf(stderr, "test: ASan's shadow is %smapped\n", msync((void *)(uintptr_t)0x7fff8000ull, 4096, MS_ASYNC) == 0 ? "" : "not ");
  fprintf(stderr, "test: exiting normally\n");
  return 0;
}
