// hsa_double/async.cpp — hsa_amd_signal_async_handler: one handler thread,
// started by the first registration (as ROCr's async-events thread), which
// sleeps on the shared wait condition and, whenever something changes, calls
// every handler whose condition holds, with the value it observed.
//
// ROCr semantics: a handler returning true stays registered "as if
// registered again with identical parameters", so it runs again while the
// condition keeps holding; returning false removes it. Handlers run without
// any lock held and may register handlers, store signals or destroy them.
//
// g_entries and g_exit are guarded by wait_mutex(); g_thread by g_thread_lock.
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

std::vector<Entry> g_entries;
bool g_exit = false;
std::mutex g_thread_lock;
std::thread g_thread;

void loop() {
  for (;;) {
    std::vector<std::pair<Entry, int64_t>> due;
    bool exit = false;
    wait_until(UINT64_MAX, [&] {
      if (g_exit) return exit = true;
      for (size_t i = 0; i < g_entries.size();) {
        int64_t v = signal_load(g_entries[i].signal);
        if (cond_holds(g_entries[i].cond, v, g_entries[i].value)) {
          due.emplace_back(g_entries[i], v);
          g_entries.erase(g_entries.begin() + long(i));
        } else {
          i++;
        }
      }
      return !due.empty();
    });
    if (exit) return;
    for (auto &d : due) {
      if (!d.first.handler(d.second, d.first.arg)) continue;
      std::lock_guard<std::mutex> lock(wait_mutex());
      // Re-register unless the signal was destroyed meanwhile (see signal_delete).
      if (!g_exit && signal_from(handle_of(d.first.signal))) g_entries.push_back(d.first);
    }
  }
}

}  // namespace

hsa_status_t async_add(Signal *s, hsa_signal_condition_t cond, int64_t value, hsa_amd_signal_handler handler,
                       void *arg) {
  {
    std::lock_guard<std::mutex> lock(g_thread_lock);
    if (!g_thread.joinable()) {
      std::lock_guard<std::mutex> wait_lock(wait_mutex());
      g_exit = false;
      g_thread = std::thread(loop);
    }
  }
  {
    std::lock_guard<std::mutex> lock(wait_mutex());
    g_entries.push_back({s, cond, value, handler, arg});
    wait_cv().notify_all();
  }
  return HSA_STATUS_SUCCESS;
}

void async_forget(const Signal *s) {
  std::lock_guard<std::mutex> lock(wait_mutex());
  for (size_t i = 0; i < g_entries.size();) {
    if (g_entries[i].signal == s) g_entries.erase(g_entries.begin() + long(i));
    else i++;
  }
}

void async_stop() {
  std::lock_guard<std::mutex> lock(g_thread_lock);
  {
    std::lock_guard<std::mutex> wait_lock(wait_mutex());
    g_exit = true;
    g_entries.clear();
    wait_cv().notify_all();
  }
  if (!g_thread.joinable()) return;
  if (g_thread.get_id() == std::this_thread::get_id()) g_thread.detach();  // shut down from a handler
  else g_thread.join();
}

hsa_status_t amd_signal_async_handler(hsa_signal_t signal, hsa_signal_condition_t cond, hsa_signal_value_t value,
                                      hsa_amd_signal_handler handler, void *arg) {
  HSAD_CHECK_OPEN();
  Signal *s = signal_from(signal);
  if (!s) return HSA_STATUS_ERROR_INVALID_SIGNAL;
  if (!handler) return HSA_STATUS_ERROR_INVALID_ARGUMENT;
  return async_add(s, cond, value, handler, arg);
}

}  // namespace hsad
