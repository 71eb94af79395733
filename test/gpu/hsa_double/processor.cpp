// hsa_double/processor.cpp — the packet processor of a hardware queue, one
// thread per queue, and the simulated device it hands dispatches to.
//
// Per packet, in queue order: wait until the doorbell holds an id >= the
// packet's and its header type is not INVALID; copy the packet; mark the slot
// INVALID and advance the read index (a command processor advances it when it
// takes a packet, before the work finishes); show it to the packet observer
// (hsa_double_set_packet_observer); then
//   KERNEL_DISPATCH  check what the CP checks, call the simulated device;
//   BARRIER_AND/_OR  wait for the dependency signals (0 handle: satisfied for
//                    AND, never for OR, as hsa.h says);
//   AMD BARRIER_VALUE wait for (value & mask) cond compare;
// and on success subtract 1 from the completion signal (if its handle is not 0),
// after writing the packet's start and end times into it when the queue's
// profiling bit is set (profiling.cpp). Work runs one packet at a time, so a
// packet starts only after every earlier one completed: the barrier bit and
// acquire/release fences hold trivially (host memory is coherent).
//
// Errors stop the queue as the CP does: it takes no further packets and the
// completion signal is left alone; the exception bits go to ROCr's queue error
// handler on the async thread (queue_errors.cpp). The bits are KFD's codes for
// what the CP or the trap handler found: s_trap (llvm.trap) ->
// EC_QUEUE_WAVE_ABORT; NULL code object -> EC_QUEUE_PACKET_DISPATCH_CODE_INVALID;
// no dimensions or an empty grid -> ..._DIM_INVALID; a work-group of 0 or more
// than 1024 items -> ..._WORK_GROUP_SIZE_INVALID; group segment too large ->
// ..._GROUP_SEGMENT_SIZE_INVALID; a packet type a GPU queue does not run ->
// EC_QUEUE_PACKET_UNSUPPORTED, a vendor format it does not know ->
// EC_QUEUE_PACKET_VENDOR_UNSUPPORTED. (Which checks the CP makes is firmware,
// not ROCr; these are the ones the codes name.) A memory fault is
// EC_QUEUE_WAVE_MEMORY_VIOLATION, which ROCr's queue handler ignores, plus
// KFD's VM-fault event (vm_fault.cpp).
#include <cstring>

#include "impl.h"

namespace hsad {
namespace {

std::mutex g_device_lock;  // the four below
hsa_double_device_fn g_device_fn = nullptr;
void *g_device_ctx = nullptr;
hsa_double_packet_fn g_observer_fn = nullptr;
void *g_observer_ctx = nullptr;

void observe(Queue *q, uint64_t index, const uint8_t (&raw)[64]) {
  hsa_double_packet_fn fn;
  void *ctx;
  {
    std::lock_guard<std::mutex> lock(g_device_lock);
    fn = g_observer_fn;
    ctx = g_observer_ctx;
  }
  if (fn) fn(ctx, handle_of(q->agent), &q->amd.hsa_queue, index, raw);
}

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

// The exception code of a dispatch the CP would refuse, or 0.
int check_dispatch(const Agent *a, const hsa_kernel_dispatch_packet_t &p) {
  uint32_t dims = (p.setup >> HSA_KERNEL_DISPATCH_PACKET_SETUP_DIMENSIONS) & 3;
  uint64_t wg = uint64_t(p.workgroup_size_x) * p.workgroup_size_y * p.workgroup_size_z;
  if (p.kernel_object == 0) return kEcDispatchCodeInvalid;
  if (dims == 0 || !p.grid_size_x || !p.grid_size_y || !p.grid_size_z) return kEcDispatchDimInvalid;
  if (wg == 0 || wg > 1024) return kEcWorkGroupSizeInvalid;
  if (p.group_segment_size > a->isa.target->lds_bytes) return kEcGroupSegmentSizeInvalid;
  return 0;
}

// Completes a packet: its times first when profiled, then the signal.
void complete(Queue *q, hsa_signal_t done, uint64_t start) {
  Signal *s = signal_from(done);
  if (!s) return;
  if (profiling_enabled(q)) {
    s->abi.start_ts = start;
    s->abi.end_ts = now_ns();
  }
  signal_add(s, -1);
}

void fail(Queue *q, int code) { queue_raise(q, ec_bit(code)); }

// Runs one packet taken off the ring.
void execute(Queue *q, const uint8_t (&raw)[64]) {
  uint16_t header;
  memcpy(&header, raw, sizeof header);
  uint64_t start = now_ns();
  switch (packet_type(header)) {
    case HSA_PACKET_TYPE_KERNEL_DISPATCH: {
      hsa_kernel_dispatch_packet_t p;
      memcpy(&p, raw, sizeof p);
      if (int bad = check_dispatch(q->agent, p)) return fail(q, bad);
      switch (device_dispatch(q->agent, &p)) {
        case HSA_DOUBLE_COMPLETE: return complete(q, p.completion_signal, start);
        case HSA_DOUBLE_TRAP: return fail(q, kEcWaveAbort);  // s_trap 2: the trap handler's EC_QUEUE_WAVE_ABORT
        case HSA_DOUBLE_MEMFAULT:
          fail(q, kEcWaveMemoryViolation);
          return vmfault_raise(q->agent);
      }
      return fail(q, kEcWaveTrap);
    }
    case HSA_PACKET_TYPE_BARRIER_AND: {
      hsa_barrier_and_packet_t p;
      memcpy(&p, raw, sizeof p);
      if (barrier_and(q, p)) complete(q, p.completion_signal, start);
      return;
    }
    case HSA_PACKET_TYPE_BARRIER_OR: {
      hsa_barrier_or_packet_t p;
      memcpy(&p, raw, sizeof p);
      if (barrier_or(q, p)) complete(q, p.completion_signal, start);
      return;
    }
    case HSA_PACKET_TYPE_VENDOR_SPECIFIC: {
      hsa_amd_barrier_value_packet_t p;
      memcpy(&p, raw, sizeof p);
      if (p.header.AmdFormat != HSA_AMD_PACKET_TYPE_BARRIER_VALUE) return fail(q, kEcVendorUnsupported);
      if (barrier_value(q, p)) complete(q, p.completion_signal, start);
      return;
    }
    default:  // AGENT_DISPATCH is for agent-dispatch queues, not a GPU's
      return fail(q, kEcPacketUnsupported);
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
    wake_waiters();  // a producer may wait for space
    observe(q, index, raw);
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

extern "C" HSAD_EXPORT void hsa_double_set_packet_observer(hsa_double_packet_fn fn, void *ctx) {
  std::lock_guard<std::mutex> lock(hsad::g_device_lock);
  hsad::g_observer_fn = fn;
  hsad::g_observer_ctx = ctx;
}
