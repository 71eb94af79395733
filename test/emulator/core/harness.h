/* emulator core test harness: launches retargeted kernels through ldsan_emu_launch
 * directly (no HIP layer) and checks results field by field. Report records
 * reach stdout through the core's report hook as one line each:
 *   REPORT wg=X,Y,Z wi=X,Y,Z size=N write=W shadow=0xSS
 * so a test's command can assert on them after an ldsan exit. */
#ifndef EMUCORE_HARNESS_H
#define EMUCORE_HARNESS_H

#include <stdio.h>
#include <stdlib.h>

#include "ldsan/emu/emu.h"
#include "ldsan/abi.h"

#define CHECK(cond, ...)                                                      \
  do {                                                                        \
    if (!(cond)) {                                                            \
      fprintf(stderr, "%s:%d: CHECK failed: %s: ", __FILE__, __LINE__, #cond); \
      fprintf(stderr, __VA_ARGS__);                                           \
      fputc('\n', stderr);                                                    \
      exit(1);                                                                \
    }                                                                         \
  } while (0)

static void emu_test_hook(const struct ldsan_report_record *r, void *ctx) {
  (void)ctx;
  printf("REPORT wg=%u,%u,%u wi=%u,%u,%u size=%llu write=%u shadow=0x%02x\n", r->workgroup_id[0],
         r->workgroup_id[1], r->workgroup_id[2], r->workitem_id[0], r->workitem_id[1], r->workitem_id[2],
         (unsigned long long)r->size, r->flags & LDSAN_ACCESS_WRITE ? 1u : 0u, r->shadow_byte);
  fflush(stdout);
}

/* Finds kernel `name` or fails the test. */
static inline const ldsan_emu_kernel *emu_test_kernel(const char *name) {
  const ldsan_emu_kernel *k = ldsan_emu_find_kernel(name);
  CHECK(k != NULL, "kernel %s not registered", name);
  ldsan_emu_set_report_hook(emu_test_hook, NULL);
  return k;
}

/* Launches and returns the launch status; err printed if nonzero. */
static inline int emu_test_launch(const ldsan_emu_kernel *k, unsigned gx, unsigned gy, unsigned gz, unsigned bx,
                           unsigned by, unsigned bz, void **args, unsigned dyn) {
  uint32_t grid[3] = {gx, gy, gz}, block[3] = {bx, by, bz};
  char err[512];
  int rc = ldsan_emu_launch(k, grid, block, args, dyn, err, sizeof err);
  if (rc) printf("LAUNCH-ERROR %s\n", err);
  return rc;
}

#endif /* EMUCORE_HARNESS_H */
