// hsa_double/queue_errors.cpp — how an error in a hardware queue reaches the
// program: ROCr's AqlQueue::ExceptionHandler (core/runtime/amd_aql_queue.cpp,
// the exception-debugging path of every release, the one current KFDs take).
//
// On hardware the trap handler or the CP stops the wave, KFD writes exception
// bits (EC_*) into the queue's exception signal, and ROCr's handler for that
// signal runs on the async-events thread (async.cpp; the signals thread from
// 6.2.1). The double's packet processor plays the CP and KFD (queue_raise);
// the handler is ROCr's:
//  - the lowest set code that has a status in ROCr's QueueErrors table
//    decides the status: EC_QUEUE_WAVE_ABORT (s_trap 2, llvm.trap) and
//    EC_QUEUE_WAVE_TRAP give HSA_STATUS_ERROR_EXCEPTION;
//  - HSA_STATUS_ERROR_MEMORY_FAULT (EC_QUEUE_WAVE_MEMORY_VIOLATION) is not
//    reported here: "more useful when reported through the system error
//    handler" (vm_fault.cpp); the handler just returns;
//  - otherwise the queue is suspended (Suspend(): the CP schedules it no more;
//    it is not destroyed), the queue's callback runs, and the handler removes
//    itself: one error per queue. ROCr never aborts here (its std::abort after
//    a fatal error is commented out in every release).
// hsa_queue_create with a NULL callback installs core::Queue::
// DefaultErrorHandler (core/runtime/hsa.cpp hsa_queue_create, all releases):
// it prints "Queue at %p inactivated due to async error:\n\t%s\n" and aborts,
// unless HSA_ENABLE_QUEUE_FAULT_MESSAGE=0, when it does nothing at all
// (core/runtime/queue.cpp Queue::DefaultErrorHandler, all releases).
#include <cstdio>
#include <cstdlib>

#include "impl.h"

namespace hsad {
namespace {

struct QueueError {
  int code;
  hsa_status_t status;
};
// ROCr's QueueErrors table (AqlQueue::ExceptionHandler), in its order.
const QueueError kQueueErrors[] = {
    {kEcWaveAbort, HSA_STATUS_ERROR_EXCEPTION},
    {kEcWaveTrap, HSA_STATUS_ERROR_EXCEPTION},
    {3, HSA_STATUS_ERROR_EXCEPTION},  // EC_QUEUE_WAVE_MATH_ERROR
    {4, hsa_status_t(HSA_STATUS_ERROR_ILLEGAL_INSTRUCTION)},
    {kEcWaveMemoryViolation, hsa_status_t(HSA_STATUS_ERROR_MEMORY_FAULT)},
    {6, hsa_status_t(HSA_STATUS_ERROR_MEMORY_APERTURE_VIOLATION)},  // EC_QUEUE_WAVE_APERTURE_VIOLATION
    {kEcDispatchDimInvalid, HSA_STATUS_ERROR_INCOMPATIBLE_ARGUMENTS},
    {kEcGroupSegmentSizeInvalid, HSA_STATUS_ERROR_INVALID_ALLOCATION},
    {kEcDispatchCodeInvalid, HSA_STATUS_ERROR_INVALID_CODE_OBJECT},
    {kEcPacketUnsupported, HSA_STATUS_ERROR_INVALID_PACKET_FORMAT},
    {kEcWorkGroupSizeInvalid, HSA_STATUS_ERROR_INVALID_ARGUMENT},
    {22, HSA_STATUS_ERROR_INVALID_ISA},  // EC_QUEUE_PACKET_DISPATCH_REGISTER_SIZE_INVALID
    {kEcVendorUnsupported, HSA_STATUS_ERROR_INVALID_PACKET_FORMAT},
    {31, HSA_STATUS_ERROR},  // EC_QUEUE_PREEMPTION_ERROR
    {33, hsa_status_t(HSA_STATUS_ERROR_MEMORY_APERTURE_VIOLATION)},  // EC_DEVICE_MEMORY_VIOLATION
    {34, HSA_STATUS_ERROR},
    {35, HSA_STATUS_ERROR},
    {36, HSA_STATUS_ERROR},
    {50, HSA_STATUS_ERROR},
};

// AqlQueue::ExceptionHandler: runs on the async-events thread.
bool exception_handler(hsa_signal_value_t bits, void *arg) {
  auto *q = static_cast<Queue *>(arg);
  hsa_status_t status = HSA_STATUS_ERROR;
  for (const QueueError &e : kQueueErrors)
    if (uint64_t(bits) & ec_bit(e.code)) {
      status = e.status;
      break;
    }
  if (status == hsa_status_t(HSA_STATUS_ERROR_MEMORY_FAULT)) return false;  // the VM-fault handler reports it
  q->failed = true;  // Suspend()
  ErrorCallback cb = q->callback;
  hsa_queue_t *source = q->reported;
  void *data = q->callback_data;
  signal_store(q->exception, 0);  // (ROCr stores it after the callback; the callback may destroy q)
  cb(status, source, data);
  return false;
}

}  // namespace

void default_error_handler(hsa_status_t status, hsa_queue_t *source, void *data) {
  (void)data;
  if (!flags().queue_fault_message) return;
  const char *msg = "UNKNOWN ERROR";
  status_string(status, &msg);
  fprintf(stderr, "Queue at %p inactivated due to async error:\n\t%s\n", static_cast<void *>(source), msg);
  abort();
}

void queue_errors_attach(Queue *q) {
  q->exception = signal_new(0);
  q->exception->queue_owned = true;
  if (!q->callback) q->callback = default_error_handler;
  async_add(q->exception, HSA_SIGNAL_CONDITION_NE, 0, exception_handler, q, Lane::Signals);
}

void queue_raise(Queue *q, uint64_t bits) {
  q->failed = true;  // the CP takes no further packet from it
  int64_t old = __atomic_fetch_or(&q->exception->abi.value, int64_t(bits), __ATOMIC_SEQ_CST);
  (void)old;
  wake_waiters();
}

}  // namespace hsad
