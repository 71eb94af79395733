// hsa_double/intercept_submit.cpp — the last step of an intercept queue: the
// rewritten packets into the hardware queue it wraps, as ROCr's
// InterceptQueue::Submit does (core/runtime/intercept_queue.cpp), including
// what happens when the hardware ring is full: ROCr then writes a packet of its
// own, a BARRIER_AND with the barrier bit, no fences, no dependencies and the
// intercept queue's async doorbell as completion signal. When the packet
// processor completes it, the async doorbell's handler runs on the async-events
// thread and submits the packets that waited (intercept.cpp).
//
// 5.2-5.7 (rocm-5.2.0 Submit): all of a rewrite or none of it, and only with
// one slot to spare (free_slots <= count defers). Deferring adds the retry
// barrier unless one is pending (retry_index > read index): it reserves a slot
// and spins (os::YieldThread) until the packet processor has freed that slot,
// then writes the barrier and rings. The static Submit appends what was not
// submitted to overflow_ (its "overflow empty" assert is compiled out), and
// StoreRelaxed goes on with the next user packet, which may then reach the ring
// before the ones waiting.
// 6.0+ (rocm-6.0.0 .. develop Submit): the same all-or-nothing rule, keeping
// one slot for the retry barrier unless one is pending; a rewrite of at least
// the ring's size goes in as far as it fits. What did not go in waits in
// overflow_, and StoreRelaxed takes no new user packet until it is submitted.
// (6.0+ intercept-marker vendor packets are not modelled.)
#include <sched.h>

#include <cstring>

#include "impl.h"

namespace hsad {
namespace {

constexpr uint16_t kInvalidHeader = HSA_PACKET_TYPE_INVALID << HSA_PACKET_HEADER_TYPE;
constexpr uint16_t kBarrierHeader = (HSA_PACKET_TYPE_BARRIER_AND << HSA_PACKET_HEADER_TYPE) |
                                    (1 << HSA_PACKET_HEADER_BARRIER) |
                                    (HSA_FENCE_SCOPE_NONE << HSA_PACKET_HEADER_SCACQUIRE_FENCE_SCOPE) |
                                    (HSA_FENCE_SCOPE_NONE << HSA_PACKET_HEADER_SCRELEASE_FENCE_SCOPE);

uint8_t *slot(Queue *q, uint64_t index) { return static_cast<uint8_t *>(q->ring) + (index & (q->size - 1)) * 64; }
uint64_t read_index(const Queue *w) { return __atomic_load_n(&w->amd.read_dispatch_id, __ATOMIC_ACQUIRE); }
uint64_t write_index(const Queue *w) { return __atomic_load_n(&w->amd.write_dispatch_id, __ATOMIC_ACQUIRE); }

bool cas_write(Queue *w, uint64_t expected, uint64_t desired) {
  return __atomic_compare_exchange_n(&w->amd.write_dispatch_id, &expected, desired, false, __ATOMIC_SEQ_CST,
                                     __ATOMIC_SEQ_CST);
}

// The retry barrier at `index` of the wrapped ring, then the doorbell.
void write_barrier(Queue *iq, uint64_t index) {
  Queue *w = iq->wrapped;
  hsa_barrier_and_packet_t b;
  memset(&b, 0, sizeof b);
  b.header = kInvalidHeader;
  b.completion_signal = handle_of(iq->async_doorbell);
  uint8_t *dst = slot(w, index);
  memcpy(dst, &b, sizeof b);
  __atomic_store_n(reinterpret_cast<uint16_t *>(dst), kBarrierHeader, __ATOMIC_RELEASE);
  signal_store(w->doorbell, int64_t(index));
  iq->retry_index = index;
}

// count packets at `write`: bodies first, the first header last (release), then the doorbell.
void write_packets(Queue *w, uint64_t write, const Packet *pkts, uint64_t count) {
  for (uint64_t k = count; k-- > 0;) {
    uint8_t *dst = slot(w, write + k);
    if (k) memcpy(dst, pkts[k].bytes, 64);
    else memcpy(dst + 2, pkts[0].bytes + 2, 62);
  }
  uint16_t header;
  memcpy(&header, pkts[0].bytes, sizeof header);
  __atomic_store_n(reinterpret_cast<uint16_t *>(slot(w, write)), header, __ATOMIC_RELEASE);
  signal_store(w->doorbell, int64_t(write + count - 1));
}

uint64_t submit_5x(Queue *iq, const Packet *pkts, uint64_t count) {
  Queue *w = iq->wrapped;
  for (;;) {
    uint64_t write = write_index(w), read = read_index(w);
    uint64_t free_slots = w->size - (write - read);
    if (free_slots <= count) {
      if (iq->retry_index <= read) {  // no retry point pending: add one
        write = __atomic_fetch_add(&w->amd.write_dispatch_id, 1, __ATOMIC_SEQ_CST);
        // ROCr waits for read >= write - size + 1 in unsigned arithmetic, which
        // underflows (and spins forever) when write < size - 1; that slot is free.
        if (write + 1 >= w->size)
          while (read_index(w) < write + 1 - w->size) {
            if (w->stop) return 0;  // (ROCr would spin on; the queue is being destroyed)
            sched_yield();
          }
        write_barrier(iq, write);
      }
      return 0;
    }
    if (cas_write(w, write, write + count)) {
      write_packets(w, write, pkts, count);
      return count;
    }
  }
}

uint64_t submit_6x(Queue *iq, const Packet *pkts, uint64_t count) {
  Queue *w = iq->wrapped;
  for (;;) {
    uint64_t write = write_index(w), read = read_index(w);
    uint64_t free_slots = w->size - (write - read);
    bool pending = iq->retry_index > read;  // IsPendingRetryPoint
    uint64_t n = count;
    if (n >= w->size) n = free_slots - (pending ? 0 : 1);
    else if (free_slots < n + (pending ? 0 : 1)) n = 0;
    if (n < count && !pending) {
      uint64_t barrier = __atomic_fetch_add(&w->amd.write_dispatch_id, 1, __ATOMIC_SEQ_CST);
      write = barrier + 1;
      write_barrier(iq, barrier);
    }
    if (n == 0) return 0;
    if (cas_write(w, write, write + n)) {
      write_packets(w, write, pkts, n);
      return n;
    }
  }
}

}  // namespace

uint64_t intercept_submit(Queue *iq, const Packet *pkts, uint64_t count) {
  if (count == 0) return 0;
  return release().intercept_v6 ? submit_6x(iq, pkts, count) : submit_5x(iq, pkts, count);
}

// interceptors[0] (the static InterceptQueue::Submit): what does not go in
// now waits in overflow.
void intercept_submit_handler(const void *pkts, uint64_t count, uint64_t, void *data,
                              hsa_amd_queue_intercept_packet_writer) {
  auto *iq = static_cast<Queue *>(data);
  auto *p = static_cast<const Packet *>(pkts);
  uint64_t done = intercept_submit(iq, p, count);
  iq->overflow.insert(iq->overflow.end(), p + done, p + count);
}

}  // namespace hsad
