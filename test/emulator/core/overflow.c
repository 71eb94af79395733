/* emulator core test: the overflow is reported with the right workgroup/work-item
 * (the hook prints it; the test command checks it and the exit status). */
#include "harness.h"

int main(void) {
  static int out[3 * 4 * 64];
  int *p = out;
  void *args[] = {&p};
  emu_test_launch(emu_test_kernel("planted"), 3, 4, 1, 64, 1, 1, args, 0);
  printf("overflow: no report\n");
  return 0;
}
