/* ldsan CPU emulator, HIP layer: error state (per-thread last error, process-wide
 * sticky error after a device fault) and hipGetErrorName/hipGetErrorString.
 * Threading: last error is thread-local like HIP's; the sticky error is atomic. */
#include <stdarg.h>
#include <stdio.h>

#include "hip_internal.h"

/* HIP_ERROR(enum, description) for every hipError_t a program is likely to see. */
#define LDSAN_EMU_HIP_ERRORS(X)                                                       \
  X(hipSuccess, "no error")                                                           \
  X(hipErrorInvalidValue, "invalid argument")                                         \
  X(hipErrorOutOfMemory, "out of memory")                                             \
  X(hipErrorNotInitialized, "initialization error")                                   \
  X(hipErrorInvalidConfiguration, "invalid configuration argument")                   \
  X(hipErrorInvalidPitchValue, "invalid pitch argument")                              \
  X(hipErrorInvalidSymbol, "invalid device symbol")                                   \
  X(hipErrorInvalidDevicePointer, "invalid device pointer")                           \
  X(hipErrorInvalidMemcpyDirection, "invalid copy direction for memcpy")              \
  X(hipErrorMissingConfiguration, "__global__ function call is not configured")       \
  X(hipErrorPriorLaunchFailure, "unspecified launch failure in prior launch")         \
  X(hipErrorInvalidDeviceFunction, "invalid device function")                         \
  X(hipErrorNoDevice, "no ROCm-capable device is detected")                           \
  X(hipErrorInvalidDevice, "invalid device ordinal")                                  \
  X(hipErrorInvalidImage, "device kernel image is invalid")                           \
  X(hipErrorInvalidContext, "invalid device context")                                 \
  X(hipErrorNoBinaryForGpu, "no kernel image is available for execution on the device") \
  X(hipErrorInvalidHandle, "invalid resource handle")                                 \
  X(hipErrorNotFound, "named symbol not found")                                       \
  X(hipErrorNotReady, "device not ready")                                             \
  X(hipErrorIllegalAddress, "an illegal memory access was encountered")               \
  X(hipErrorLaunchOutOfResources, "too many resources requested for launch")          \
  X(hipErrorLaunchFailure, "unspecified launch failure")                              \
  X(hipErrorAssert, "device-side assert triggered")                                   \
  X(hipErrorNotSupported, "operation not supported")                                  \
  X(hipErrorUnknown, "unknown error")

static _Thread_local hipError_t ldsan_emu_last_error = hipSuccess;
static int ldsan_emu_sticky_error = hipSuccess;

hipError_t ldsan_emu_hip_set_error(hipError_t err) {
  if (err != hipSuccess) ldsan_emu_last_error = err;
  return err;
}

hipError_t ldsan_emu_hip_fail(hipError_t err, const char *api, const char *fmt, ...) {
  char msg[1024];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(msg, sizeof msg, fmt, ap);
  va_end(ap);
  fprintf(stderr, LDSAN_EMU_PREFIX ": error: %s: %s\n", api, msg);
  fflush(stderr);
  return ldsan_emu_hip_set_error(err);
}

void ldsan_emu_hip_set_sticky(hipError_t err) {
  int expected = hipSuccess;
  __atomic_compare_exchange_n(&ldsan_emu_sticky_error, &expected, (int)err, 0, __ATOMIC_SEQ_CST,
                              __ATOMIC_SEQ_CST);
  ldsan_emu_hip_set_error(err);
}

hipError_t ldsan_emu_hip_sticky(void) {
  return (hipError_t)__atomic_load_n(&ldsan_emu_sticky_error, __ATOMIC_SEQ_CST);
}

hipError_t hipGetLastError(void) {
  hipError_t err = ldsan_emu_last_error;
  ldsan_emu_last_error = ldsan_emu_hip_sticky();  /* a device fault never clears */
  return err;
}

hipError_t hipPeekAtLastError(void) { return ldsan_emu_last_error; }

const char *hipGetErrorName(hipError_t err) {
  switch ((int)err) {
#define LDSAN_EMU_NAME_CASE(e, d) case e: return #e;
    LDSAN_EMU_HIP_ERRORS(LDSAN_EMU_NAME_CASE)
#undef LDSAN_EMU_NAME_CASE
  default: return "hipErrorUnknown";
  }
}

const char *hipGetErrorString(hipError_t err) {
  switch ((int)err) {
#define LDSAN_EMU_STRING_CASE(e, d) case e: return d;
    LDSAN_EMU_HIP_ERRORS(LDSAN_EMU_STRING_CASE)
#undef LDSAN_EMU_STRING_CASE
  default: return "unknown error";
  }
}
