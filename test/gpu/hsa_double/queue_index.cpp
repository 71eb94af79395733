// hsa_double/queue_index.cpp — the read/write-index functions: atomics on
// amd_queue_t.read_dispatch_id / write_dispatch_id, where ROCr keeps them.
// One seq_cst implementation serves every memory-order variant. An invalid
// queue is ignored (loads return 0); ROCr would dereference it.
#include "impl.h"

namespace hsad {
namespace {

volatile uint64_t *write_id(const hsa_queue_t *queue) {
  Queue *q = queue_from(queue);
  return q ? &q->amd.write_dispatch_id : nullptr;
}

volatile uint64_t *read_id(const hsa_queue_t *queue) {
  Queue *q = queue_from(queue);
  return q ? &q->amd.read_dispatch_id : nullptr;
}

}  // namespace

uint64_t queue_load_read_index_scacquire(const hsa_queue_t *queue) {
  volatile uint64_t *p = read_id(queue);
  return p ? __atomic_load_n(p, __ATOMIC_SEQ_CST) : 0;
}

uint64_t queue_load_write_index_scacquire(const hsa_queue_t *queue) {
  volatile uint64_t *p = write_id(queue);
  return p ? __atomic_load_n(p, __ATOMIC_SEQ_CST) : 0;
}

void queue_store_write_index_screlease(const hsa_queue_t *queue, uint64_t value) {
  if (volatile uint64_t *p = write_id(queue)) __atomic_store_n(p, value, __ATOMIC_SEQ_CST);
}

void queue_store_read_index_screlease(const hsa_queue_t *queue, uint64_t value) {
  if (volatile uint64_t *p = read_id(queue)) __atomic_store_n(p, value, __ATOMIC_SEQ_CST);
}

uint64_t queue_cas_write_index_scacq_screl(const hsa_queue_t *queue, uint64_t expected, uint64_t value) {
  volatile uint64_t *p = write_id(queue);
  if (!p) return 0;
  __atomic_compare_exchange_n(p, &expected, value, false, __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST);
  return expected;  // the value observed
}

uint64_t queue_add_write_index_scacq_screl(const hsa_queue_t *queue, uint64_t value) {
  volatile uint64_t *p = write_id(queue);
  return p ? __atomic_fetch_add(p, value, __ATOMIC_SEQ_CST) : 0;
}

}  // namespace hsad
