/* emulator core test: LDS + global atomics across 37 workgroups on both workers. */
#include "harness.h"

int main(void) {
  enum { N = 100003 };
  static unsigned char in[N];
  static unsigned bins[16], want[16];
  for (unsigned i = 0; i < N; i++) in[i] = (unsigned char)(i * 2654435761u >> 13), want[in[i] & 15]++;
  const unsigned char *pi = in;
  unsigned n = N, *pb = bins;
  void *args[] = {&pi, &n, &pb};
  CHECK(emu_test_launch(emu_test_kernel("hist"), 37, 1, 1, 192, 1, 1, args, 0) == 0, "launch");
  for (int b = 0; b < 16; b++) CHECK(bins[b] == want[b], "bin %d: %u != %u", b, bins[b], want[b]);
  printf("atomics: ok\n");
  return 0;
}
