// Bug: each work-item reads its right neighbour with no guard, built with -O2
// so the read's work-item loop checks ASan's shadow once for the whole loop
// (retarget_shadow_ranges.cpp). The interval reaches one element past buf,
// so the loop runs with its per-access checks and work-item 255 is reported
// (-O2 reads buf[t] and buf[t + 1] as one 8-byte load).
// EXPECT: lds-buffer-overflow
// EXPECT-ACCESS: READ of size 8
// EXPECT-WORKITEM: (255,0,0)
// EXPECT-KERNEL: void right_neighbour<256>
// EXPECT-VAR: buf
// EXPECT-LOCATION: 0 bytes after
// EXPECT-FRAME: in void right_neighbour<256>(float const*, float*) test/emulator/bug_range_overrun.hip:23
// EXPECT-EXIT: 1
// CFLAGS: -O2
#include "common.h"

template <int WG>
__global__ void right_neighbour(const float *in, float *out) {
  __shared__ float buf[WG];
  int t = threadIdx.x;
  buf[t] = in[blockIdx.x * WG + t];
  __syncthreads();
  out[blockIdx.x * WG + t] = buf[t + 1] - buf[t];  // BUG: t == WG - 1 reads buf[WG]
}

int main() {
  const int WG = 256, G = 4;
  float *din, *dout;
  HIP_CHECK(hipMalloc(&din, G * WG * sizeof(float)));
  HIP_CHECK(hipMalloc(&dout, G * WG * sizeof(float)));
  HIP_CHECK(hipMemset(din, 0, G * WG * sizeof(float)));
  right_neighbour<WG><<<G, WG>>>(din, dout);
  LAUNCH_CHECK();
  printf("bug_range_overrun: no error detected\n");
  return 0;
}
