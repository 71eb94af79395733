// Bug only one workgroup of a 2-D grid hits: the image is 64 x 48 pixels in
// 16x16 tiles, and a halo fix-up meant for the right edge is keyed on the
// wrong block row, so only workgroup (3,1) — and in it only work-item (15,15)
// — writes tile[15][16], past the end of the row-padded tile.
// RUN: %run %{exe} | FileCheck %s
// RUN: env LDSAN_OPTIONS=emu_fibers=1 %run %{exe} | FileCheck %s
// RUN: %run %{exe:lds-only} | FileCheck %s
// RUN: env LDSAN_OPTIONS=emu_fibers=1 %run %{exe:lds-only} | FileCheck %s
// RUN: %run %{exe:lds-only+wave32} | FileCheck %s
// RUN: env LDSAN_OPTIONS=emu_fibers=1 %run %{exe:lds-only+wave32} | FileCheck %s
// RUN: env LDSAN_OPTIONS=report_format=json %run %{exe} | FileCheck %s --check-prefix=JSON
// RUN: env LDSAN_OPTIONS=report_format=json %run %{exe:lds-only} | FileCheck %s --check-prefix=JSON
// RUN: env LDSAN_OPTIONS=report_format=json %run %{exe:lds-only+wave32} | FileCheck %s --check-prefix=JSON
// CHECK-NOT: ERROR: AddressSanitizer
// CHECK: ERROR: AddressSanitizer: lds-buffer-overflow on
// CHECK: {{^}}WRITE of size 4 at{{.*}} thread (work-item) (15,15,0){{.*}} of workgroup (3,1,0){{.*}} in kernel blur
// CHECK: {{^    #0 0x[0-9a-f]+ }}in blur(float const*, float*, int) test/emulator/bug_one_workgroup_2d.hip:[[@LINE+24]]:66{{(:[0-9]+)?$}}
// CHECK-NOT: {{^ *#[0-9]+ }}
// CHECK: launched by host code here:
// CHECK: {{^0x[0-9a-f]+ }}{{[^']*}}0 bytes after{{[^']*}}'tile'
// CHECK: SUMMARY: AddressSanitizer: lds-buffer-overflow
// CHECK: ldsan-test: exit 1
// JSON-NOT: {"ldsan_report"
// JSON: {"ldsan_report":1,
// JSON-SAME: "type":"lds-buffer-overflow"
// JSON-SAME: "kernel":"blur
// JSON-SAME: "variable":"tile"
// JSON-SAME: "access":"write","size":4,
// JSON-SAME: "workgroup":[3,1,0]
// JSON-SAME: "threads":{{\[\[}}15,15,0]
// JSON-SAME: "location":"test/emulator/bug_one_workgroup_2d.hip:[[@LINE+10]]:66
#include "common.h"

#define T 16
__global__ void blur(const float *in, float *out, int w) {
  __shared__ float tile[T][T];
  int tx = threadIdx.x, ty = threadIdx.y;
  int x = blockIdx.x * T + tx, y = blockIdx.y * T + ty;
  tile[ty][tx] = in[y * w + x];
  bool right_edge = blockIdx.x == gridDim.x - 1 && blockIdx.y == 1;  // BUG: should not test blockIdx.y
  if (right_edge && tx == T - 1 && ty == T - 1) tile[ty][tx + 1] = 0;
  __syncthreads();
  float left = tx > 0 ? tile[ty][tx - 1] : tile[ty][tx];
  out[y * w + x] = 0.5f * (left + tile[ty][tx]);
}

int main() {
  const int w = 64, h = 48;
  float *din, *dout;
  HIP_CHECK(hipMalloc(&din, w * h * sizeof(float)));
  HIP_CHECK(hipMalloc(&dout, w * h * sizeof(float)));
  HIP_CHECK(hipMemset(din, 0, w * h * sizeof(float)));
  blur<<<dim3(w / T, h / T), dim3(T, T)>>>(din, dout, w);
  LAUNCH_CHECK();
  printf("bug_one_workgroup_2d: no error detected\n");
  return 0;
}
