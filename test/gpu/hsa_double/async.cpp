// hsa_double/async.cpp — ROCr's async-events thread(s), which run every
// signal handler the runtime has: hsa_amd_signal_async_handler's, each queue's
// error handler (queue_errors.cpp), the VM-fault handler that calls the system
// event handlers (vm_fault.cpp), intercept-queue async doorbells
// (intercept.cpp) and async-copy dependencies (copy.cpp).
//
// ROCr core/runtime/runtime.cpp Runtime::SetAsyncSignalHandler and
// AsyncEventsLoop: one thread, created by the first registration, runs all of
// them one after another (5.2-6.2.0); from 6.2.1 (commit 88eaa834) handlers of
// signals whose event is not HSA_EVENTTYPE_SIGNAL (VM fault, HW exception) run
// on a second thread of their own (asyncExceptions_), everything else stays on
// the first (asyncSignals_). Lane::Exceptions is that second kind; before
// 6.2.1 it is the same thread.
//
// A handler returning true stays registered "as if registered again with
// identical parameters", so it runs again while the condition keeps holding;
// returning false removes it. Each thread takes one due handler at a time and
// runs it without any lock held; a handler may register handlers, store
// signals or destroy them. A signal destroyed while its handler runs is freed
// when the handler returns (ROCr: the async loop holds a reference to it).
// Queues wait for their own handlers before they go (async_quiesce), as
// ROCr's AqlQueue and InterceptQueue destructors do.
//
// A handler runs HSA_DOUBLE_ASYNC_LATENCY_US (default 1000) after its
// condition was seen to hold: ROCr's thread sleeps in the kernel driver
// (hsaKmtWaitOnMultipleEvents, Signal::WaitAny) until the interrupt the
// command processor raises for the signal wakes it, while the command
// processor goes on with the queue's next packet. A program waiting on a later
// packet's signal can so see it complete before a handler of an earlier one ran.
//
// Lane state is guarded by wait_mutex(); the thread objects by g_thread_lock.
#include "impl.h"

namespace hsad {
namespace {

struct Entry {
  Signal *signal;
  hsa_signal_condition_t cond;
  int64_t value;
  hsa_amd_signal_handler handler;
  void *arg;
};

struct LaneState {
  std::vector<Entry> entries;
  Signal *running = nullptr;  // the signal whose handler runs now
  bool free_running = false;  // it was destroyed meanwhile: free it afterwards
  bool exit = false;
  std::thread *thread = nullptr;
  std::thread::id id;
};

LaneState g_lanes[2];
std::mutex g_thread_lock;

LaneState &lane_of(Lane lane) {
  return g_lanes[lane == Lane::Exceptions && release().exceptions_thread ? 1 : 0];
}

void loop(LaneState *l) {
  for (;;) {
    Entry e{};
    int64_t value = 0;
    bool exit = false;
    wait_until(UINT64_MAX, [&] {
      if (l->exit) return exit = true;
      for (size_t i = 0; i < l->entries.size(); i++) {
        value = signal_load(l->entries[i].signal);
        if (!cond_holds(l->entries[i].cond, value, l->entries[i].value)) continue;
        e = l->entries[i];
        l->entries.erase(l->entries.begin() + long(i));
        l->running = e.signal;
        return true;
      }
      return false;
    });
    if (exit) return;
    static const long latency_us = env("HSA_DOUBLE_ASYNC_LATENCY_US") ? strtol(env("HSA_DOUBLE_ASYNC_LATENCY_US"), nullptr, 0) : 1000;
    if (latency_us > 0) std::this_thread::sleep_for(std::chrono::microseconds(latency_us));
    bool keep = e.handler(value, e.arg);
    std::lock_guard<std::mutex> lock(wait_mutex());
    l->running = nullptr;
    if (l->free_running) {
      l->free_running = false;
      signal_free(e.signal);
    } else if (keep && !l->exit) {
      l->entries.push_back(e);
    }
    wait_cv().notify_all();  // async_quiesce may wait for this handler
  }
}

}  // namespace

hsa_status_t async_add(Signal *s, hsa_signal_condition_t cond, int64_t value, hsa_amd_signal_handler handler,
                       void *arg, Lane lane) {
  LaneState &l = lane_of(lane);
  {
    std::lock_guard<std::mutex> lock(g_thread_lock);
    if (!l.thread) {
      {
        std::lock_guard<std::mutex> wait_lock(wait_mutex());
        l.exit = false;
        l.entries.clear();  // left from a runtime instance that is gone
      }
      l.thread = new std::thread(loop, &l);
      l.id = l.thread->get_id();
    }
  }
  std::lock_guard<std::mutex> lock(wait_mutex());
  l.entries.push_back({s, cond, value, handler, arg});
  wait_cv().notify_all();
  return HSA_STATUS_SUCCESS;
}

bool on_async_thread() {
  std::thread::id self = std::this_thread::get_id();
  std::lock_guard<std::mutex> lock(g_thread_lock);
  for (const LaneState &l : g_lanes)
    if (l.thread && l.id == self) return true;
  return false;
}

// Under wait_mutex(): drops s's handlers; false if one is running now (the
// loop then frees s when it returns).
bool async_forget(Signal *s) {
  bool now = true;
  for (LaneState &l : g_lanes) {
    for (size_t k = 0; k < l.entries.size();) {
      if (l.entries[k].signal == s) l.entries.erase(l.entries.begin() + long(k));
      else k++;
    }
    if (l.running == s) {
      l.free_running = true;
      now = false;
    }
  }
  return now;
}

void async_quiesce(const Signal *s) {
  std::thread::id self = std::this_thread::get_id();
  std::thread::id ids[2];
  {
    std::lock_guard<std::mutex> lock(g_thread_lock);
    for (int i = 0; i < 2; i++) ids[i] = g_lanes[i].thread ? g_lanes[i].id : std::thread::id();
  }
  wait_until(UINT64_MAX, [&] {
    bool idle = true;
    for (int i = 0; i < 2; i++) {
      LaneState &l = g_lanes[i];
      for (size_t k = 0; k < l.entries.size();) {
        if (l.entries[k].signal == s) l.entries.erase(l.entries.begin() + long(k));
        else k++;
      }
      if (l.running == s && ids[i] != self) idle = false;  // its handler is running elsewhere
    }
    return idle;
  });
}

// Joins outside g_thread_lock: a handler still running may ask on_async_thread.
void async_stop() {
  std::thread *threads[2];
  std::thread::id ids[2];
  {
    std::lock_guard<std::mutex> lock(g_thread_lock);
    std::lock_guard<std::mutex> wait_lock(wait_mutex());
    for (int i = 0; i < 2; i++) {
      g_lanes[i].exit = true;
      g_lanes[i].entries.clear();
      threads[i] = g_lanes[i].thread;
      ids[i] = g_lanes[i].id;
    }
    wait_cv().notify_all();
  }
  for (int i = 0; i < 2; i++) {
    if (!threads[i]) continue;
    if (ids[i] == std::this_thread::get_id()) threads[i]->detach();  // shut down from a handler
    else threads[i]->join();
  }
  std::lock_guard<std::mutex> lock(g_thread_lock);
  for (int i = 0; i < 2; i++) {
    delete threads[i];
    g_lanes[i].thread = nullptr;
  }
}

// ROCr core/runtime/hsa_ext_amd.cpp hsa_amd_signal_async_handler: the
// handler, then the signal; with interrupts on, only an interrupt signal
// (signal_ops.cpp) is accepted, and in develop ("7") an IPC signal too.
hsa_status_t amd_signal_async_handler(hsa_signal_t signal, hsa_signal_condition_t cond, hsa_signal_value_t value,
                                      hsa_amd_signal_handler handler, void *arg) {
  HSAD_CHECK_OPEN();
  if (!handler) return HSA_STATUS_ERROR_INVALID_ARGUMENT;
  Signal *s = signal_from(signal);
  if (!s) return HSA_STATUS_ERROR_INVALID_SIGNAL;
  if (flags().interrupt && !s->interrupt && !(s->ipc && release().async_ipc)) return HSA_STATUS_ERROR_INVALID_SIGNAL;
  return async_add(s, cond, value, handler, arg, Lane::Signals);
}

}  // namespace hsad
