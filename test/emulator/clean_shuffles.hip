// Clean: the shuffle idioms of HIP code, on int, float and double (a double
// moves as two 32-bit halves): a __shfl_xor butterfly (every lane ends with
// the wave's sum), a __shfl_down tree (lane 0 has the sum), a __shfl_up
// inclusive scan, a __shfl broadcast of lane 5, and shuffles within groups
// of 16 lanes (the width argument). Two waves per workgroup; every result
// equals a host reference.
// RUN: env LDSAN_OPTIONS=detect_races=1:detect_uninit=1 %run %{exe} | FileCheck %s --implicit-check-not='ERROR: AddressSanitizer' --implicit-check-not='ldsan-emu: error:'
// RUN: env LDSAN_OPTIONS=detect_races=1:detect_uninit=1:emu_fibers=1 %run %{exe} | FileCheck %s --implicit-check-not='ERROR: AddressSanitizer' --implicit-check-not='ldsan-emu: error:'
// RUN: %run %{exe} | FileCheck %s --implicit-check-not='ERROR: AddressSanitizer' --implicit-check-not='ldsan-emu: error:'
// RUN: env LDSAN_OPTIONS=emu_fibers=1 %run %{exe} | FileCheck %s --implicit-check-not='ERROR: AddressSanitizer' --implicit-check-not='ldsan-emu: error:'
// CHECK: ldsan-test: stdout:
// CHECK: clean_shuffles: PASSED
// CHECK: ldsan-test: exit 0
#include "common.h"

#define WG 128
#define GROUPS 3
#define OUTS 6

template <typename T>
__global__ void shuffles(const T *in, T *out) {
  int t = threadIdx.x, lane = t % 64;
  T v = in[blockIdx.x * WG + t];
  T butterfly = v, tree = v, scan = v;
  for (int m = 32; m > 0; m >>= 1) butterfly += __shfl_xor(butterfly, m);
  for (int d = 32; d > 0; d >>= 1) tree += __shfl_down(tree, d);
  for (int d = 1; d < 64; d <<= 1) {
    T up = __shfl_up(scan, d);
    if (lane >= d) scan += up;
  }
  T group_sum = v;
  for (int m = 8; m > 0; m >>= 1) group_sum += __shfl_xor(group_sum, m, 16);
  T *o = out + (blockIdx.x * WG + t) * OUTS;
  o[0] = butterfly;
  o[1] = lane == 0 ? tree : (T)0;
  o[2] = scan;
  o[3] = __shfl(v, 5);
  o[4] = group_sum;
  o[5] = __shfl(v, 3, 16);  // lane 3 of this lane's group of 16
}

template <typename T>
static void run(const char *what) {
  const int n = GROUPS * WG;
  static T in[n], out[n * OUTS], want[n * OUTS];
  for (int i = 0; i < n; i++) in[i] = (T)((i * 37) % 101 - 50);
  for (int i = 0; i < n; i++) {
    int wave = i / 64 * 64, lane = i % 64, group = i / 16 * 16;
    T sum = 0, prefix = 0, gsum = 0;
    for (int j = 0; j < 64; j++) sum += in[wave + j];
    for (int j = 0; j <= lane; j++) prefix += in[wave + j];
    for (int j = 0; j < 16; j++) gsum += in[group + j];
    T *w = want + i * OUTS;
    w[0] = sum;
    w[1] = lane == 0 ? sum : (T)0;
    w[2] = prefix;
    w[3] = in[wave + 5];
    w[4] = gsum;
    w[5] = in[group + 3];
  }
  T *din, *dout;
  HIP_CHECK(hipMalloc(&din, sizeof in));
  HIP_CHECK(hipMalloc(&dout, sizeof out));
  HIP_CHECK(hipMemcpy(din, in, sizeof in, hipMemcpyHostToDevice));
  shuffles<T><<<GROUPS, WG>>>(din, dout);
  LAUNCH_CHECK();
  HIP_CHECK(hipMemcpy(out, dout, sizeof out, hipMemcpyDeviceToHost));
  check_equal(what, out, want, (size_t)n * OUTS);
  HIP_CHECK(hipFree(din));
  HIP_CHECK(hipFree(dout));
}

int main() {
  run<int>("int shuffles");
  run<float>("float shuffles");
  run<double>("double shuffles");
  passed("clean_shuffles");
  return 0;
}
