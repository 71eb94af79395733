/* emulator core test: a device trap fails the launch, naming workgroup and work-item. */
#include <string.h>

#include "harness.h"

int main(void) {
  static int out[4 * 32];
  int *p = out;
  void *args[] = {&p};
  uint32_t grid[3] = {4, 1, 1}, block[3] = {32, 1, 1};
  char err[512];
  int rc = ldsan_emu_launch(emu_test_kernel("boom"), grid, block, args, 0, err, sizeof err);
  CHECK(rc != 0, "launch succeeded");
  CHECK(strstr(err, "workgroup (2,0,0) work-item (5,0,0)") != NULL, "err: %s", err);
  printf("trap: ok (%s)\n", err);
  return 0;
}
