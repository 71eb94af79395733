/* emulator core test: dynamic LDS of 1000 bytes, seen exactly by every workgroup. */
#include "harness.h"

int main(void) {
  enum { G = 8, DYN = 1000 };
  static int out[G];
  static unsigned seen[G];
  int *po = out;
  unsigned *ps = seen;
  void *args[] = {&po, &ps};
  CHECK(emu_test_launch(emu_test_kernel("dyn"), G, 1, 1, 64, 1, 1, args, DYN) == 0, "launch");
  for (int g = 0; g < G; g++) {
    int want = 0;
    for (int i = 0; i < DYN / 4; i++) want += i * 3 + g;
    CHECK(seen[g] == DYN, "g=%d saw dynamic size %u", g, seen[g]);
    CHECK(out[g] == want, "g=%d sum %d != %d", g, out[g], want);
  }
  printf("dynlds: ok\n");
  return 0;
}
