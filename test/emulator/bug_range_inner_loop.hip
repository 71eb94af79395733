// Bug: an inner loop over the rows of a 2-D tile runs one row too far
// (k <= rows with rows == K, a trip count known only at run time), built
// with -O2 so the work-item loop around it checks the shadow (ASan's;
// ldsan's own in the LDS-only build) once for both loops
// (retarget_shadow_ranges.cpp; not unrolled, so one access has
// an interval over the two loops' indices). The interval ends
// past the tile, so the loops run with their per-access checks and report it
// (every work-item reads past the tile: which one is first depends on the
// scheduler, work-item loops or fibers).
// RUN: %run %{exe} | FileCheck %s
// RUN: env LDSAN_OPTIONS=emu_fibers=1 %run %{exe} | FileCheck %s
// RUN: %run %{exe:lds-only} | FileCheck %s
// RUN: env LDSAN_OPTIONS=report_format=json %run %{exe} | FileCheck %s --check-prefix=JSON
// RUN: env LDSAN_OPTIONS=report_format=json %run %{exe:lds-only} | FileCheck %s --check-prefix=JSON
// CHECK-NOT: ERROR: AddressSanitizer
// CHECK: ERROR: AddressSanitizer: lds-buffer-overflow on
// CHECK: {{^}}READ of size 4 at{{.*}} in kernel void column_sums<64, 8>
// CHECK: {{^0x[0-9a-f]+ }}{{[^']*}}after LDS variable 'tile' of size 2048
// CHECK: SUMMARY: AddressSanitizer: lds-buffer-overflow
// CHECK: ldsan-test: exit 1
// JSON-NOT: {"ldsan_report"
// JSON: {"ldsan_report":1,
// JSON-SAME: "type":"lds-buffer-overflow"
// JSON-SAME: "kernel":"void column_sums<64, 8>
// JSON-SAME: "variable":"tile"
// JSON-SAME: "access":"read","size":4,
// CFLAGS: -O2
#include "common.h"

template <int WG, int K>
__global__ void column_sums(const float *in, float *out, int rows) {
  __shared__ float tile[K][WG];
  int t = threadIdx.x;
  for (int k = 0; k < K; k++) tile[k][t] = in[(blockIdx.x * K + k) * WG + t];
  __syncthreads();
  float acc = 0;
#pragma clang loop unroll(disable)
  for (int k = 0; k <= rows; k++) acc += tile[k][t];  // BUG: k == rows (K) is past the tile
  out[blockIdx.x * WG + t] = acc;
}

int main() {
  const int WG = 64, K = 8, G = 2;
  float *din, *dout;
  HIP_CHECK(hipMalloc(&din, G * K * WG * sizeof(float)));
  HIP_CHECK(hipMalloc(&dout, G * WG * sizeof(float)));
  HIP_CHECK(hipMemset(din, 0, G * K * WG * sizeof(float)));
  column_sums<WG, K><<<G, WG>>>(din, dout, K);
  LAUNCH_CHECK();
  printf("bug_range_inner_loop: no error detected\n");
  return 0;
}
