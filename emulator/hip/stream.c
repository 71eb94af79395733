/* ldsan CPU emulator, HIP layer: streams and events. Every operation completes
 * before its API call returns, so a stream is an in-order no-op handle and an
 * event is a timestamp taken when it is recorded.
 * Threading: handles are owned by the caller; no shared state. */
#include <stdlib.h>
#include <time.h>

#include "hip_internal.h"

#define LDSAN_EMU_STREAM_MAGIC 0x5354524du  /* 'STRM' */
#define LDSAN_EMU_EVENT_MAGIC 0x45564e54u   /* 'EVNT' */

struct ihipStream_t {
  uint32_t magic;
  unsigned int flags;
  int priority;
};

struct ihipEvent_t {
  uint32_t magic;
  int recorded;
  double ms;  /* CLOCK_MONOTONIC when recorded, milliseconds */
};

/* NULL (the default stream) and live handles are valid; prints otherwise. */
static hipError_t ldsan_emu_check_stream(const char *api, hipStream_t s) {
  if (!s || s->magic == LDSAN_EMU_STREAM_MAGIC) return hipSuccess;
  return ldsan_emu_hip_fail(hipErrorInvalidHandle, api, "%p is not a live stream", (void *)s);
}

static hipError_t ldsan_emu_check_event(const char *api, hipEvent_t e) {
  if (e && e->magic == LDSAN_EMU_EVENT_MAGIC) return hipSuccess;
  return ldsan_emu_hip_fail(hipErrorInvalidHandle, api, "%p is not a live event", (void *)e);
}

hipError_t hipStreamCreateWithPriority(hipStream_t *stream, unsigned int flags, int priority) {
  if (!stream) return ldsan_emu_hip_fail(hipErrorInvalidValue, "hipStreamCreate", "stream is NULL");
  struct ihipStream_t *s = malloc(sizeof *s);
  if (!s) return ldsan_emu_hip_set_error(hipErrorOutOfMemory);
  *s = (struct ihipStream_t){LDSAN_EMU_STREAM_MAGIC, flags, priority};
  ldsan_emu_hip_not_a_leak(s);
  *stream = s;
  return hipSuccess;
}
hipError_t hipStreamCreate(hipStream_t *stream) { return hipStreamCreateWithPriority(stream, 0, 0); }
hipError_t hipStreamCreateWithFlags(hipStream_t *stream, unsigned int flags) {
  return hipStreamCreateWithPriority(stream, flags, 0);
}

hipError_t hipStreamDestroy(hipStream_t stream) {
  if (!stream) return ldsan_emu_hip_fail(hipErrorInvalidHandle, "hipStreamDestroy", "cannot destroy the NULL stream");
  hipError_t err = ldsan_emu_check_stream("hipStreamDestroy", stream);
  if (err != hipSuccess) return err;
  stream->magic = 0;
  free(stream);
  return hipSuccess;
}

hipError_t hipStreamSynchronize(hipStream_t stream) {
  hipError_t err = ldsan_emu_check_stream("hipStreamSynchronize", stream);
  return err != hipSuccess ? err : ldsan_emu_hip_set_error(ldsan_emu_hip_sticky());
}
hipError_t hipStreamQuery(hipStream_t stream) { return ldsan_emu_check_stream("hipStreamQuery", stream); }

hipError_t hipStreamWaitEvent(hipStream_t stream, hipEvent_t event, unsigned int flags) {
  (void)flags;
  hipError_t err = ldsan_emu_check_stream("hipStreamWaitEvent", stream);
  return err != hipSuccess ? err : ldsan_emu_check_event("hipStreamWaitEvent", event);
}

hipError_t hipStreamGetFlags(hipStream_t stream, unsigned int *flags) {
  hipError_t err = ldsan_emu_check_stream("hipStreamGetFlags", stream);
  if (err == hipSuccess && flags) *flags = stream ? stream->flags : 0;
  return err;
}
hipError_t hipStreamGetPriority(hipStream_t stream, int *priority) {
  hipError_t err = ldsan_emu_check_stream("hipStreamGetPriority", stream);
  if (err == hipSuccess && priority) *priority = stream ? stream->priority : 0;
  return err;
}
hipError_t hipDeviceGetStreamPriorityRange(int *least, int *greatest) {
  if (least) *least = 0;
  if (greatest) *greatest = 0;
  return hipSuccess;
}

/* Work queued before the callback is complete already: run it now. */
hipError_t hipStreamAddCallback(hipStream_t stream, hipStreamCallback_t callback, void *user_data,
                                unsigned int flags) {
  (void)flags;
  hipError_t err = ldsan_emu_check_stream("hipStreamAddCallback", stream);
  if (err != hipSuccess) return err;
  if (!callback) return ldsan_emu_hip_fail(hipErrorInvalidValue, "hipStreamAddCallback", "callback is NULL");
  callback(stream, ldsan_emu_hip_sticky(), user_data);
  return hipSuccess;
}

static double ldsan_emu_now_ms(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec / 1e6;
}

hipError_t hipEventCreateWithFlags(hipEvent_t *event, unsigned flags) {
  (void)flags;
  if (!event) return ldsan_emu_hip_fail(hipErrorInvalidValue, "hipEventCreate", "event is NULL");
  struct ihipEvent_t *e = malloc(sizeof *e);
  if (!e) return ldsan_emu_hip_set_error(hipErrorOutOfMemory);
  *e = (struct ihipEvent_t){LDSAN_EMU_EVENT_MAGIC, 0, 0.0};
  ldsan_emu_hip_not_a_leak(e);
  *event = e;
  return hipSuccess;
}
hipError_t hipEventCreate(hipEvent_t *event) { return hipEventCreateWithFlags(event, 0); }

hipError_t hipEventDestroy(hipEvent_t event) {
  hipError_t err = ldsan_emu_check_event("hipEventDestroy", event);
  if (err != hipSuccess) return err;
  event->magic = 0;
  free(event);
  return hipSuccess;
}

hipError_t hipEventRecord(hipEvent_t event, hipStream_t stream) {
  hipError_t err = ldsan_emu_check_event("hipEventRecord", event);
  if (err == hipSuccess) err = ldsan_emu_check_stream("hipEventRecord", stream);
  if (err != hipSuccess) return err;
  event->recorded = 1;
  event->ms = ldsan_emu_now_ms();
  return hipSuccess;
}

hipError_t hipEventSynchronize(hipEvent_t event) { return ldsan_emu_check_event("hipEventSynchronize", event); }
hipError_t hipEventQuery(hipEvent_t event) { return ldsan_emu_check_event("hipEventQuery", event); }

hipError_t hipEventElapsedTime(float *ms, hipEvent_t start, hipEvent_t stop) {
  hipError_t err = ldsan_emu_check_event("hipEventElapsedTime", start);
  if (err == hipSuccess) err = ldsan_emu_check_event("hipEventElapsedTime", stop);
  if (err != hipSuccess) return err;
  if (!ms) return ldsan_emu_hip_set_error(hipErrorInvalidValue);
  if (!start->recorded || !stop->recorded)
    return ldsan_emu_hip_fail(hipErrorInvalidHandle, "hipEventElapsedTime",
                              "the %s event was never recorded", start->recorded ? "stop" : "start");
  *ms = (float)(stop->ms - start->ms);
  return hipSuccess;
}
