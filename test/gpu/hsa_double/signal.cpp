// hsa_double/signal.cpp — signal objects and the one wait mechanism.
//
// A signal is ROCr's ABI block (amd_signal_t, kind USER, value at .value) at
// the start of a Signal; the handle is the block's address. Live signals are
// kept in g_live so a destroyed or made-up handle is recognised (ROCr checks a
// magic value instead; a set also survives reuse of freed memory).
//
// Waiting: every waiter (hsa_signal_wait_*, packet processors, the async
// handler thread) sleeps on g_cv under g_mutex and re-checks its condition when
// woken. A change calls wake_waiters(), which takes the mutex only if someone
// waits: the change is a seq_cst store, the waiter count a seq_cst
// increment-then-check, so either the waker sees the waiter or the waiter sees
// the change (Dekker). Lock order: g_mutex before g_live_lock.
#include <cstring>
#include <unordered_set>

#include "internal.h"

namespace hsad {
namespace {
std::mutex g_mutex;
std::condition_variable g_cv;
std::atomic<int> g_waiters{0};
std::mutex g_live_lock;
std::unordered_set<Signal *> g_live;
}  // namespace

std::mutex &wait_mutex() { return g_mutex; }
std::condition_variable &wait_cv() { return g_cv; }
std::atomic<int> &waiter_count() { return g_waiters; }

void wake_waiters() {
  if (g_waiters.load() == 0) return;
  std::lock_guard<std::mutex> lock(g_mutex);
  g_cv.notify_all();
}

uint64_t deadline_after(uint64_t timeout_ns) {
  if (timeout_ns == UINT64_MAX) return UINT64_MAX;
  uint64_t now = now_ns();
  return timeout_ns > UINT64_MAX - now ? UINT64_MAX : now + timeout_ns;
}

bool cond_holds(hsa_signal_condition_t cond, int64_t value, int64_t compare) {
  switch (cond) {
    case HSA_SIGNAL_CONDITION_EQ: return value == compare;
    case HSA_SIGNAL_CONDITION_NE: return value != compare;
    case HSA_SIGNAL_CONDITION_LT: return value < compare;
    case HSA_SIGNAL_CONDITION_GTE: return value >= compare;
  }
  return false;
}

Signal *signal_new(int64_t value) {
  auto *s = new Signal;
  memset(&s->abi, 0, sizeof s->abi);
  s->abi.kind = AMD_SIGNAL_KIND_USER;
  s->abi.value = value;
  std::lock_guard<std::mutex> lock(g_live_lock);
  g_live.insert(s);
  return s;
}

void signal_free(Signal *s) {
  s->magic = 0;
  delete s;
}

// Leaves the live set and drops its async handlers; one that is running now
// frees it when it returns (async.cpp).
void signal_delete(Signal *s) {
  {
    std::lock_guard<std::mutex> lock(g_live_lock);
    g_live.erase(s);
  }
  std::lock_guard<std::mutex> lock(g_mutex);
  if (async_forget(s)) signal_free(s);
}

Signal *signal_from(hsa_signal_t h) {
  if (h.handle == 0) return nullptr;
  auto *s = reinterpret_cast<Signal *>(h.handle);  // abi is the first member
  std::lock_guard<std::mutex> lock(g_live_lock);
  return g_live.count(s) ? s : nullptr;
}

int64_t signal_load(const Signal *s) { return __atomic_load_n(&s->abi.value, __ATOMIC_SEQ_CST); }

void signal_store(Signal *s, int64_t v) {
  __atomic_store_n(&s->abi.value, v, __ATOMIC_SEQ_CST);
  if (s->intercept) intercept_doorbell(s->intercept, v);  // ROCr runs interceptors in the storing thread
  wake_waiters();
}

int64_t signal_add(Signal *s, int64_t delta) {
  int64_t old = __atomic_fetch_add(&s->abi.value, delta, __ATOMIC_SEQ_CST);
  wake_waiters();
  return old;
}

void signal_release_all() {
  std::vector<Signal *> all;
  {
    std::lock_guard<std::mutex> lock(g_live_lock);
    all.assign(g_live.begin(), g_live.end());
    g_live.clear();
  }
  for (Signal *s : all) delete s;
}

}  // namespace hsad
