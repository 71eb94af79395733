// hsa_double/copy.cpp — hsa_memory_copy, hsa_amd_memory_async_copy and
// hsa_amd_memory_fill. Device addresses go through the VRAM view; any other
// address is taken as host memory and used directly (ROCr would also need it
// to be registered or pool memory: the double does not check that).
//
// An async copy whose dependencies are already satisfied runs at once in the
// caller's thread; otherwise it waits on the async-handler thread (as a
// handler on its first unsatisfied dependency) and runs there. Pending jobs are
// owned by g_jobs so shutdown can free them.
#include <cstring>
#include <set>

#include "impl.h"

namespace hsad {
namespace {

// Host pointer for [p, p+n): the VRAM view (nullptr if not allocated) or p.
void *resolve(const void *p, size_t n) {
  uint64_t a = reinterpret_cast<uint64_t>(p);
  if (mem_in_vram(a)) return mem_view(a, n);
  return const_cast<void *>(p);
}

struct CopyJob {
  void *dst;
  const void *src;
  size_t size;
  std::vector<hsa_signal_t> deps;
  hsa_signal_t done;
};

std::mutex g_jobs_lock;
std::set<CopyJob *> g_jobs;

// Performs the copy and completes the job; an unmapped range is reported by a
// negative completion value, as the API documents for asynchronous errors.
void run(const CopyJob &job) {
  void *d = resolve(job.dst, job.size);
  void *s = resolve(job.src, job.size);
  Signal *done = signal_from(job.done);
  if (d && s) memmove(d, s, job.size);
  if (!done) return;
  if (d && s) signal_add(done, -1);
  else signal_store(done, -1);
}

// Returns the first dependency not yet 0, nullptr when all are satisfied.
Signal *pending_dep(const CopyJob &job) {
  for (hsa_signal_t h : job.deps) {
    Signal *s = signal_from(h);
    if (s && signal_load(s) != 0) return s;
  }
  return nullptr;
}

bool on_dep(hsa_signal_value_t, void *arg);

void wait_or_run(CopyJob *job) {
  if (Signal *dep = pending_dep(*job)) {
    if (async_add(dep, HSA_SIGNAL_CONDITION_EQ, 0, on_dep, job) == HSA_STATUS_SUCCESS) return;
  }
  run(*job);
  std::lock_guard<std::mutex> lock(g_jobs_lock);
  g_jobs.erase(job);
  delete job;
}

bool on_dep(hsa_signal_value_t, void *arg) {
  wait_or_run(static_cast<CopyJob *>(arg));
  return false;
}

}  // namespace

void copies_release() {
  std::lock_guard<std::mutex> lock(g_jobs_lock);
  for (CopyJob *j : g_jobs) delete j;
  g_jobs.clear();
}

hsa_status_t memory_copy(void *dst, const void *src, size_t size) {
  HSAD_CHECK_OPEN();
  if (!dst || !src) return HSA_STATUS_ERROR_INVALID_ARGUMENT;
  if (size == 0) return HSA_STATUS_SUCCESS;
  void *d = resolve(dst, size);
  void *s = resolve(src, size);
  if (!d || !s) return HSA_STATUS_ERROR_INVALID_ARGUMENT;
  memmove(d, s, size);
  return HSA_STATUS_SUCCESS;
}

hsa_status_t amd_memory_async_copy(void *dst, hsa_agent_t dst_agent, const void *src, hsa_agent_t src_agent,
                                   size_t size, uint32_t num_dep_signals, const hsa_signal_t *dep_signals,
                                   hsa_signal_t completion_signal) {
  HSAD_CHECK_OPEN();
  if (!agent_from(dst_agent) || !agent_from(src_agent)) return HSA_STATUS_ERROR_INVALID_AGENT;
  if (!dst || !src || completion_signal.handle == 0 || (num_dep_signals && !dep_signals))
    return HSA_STATUS_ERROR_INVALID_ARGUMENT;
  if (!signal_from(completion_signal)) return HSA_STATUS_ERROR_INVALID_SIGNAL;
  if (!resolve(dst, size ? size : 1) || !resolve(src, size ? size : 1)) return HSA_STATUS_ERROR_INVALID_ARGUMENT;
  auto *job = new CopyJob{dst, src, size, {}, completion_signal};
  for (uint32_t i = 0; i < num_dep_signals; i++) job->deps.push_back(dep_signals[i]);
  {
    std::lock_guard<std::mutex> lock(g_jobs_lock);
    g_jobs.insert(job);
  }
  wait_or_run(job);
  return HSA_STATUS_SUCCESS;
}

hsa_status_t amd_memory_fill(void *ptr, uint32_t value, size_t count) {
  HSAD_CHECK_OPEN();
  if (!ptr || reinterpret_cast<uint64_t>(ptr) % 4) return HSA_STATUS_ERROR_INVALID_ARGUMENT;
  if (count == 0) return HSA_STATUS_SUCCESS;
  auto *p = static_cast<uint32_t *>(resolve(ptr, count * 4));
  if (!p) return HSA_STATUS_ERROR_INVALID_ARGUMENT;
  for (size_t i = 0; i < count; i++) p[i] = value;
  return HSA_STATUS_SUCCESS;
}

}  // namespace hsad
