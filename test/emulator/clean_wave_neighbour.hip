// Clean: lanes of one wave exchange values through LDS with no barrier and
// nothing volatile: each lane writes its slot and at once reads its
// partner's, then values travel around the wave one lane per step through a
// chain of arrays. On the GPU the wave's lanes execute each statement
// together, so every read sees the write of the step before; the result
// equals a host reference that models that. (Each step has its own array: a
// loop over one array would let the compiler reuse loads across steps, as it
// may for data races, and the answer would depend on the compiler.)
// RUN: %run %{exe} | FileCheck %s --implicit-check-not='ERROR: AddressSanitizer' --implicit-check-not='ldsan-emu: error:'
// RUN: env LDSAN_OPTIONS=emu_fibers=1 %run %{exe} | FileCheck %s --implicit-check-not='ERROR: AddressSanitizer' --implicit-check-not='ldsan-emu: error:'
// CHECK: ldsan-test: stdout:
// CHECK: clean_wave_neighbour: PASSED
// CHECK: ldsan-test: exit 0
#include "common.h"

#define WG 128
#define STEPS 5

template <typename T>
__global__ void exchange(const T *in, T *out) {
  __shared__ T s[STEPS + 1][WG];
  int t = threadIdx.x, base = t & ~63, lane = t & 63;
  s[0][t] = in[blockIdx.x * WG + t];
  T pair = s[0][base + (lane ^ 1)];        // the partner's value, just written
  for (int k = 0; k < STEPS; k++)          // around the wave, one lane per step
    s[k + 1][t] = s[k][base + ((lane + 1) & 63)];
  out[blockIdx.x * WG + t] = pair * 1000 + s[STEPS][t];
}

template <typename T>
static void run(const char *what) {
  const int groups = 3;
  static T in[groups * WG], out[groups * WG], want[groups * WG];
  for (int i = 0; i < groups * WG; i++) in[i] = (T)(i % 97);
  for (int i = 0; i < groups * WG; i++) {
    int base = i & ~63, lane = i & 63;
    want[i] = in[base + (lane ^ 1)] * 1000 + in[base + ((lane + STEPS) & 63)];
  }
  T *din, *dout;
  HIP_CHECK(hipMalloc(&din, sizeof in));
  HIP_CHECK(hipMalloc(&dout, sizeof out));
  HIP_CHECK(hipMemcpy(din, in, sizeof in, hipMemcpyHostToDevice));
  exchange<T><<<groups, WG>>>(din, dout);
  LAUNCH_CHECK();
  HIP_CHECK(hipMemcpy(out, dout, sizeof out, hipMemcpyDeviceToHost));
  check_equal(what, out, want, groups * WG);
  HIP_CHECK(hipFree(din));
  HIP_CHECK(hipFree(dout));
}

int main() {
  run<int>("int exchange");
  run<float>("float exchange");
  passed("clean_wave_neighbour");
  return 0;
}
