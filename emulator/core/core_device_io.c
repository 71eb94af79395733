/* ldsan emulator core: the device library's output a kernel makes, as the
 * GPU makes it. Device printf (cc_emulate.c compiles the device part with
 * -fno-builtin-printf; the retarget tool renames printf to
 * __ldsan_emu_printf) prints to stdout, one call's output whole, as HIP's
 * printf does. A failed device assert() (the plugin gives __assert_fail
 * this body: instrument/EmulatorCalls.h) prints HIP's line to stderr and
 * traps: the kernel stops and the trap ends the process as on a GPU
 * (LDSAN_OPTIONS=abort_on_trap=0: the launch fails instead). */
#include <stdarg.h>
#include <stdio.h>

#include "core_internal.h"

EMU_API int __ldsan_emu_printf(const char *format, ...) {
  va_list ap;
  va_start(ap, format);
  flockfile(stdout);
  int n = vfprintf(stdout, format, ap);
  funlockfile(stdout);
  va_end(ap);
  return n;
}

EMU_API __attribute__((noreturn)) void __ldsan_emu_assert_fail(const char *assertion, const char *file,
                                                               unsigned line, const char *function) {
  char message[1024];
  /* The line HIP's __assert_fail prints (amd_device_functions.h). */
  snprintf(message, sizeof message, "%s:%u: %s: Device-side assertion `%s' failed.\n", file ? file : "?", line,
           function ? function : "?", assertion ? assertion : "?");
  ldsan_emu_assert_trap(message);
}
