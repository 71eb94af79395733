// hsa_double/processor.cpp — the packet processor of a hardware queue, one
// thread per queue, and the simulated device it hands dispatches to.
//
// Per packet, in queue order: wait until the doorbell holds an id >= the
// packet's and its header type is not INVALID; copy the packet; mark the slot
// INVALID and advance the read index (a command processor advances it when it
// takes a packet, before the work finishes); then
//   KERNEL_DISPATCH  check what the CP checks, call the simulated device;
//   BARRIER_AND/_OR  wait for the dependency signals (0 handle: satisfied for
//                    AND, never for OR, as hsa.h says);
//   AMD BARRIER_VALUE wait for (value & mask) cond compare;
// and on success subtract 1 from the completion signal (if its handle is not 0).
// Work runs one packet at a time, so the barrier bit and acquire/release fences
// hold trivially (host memory is coherent).
//
// Errors put the queue in error: it takes no further packets, the completion
// signal is left alone, and the queue's error callback runs here, on the
// processor thread (ROCr calls it from its async-events thread). Statuses are
// ROCr's for the CP's queue-error bits: debug trap (s_trap) ->
// HSA_STATUS_ERROR_EXCEPTION; memory violation -> MEMORY_APERTURE_VIOLATION;
// NULL code object -> INVALID_CODE_OBJECT; bad dimensions ->
// INCOMPATIBLE_ARGUMENTS; group segment too large -> INVALID_ALLOCATION; bad
// packet format -> INVALID_PACKET_FORMAT. (On hardware a GPU page fault goes
// through ROCr's VM-fault handler, which prints "Memory access fault by GPU
// node-N" and aborts unless a system event handler takes it; the double
// reports MEMFAULT through the queue callback instead.)
#include <cstring>

#include "impl.h"

namespace hsad {
namespace {

std::mutex g_device_lock;
hsa_double_device_fn g_device_fn = nullptr;
void *g_device_ctx = nullptr;

constexpr uint16_t kInvalidHeader = HSA_PACKET_TYPE_INVALID << HSA_PACKET_HEADER_TYPE;

uint32_t packet_type(uint16_t header) { return (header >> HSA_PACKET_HEADER_TYPE) & ((1u << HSA_PACKET_HEADER_WIDTH_TYPE) - 1); }

// Blocks until `ready` holds for the signals (evaluated under the wait lock)
// or the queue is stopped; returns false if stopped.
template <class Ready>
bool wait_deps(Queue *q, Ready ready) {
  bool ok = false;
  wait_until(UINT64_MAX, [&] {
    if (q->stop) return true;
    return ok = ready();
  });
  return ok;
}

int64_t value_of(hsa_signal_t h, bool *live) {
  Signal *s = signal_from(h);
  *live = s != nullptr;
  return s ? signal_load(s) : 0;
}

bool barrier_and(Queue *q, const hsa_barrier_and_packet_t &p) {
  return wait_deps(q, [&] {
    for (hsa_signal_t d : p.dep_signal) {
      bool live;
      if (d.handle && value_of(d, &live) != 0 && live) return false;
    }
    return true;
  });
}

bool barrier_or(Queue *q, const hsa_barrier_or_packet_t &p) {
  return wait_deps(q, [&] {
    for (hsa_signal_t d : p.dep_signal) {
      bool live;
      if (d.handle && value_of(d, &live) == 0 && live) return true;
    }
    return false;
  });
}

bool barrier_value(Queue *q, const hsa_amd_barrier_value_packet_t &p) {
  return wait_deps(q, [&] {
    bool live;
    if (!p.signal.handle) return true;
    int64_t v = value_of(p.signal, &live);
    return cond_holds(hsa_signal_condition_t(p.cond), v & p.mask, p.value);
  });
}

// The error status of a dispatch the CP would refuse, or SUCCESS.
hsa_status_t check_dispatch(const Agent *a, const hsa_kernel_dispatch_packet_t &p) {
  uint32_t dims = (p.setup >> HSA_KERNEL_DISPATCH_PACKET_SETUP_DIMENSIONS) & 3;
  uint64_t wg = uint64_t(p.workgroup_size_x) * p.workgroup_size_y * p.workgroup_size_z;
  if (p.kernel_object == 0) return HSA_STATUS_ERROR_INVALID_CODE_OBJECT;
  if (dims == 0 || wg == 0 || wg > 1024 || !p.grid_size_x || !p.grid_size_y || !p.grid_size_z)
    return HSA_STATUS_ERROR_INCOMPATIBLE_ARGUMENTS;
  if (p.group_segment_size > a->isa.target->lds_bytes) return HSA_STATUS_ERROR_INVALID_ALLOCATION;
  return HSA_STATUS_SUCCESS;
}

void complete(hsa_signal_t done) {
  if (Signal *s = signal_from(done)) signal_add(s, -1);
}

void fail(Queue *q, hsa_status_t status) {
  q->failed = true;
  if (q->callback) q->callback(status, q->reported, q->callback_data);
}

// Runs one packet taken off the ring.
void execute(Queue *q, const uint8_t (&raw)[64]) {
  uint16_t header;
  memcpy(&header, raw, sizeof header);
  switch (packet_type(header)) {
    case HSA_PACKET_TYPE_KERNEL_DISPATCH: {
      hsa_kernel_dispatch_packet_t p;
      memcpy(&p, raw, sizeof p);
      hsa_status_t bad = check_dispatch(q->agent, p);
      if (bad != HSA_STATUS_SUCCESS) return fail(q, bad);
      switch (device_dispatch(q->agent, &p)) {
        case HSA_DOUBLE_COMPLETE: return complete(p.completion_signal);
        case HSA_DOUBLE_TRAP: return fail(q, HSA_STATUS_ERROR_EXCEPTION);
        case HSA_DOUBLE_MEMFAULT: return fail(q, hsa_status_t(HSA_STATUS_ERROR_MEMORY_APERTURE_VIOLATION));
      }
      return fail(q, HSA_STATUS_ERROR);
    }
    case HSA_PACKET_TYPE_BARRIER_AND: {
      hsa_barrier_and_packet_t p;
      memcpy(&p, raw, sizeof p);
      if (barrier_and(q, p)) complete(p.completion_signal);
      return;
    }
    case HSA_PACKET_TYPE_BARRIER_OR: {
      hsa_barrier_or_packet_t p;
      memcpy(&p, raw, sizeof p);
      if (barrier_or(q, p)) complete(p.completion_signal);
      return;
    }
    case HSA_PACKET_TYPE_VENDOR_SPECIFIC: {
      hsa_amd_barrier_value_packet_t p;
      memcpy(&p, raw, sizeof p);
      if (p.header.AmdFormat != HSA_AMD_PACKET_TYPE_BARRIER_VALUE) return fail(q, HSA_STATUS_ERROR_INVALID_PACKET_FORMAT);
      if (barrier_value(q, p)) complete(p.completion_signal);
      return;
    }
    default:  // AGENT_DISPATCH is for agent-dispatch queues, not a GPU's
      return fail(q, HSA_STATUS_ERROR_INVALID_PACKET_FORMAT);
  }
}

}  // namespace

hsa_double_outcome device_dispatch(Agent *agent, const hsa_kernel_dispatch_packet_t *pkt) {
  hsa_double_device_fn fn;
  void *ctx;
  {
    std::lock_guard<std::mutex> lock(g_device_lock);
    fn = g_device_fn;
    ctx = g_device_ctx;
  }
  return fn ? fn(ctx, handle_of(agent), pkt) : HSA_DOUBLE_COMPLETE;
}

void processor_main(Queue *q) {
  auto *ring = static_cast<uint8_t *>(q->ring);
  const uint64_t mask = q->size - 1;
  for (;;) {
    uint64_t index = __atomic_load_n(&q->amd.read_dispatch_id, __ATOMIC_ACQUIRE);
    auto *slot = ring + (index & mask) * 64;
    auto *header = reinterpret_cast<uint16_t *>(slot);
    wait_until(UINT64_MAX, [&] {
      if (q->stop) return true;
      if (q->inactive || q->failed) return false;
      int64_t bell = signal_load(q->doorbell);
      if (bell < 0 || uint64_t(bell) < index) return false;
      return packet_type(__atomic_load_n(header, __ATOMIC_ACQUIRE)) != HSA_PACKET_TYPE_INVALID;
    });
    if (q->stop) break;
    uint8_t raw[64];
    memcpy(raw, slot, sizeof raw);  // ordered after the header's acquire load
    __atomic_store_n(header, kInvalidHeader, __ATOMIC_RELEASE);
    __atomic_store_n(&q->amd.read_dispatch_id, index + 1, __ATOMIC_RELEASE);
    wake_waiters();  // a producer may wait for space (intercept submission does)
    execute(q, raw);
    if (q->self_release) break;
  }
  if (q->self_release) queue_release(q);
}

}  // namespace hsad

extern "C" HSAD_EXPORT void hsa_double_set_device(hsa_double_device_fn fn, void *ctx) {
  std::lock_guard<std::mutex> lock(hsad::g_device_lock);
  hsad::g_device_fn = fn;
  hsad::g_device_ctx = ctx;
}
