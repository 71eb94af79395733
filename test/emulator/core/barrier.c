/* emulator core test: s_barrier semantics (reverse needs a real barrier; a tree
 * reduction over 512 workgroups on both workers; early-exiting work-items). */
#include "harness.h"

int main(void) {
  enum { G = 512, B = 256 };
  static int in[G * B], out[G * B], sums[G];
  for (int i = 0; i < G * B; i++) in[i] = (i * 7919) % 1000 - 500;

  const int *pin = in;
  int *pout = out, *psum = sums;
  void *rargs[] = {&pin, &pout};
  CHECK(emu_test_launch(emu_test_kernel("reverse"), 4, 1, 1, B, 1, 1, rargs, 0) == 0, "launch");
  for (int g = 0; g < 4; g++)
    for (int t = 0; t < B; t++)
      CHECK(out[g * B + t] == in[g * B + B - 1 - t], "reverse g=%d t=%d: %d != %d", g, t, out[g * B + t],
            in[g * B + B - 1 - t]);

  void *sargs[] = {&pin, &psum};
  CHECK(emu_test_launch(emu_test_kernel("reduce"), G, 1, 1, B, 1, 1, sargs, 0) == 0, "launch");
  for (int g = 0; g < G; g++) {
    int want = 0;
    for (int t = 0; t < B; t++) want += in[g * B + t];
    CHECK(sums[g] == want, "reduce g=%d: %d != %d", g, sums[g], want);
  }

  int stop = 40;
  void *eargs[] = {&pout, &stop};
  CHECK(emu_test_launch(emu_test_kernel("early_exit"), 1, 1, 1, 128, 1, 1, eargs, 0) == 0, "launch");
  for (int t = stop; t < 128; t++)
    CHECK(out[t] == stop + (t - stop + 1) % (128 - stop), "early_exit t=%d: %d", t, out[t]);
  /* v after the third barrier: v[t] = 128 - t; work-item t < stop ends with
   * v[(t + 1) % 128] + v[(t + 2) % stop]. */
  for (stop = 1; stop <= 128; stop += 37) {
    for (int t = 0; t < 128; t++) out[t] = -1;
    void *cargs[] = {&pout, &stop};
    CHECK(emu_test_launch(emu_test_kernel("chain_then_exit"), 3, 1, 1, 128, 1, 1, cargs, 0) == 0, "launch");
    for (int t = 0; t < 128; t++) {
      int want = t < stop ? 128 - (t + 1) % 128 + 128 - (t + 2) % stop : -1;
      CHECK(out[t] == want, "chain_then_exit stop=%d t=%d: %d != %d", stop, t, out[t], want);
    }
  }
  printf("barrier: ok\n");
  return 0;
}
