/* ldsan HSA tools library: no report is lost when the process aborts. The HIP
 * runtime aborts on an error in any of its queues (CLR's callbackQueue prints
 * "aborting with error" and calls abort(), ROCm 5.2-6.3), ROCr aborts on an
 * error in a cooperative queue, whose error callback it never calls
 * (Queue::DefaultErrorHandler), and on a GPU memory fault no system event
 * handler claimed (Runtime::VMFaultHandler). abort() runs no exit handler, so
 * the reports still in a channel and the code object images written for the
 * symbolizer would be lost. A SIGABRT handler drains every channel (a fatal
 * report ends the process as every ldsan report does), removes the images,
 * then lets the abort go on with the action that was there before. A GPU
 * memory fault reaches no queue callback (ROCr AqlQueue::ExceptionHandler
 * suppresses it): ROCr calls the system event handlers first, so ldsan's
 * handler drains there too, before ROCr's message; it never claims the event
 * (a handler returning success stops ROCr's abort, Runtime::VMFaultHandler).
 * Draining takes locks: a thread that aborts while it holds the report lock
 * would wait for itself; the handler only runs once per process. */
#define _GNU_SOURCE
#include <signal.h>
#include <stdatomic.h>
#include <string.h>

#include "hsa_tool.h"

static struct sigaction previous;
static atomic_int installed, handled;

static void on_abort(int sig, siginfo_t *info, void *context) {
  if (!atomic_exchange(&handled, 1)) {
    ldsan_host_drain_all();  /* does not return if a report stops the program */
    ldsan_hsa_symbols_unlink_all();
  }
  /* abort() raises SIGABRT again when a handler returns: with this action. */
  sigaction(SIGABRT, &previous, NULL);
  if ((previous.sa_flags & SA_SIGINFO) && previous.sa_sigaction) previous.sa_sigaction(sig, info, context);
  else if (!(previous.sa_flags & SA_SIGINFO) && previous.sa_handler != SIG_DFL && previous.sa_handler != SIG_IGN)
    previous.sa_handler(sig);
}

static hsa_status_t on_system_event(const hsa_amd_event_t *event, void *data) {
  (void)data;
  if (event && event->event_type == HSA_AMD_GPU_MEMORY_FAULT_EVENT) ldsan_host_drain_all();
  return HSA_STATUS_ERROR;  /* not handled: ROCr goes on as without ldsan */
}

void ldsan_hsa_abort_watch_start(void) {
  /* Once per runtime: ROCr forgets its handlers with the runtime at the last
   * hsa_shut_down, and has no call to remove one. */
  if (ldsan_hsa.amd_register_system_event_handler) ldsan_hsa.amd_register_system_event_handler(on_system_event, NULL);
  if (atomic_exchange(&installed, 1)) return;
  struct sigaction sa;
  memset(&sa, 0, sizeof sa);
  sa.sa_sigaction = on_abort;
  sa.sa_flags = SA_SIGINFO | SA_ONSTACK;
  sigemptyset(&sa.sa_mask);
  if (sigaction(SIGABRT, &sa, &previous) != 0) atomic_store(&installed, 0);
}

void ldsan_hsa_abort_watch_stop(void) {
  if (!atomic_exchange(&installed, 0)) return;
  struct sigaction now;
  /* Put the old action back only if nobody replaced ldsan's since. */
  if (sigaction(SIGABRT, NULL, &now) == 0 && (now.sa_flags & SA_SIGINFO) && now.sa_sigaction == on_abort)
    sigaction(SIGABRT, &previous, NULL);
}
