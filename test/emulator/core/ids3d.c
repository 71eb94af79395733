/* emulator core test: 3-D grid (3,2,2) of 3-D blocks (4,3,5); every id and size. */
#include "harness.h"

int main(void) {
  enum { GX = 3, GY = 2, GZ = 2, BX = 4, BY = 3, BZ = 5 };
  static unsigned out[4 * GX * GY * GZ * BX * BY * BZ];
  unsigned *p = out;
  void *args[] = {&p};
  CHECK(emu_test_launch(emu_test_kernel("ids"), GX, GY, GZ, BX, BY, BZ, args, 0) == 0, "launch");
  for (unsigned z = 0; z < GZ * BZ; z++)
    for (unsigned y = 0; y < GY * BY; y++)
      for (unsigned x = 0; x < GX * BX; x++) {
        unsigned *o = out + 4 * (x + GX * BX * (y + GY * BY * z));
        CHECK(o[0] == ((x % BX) | (y % BY) << 10 | (z % BZ) << 20), "tid at %u,%u,%u: %#x", x, y, z, o[0]);
        CHECK(o[1] == ((x / BX) | (y / BY) << 10 | (z / BZ) << 20), "bid at %u,%u,%u: %#x", x, y, z, o[1]);
        CHECK(o[2] == (BX | BY << 10 | BZ << 20), "blockDim at %u,%u,%u: %#x", x, y, z, o[2]);
        CHECK(o[3] == (GX | GY << 10 | GZ << 20), "gridDim at %u,%u,%u: %#x", x, y, z, o[3]);
      }
  printf("ids3d: ok\n");
  return 0;
}
