/* ldsan host library: where a reported dispatch was launched. A backend takes
 * the launching host thread's stack at the launch (ldsan_host_launch_stack) and
 * passes it in ldsan_dispatch_info.launch_pcs; reports print it under the device
 * frames, like ASan's "allocated by thread here:" stacks: symbolized as host code, with the leading frames of the HIP
 * and HSA runtimes, of ldsan itself and of the compiler's launch stub dropped,
 * so the first frame is the program's own launch. Threading: called with the
 * report mutex held. */
#define _GNU_SOURCE
#include <execinfo.h>
#include <string.h>

#include "internal.h"

uint32_t ldsan_host_launch_stack(uint64_t *pcs, uint32_t max) {
  void *stack[LDSAN_MAX_LAUNCH_FRAMES];
  int depth = backtrace(stack, (int)(max < LDSAN_MAX_LAUNCH_FRAMES ? max : LDSAN_MAX_LAUNCH_FRAMES));
  for (int i = 0; i < depth; i++) pcs[i] = (uint64_t)(uintptr_t)stack[i];
  return depth > 0 ? (uint32_t)depth : 0;
}

/* Frames before the program's own code: backtrace itself (ASan intercepts it),
 * the runtimes, ldsan, the device stub. */
static int runtime_frame(const ldsan_frame *f) {
  static const char *const functions[] = {"__interceptor_", "backtrace", "ldsan_", "__ldsan", "hip", "__hip", "ihip", "hsa_", "hsad::",
                                          "amd::", "roc::", "__device_stub__", "void __device_stub__"};
  static const char *const modules[] = {"libamdhip64", "libhsa-runtime64", "libldsan-host", "libhsa-double"};
  for (size_t i = 0; f->function && i < sizeof functions / sizeof *functions; i++)
    if (!strncmp(f->function, functions[i], strlen(functions[i]))) return 1;
  const char *base = f->module ? strrchr(f->module, '/') : NULL;
  base = base ? base + 1 : f->module;
  for (size_t i = 0; base && i < sizeof modules / sizeof *modules; i++)
    if (!strncmp(base, modules[i], strlen(modules[i]))) return 1;
  return 0;
}

void ldsan_print_host_frame(FILE *out, int index, uint64_t pc, const ldsan_frame *f) {
  fprintf(out, "    #%d 0x%llx ", index, (unsigned long long)pc);
  if (f->function) fprintf(out, "in %s", f->function);
  if (f->file && f->line) {
    fprintf(out, " %s:%u", f->file, f->line);
    if (f->column) fprintf(out, ":%u", f->column);
    fputc('\n', out);
  } else if (f->module) {
    fprintf(out, " (%s+0x%llx)\n", f->module, (unsigned long long)f->module_offset);
  } else {
    fprintf(out, "%s\n", f->function ? "" : " (<unknown module>)");
  }
}

void ldsan_print_launch_site(FILE *out, const ldsan_dispatch_info *d, const char *kernel) {
  if (!d || !d->launch_pcs || !d->launch_depth) return;
  uint32_t depth = d->launch_depth < LDSAN_MAX_LAUNCH_FRAMES ? d->launch_depth : LDSAN_MAX_LAUNCH_FRAMES;
  int printed = 0, skipping = 1;
  for (uint32_t i = 0; i < depth; i++) {
    ldsan_frame frames[LDSAN_MAX_FRAMES];
    int n = ldsan_symbolize_host_pc(d->launch_pcs[i], frames, LDSAN_MAX_FRAMES);
    if (n <= 0) continue;
    if (skipping && runtime_frame(&frames[n - 1])) continue;  /* the outermost of its inlined frames */
    if (skipping) fprintf(out, "\nkernel %s launched by host code here:\n", kernel);
    skipping = 0;
    for (int k = 0; k < n; k++) ldsan_print_host_frame(out, printed++, d->launch_pcs[i], &frames[k]);
  }
}
