// The LDS checks across more barriers than their epochs count (2^14 on the
// device, device/lds_checks.c): one workgroup passes 100,000 barriers,
// exchanging values through LDS between each two; the checks must rebase
// their epochs on the way without a false report, and still find the race
// planted after the loop when asked (`./lds_many_barriers race`). Built -O2
// with the checks compiled in, in full ASan, LDS-only, and LDS-only for gfx1100
// (wave32: the race is then one between waves, an error).
// RUN: %run %{exe:checks} | FileCheck %s --implicit-check-not=lds-
// RUN: %run %{exe:lds-only+checks} | FileCheck %s --implicit-check-not=lds-
// RUN: %run %{exe:lds-only+wave32+checks} | FileCheck %s --implicit-check-not=lds-
// CHECK: ldsan-test: stdout:
// CHECK-NEXT: lds_many_barriers: PASSED
// CHECK-NEXT: ldsan-test: exit 0
// RUN: %run %{exe:checks} race | FileCheck %s --check-prefix=RACE64
// RUN: %run %{exe:lds-only+checks} race | FileCheck %s --check-prefix=RACE64
// RUN: %run %{exe:lds-only+wave32+checks} race | FileCheck %s --check-prefix=RACE32
// RACE64: WARNING: ldsan: lds-data-race in kernel many(int*, int, int): read-after-write
// RACE32: ERROR: AddressSanitizer: lds-data-race in kernel many
#include "common.h"
#include <string.h>

#define WG 64
#define ROUNDS 50000

__global__ void many(int *out, int rounds, int race) {
  __shared__ int s[WG];
  int t = threadIdx.x, v = 0;
  for (int i = 0; i < rounds; i++) {
    s[t] = i + t;
    __syncthreads();
    v += s[(t + 1) % WG] & 1;
    __syncthreads();
  }
  s[t] = v;
  if (!race) __syncthreads();
  out[t] = s[WG - 1 - t];  // BUG when race: no barrier after the writes (one wave: a same-wave race, a warning)
}

int main(int argc, char **argv) {
  int race = argc > 1 && !strcmp(argv[1], "race");
  int *out, got[WG];
  HIP_CHECK(hipMalloc(&out, sizeof got));
  many<<<1, WG>>>(out, ROUNDS, race);
  LAUNCH_CHECK();
  HIP_CHECK(hipMemcpy(got, out, sizeof got, hipMemcpyDeviceToHost));
  for (int t = 0; t < WG; t++)
    if (got[t] != ROUNDS / 2) { printf("lds_many_barriers: out[%d] = %d, want %d\n", t, got[t], ROUNDS / 2); return 1; }
  printf("lds_many_barriers: PASSED\n");
  return 0;
}
