// Clean: an LDS bandwidth loop as benchmarks write it. Each work-item swaps
// its own two elements, s[tid] and s[tid + blockDim.x], many times between
// two barriers; no lane touches another's slots, so the kernel needs no
// lockstep and runs in plain work-item loops (make bench times it:
// bench_lds_swap.hip). Its twin doubles each slot, then reads the next
// lane's (s[tid + 1], no barrier): lanes read what others wrote, so it runs
// in lockstep. Results checked against a CPU reference.
// RUN: %run %{exe} | FileCheck %s
// RUN: env LDSAN_OPTIONS=emu_fibers=1 %run %{exe} | FileCheck %s
// RUN: %run %{exe:lds-only+wave32} | FileCheck %s
// CHECK-NOT: ERROR: AddressSanitizer
// CHECK: ldsan-test: stdout:
// CHECK-NEXT: clean_lds_own_slots: PASSED
// CHECK-NEXT: ldsan-test: exit 0
// The mode each kernel gets (the builds' logs, LDSAN_EMU_VERBOSE=1):
// RUN: FileCheck %s --check-prefix=MODE --input-file %{exe}.log
// RUN: FileCheck %s --check-prefix=MODE --input-file %{exe:lds-only+wave32}.log
// MODE-DAG: kernel '_Z8own_swapIfEvPKT_PS0_i': work-item loops ({{[0-9]+}} regions,
// MODE-DAG: kernel '_Z8own_swapIdEvPKT_PS0_i': work-item loops ({{[0-9]+}} regions,
// MODE-DAG: kernel '_Z10next_shiftPiS_': work-item loops, waves in lockstep ({{.*}}), because of an LDS load that can follow an LDS store of another lane
#include <vector>

#include "common.h"

template <typename T>
__global__ void own_swap(const T *in, T *out, int iters) {
  extern __shared__ unsigned char raw[];
  T *s = reinterpret_cast<T *>(raw);
  int t = threadIdx.x, n = blockDim.x;
  size_t g = (size_t)blockIdx.x * 2 * n;
  s[t] = in[g + t];
  s[t + n] = in[g + t + n];
  __syncthreads();
  for (int it = 0; it < iters; it++) {
    T a = s[t];
    s[t] = s[t + n];
    s[t + n] = a + T(1);
  }
  __syncthreads();
  out[g + t] = s[t];
  out[g + t + n] = s[t + n];
}

__global__ void next_shift(int *data, int *out) {
  __shared__ int s[65];
  int t = threadIdx.x;
  s[t] = data[t];
  if (t == 0) s[64] = 1000;
  __syncthreads();
  s[t] = s[t] * 2;
  out[t] = s[t + 1];  // the next lane's doubled value: its wave stored it one statement earlier
}

template <typename T>
static void run_swap(const char *what, int iters) {
  const int groups = 5, wg = 96;  // one and a half waves
  std::vector<T> in(groups * 2 * wg), got(in.size()), want(in.size());
  for (size_t i = 0; i < in.size(); i++) in[i] = T(i % 251);
  for (int g = 0; g < groups; g++)
    for (int t = 0; t < wg; t++) {
      T lo = in[g * 2 * wg + t], hi = in[g * 2 * wg + t + wg];
      for (int it = 0; it < iters; it++) {
        T a = lo;
        lo = hi;
        hi = a + T(1);
      }
      want[g * 2 * wg + t] = lo;
      want[g * 2 * wg + t + wg] = hi;
    }
  T *din, *dout;
  HIP_CHECK(hipMalloc(&din, in.size() * sizeof(T)));
  HIP_CHECK(hipMalloc(&dout, in.size() * sizeof(T)));
  HIP_CHECK(hipMemcpy(din, in.data(), in.size() * sizeof(T), hipMemcpyHostToDevice));
  own_swap<T><<<groups, wg, 2 * wg * sizeof(T)>>>(din, dout, iters);
  LAUNCH_CHECK();
  HIP_CHECK(hipMemcpy(got.data(), dout, in.size() * sizeof(T), hipMemcpyDeviceToHost));
  check_equal(what, got.data(), want.data(), got.size());
  HIP_CHECK(hipFree(din));
  HIP_CHECK(hipFree(dout));
}

int main() {
  run_swap<float>("own_swap<float>", 7);
  run_swap<double>("own_swap<double>", 10);
  std::vector<int> in(64), got(64), want(64);
  for (int i = 0; i < 64; i++) in[i] = i * 3;
  for (int i = 0; i < 64; i++) want[i] = i < 63 ? 2 * in[i + 1] : 1000;
  int *din, *dout;
  HIP_CHECK(hipMalloc(&din, 64 * sizeof(int)));
  HIP_CHECK(hipMalloc(&dout, 64 * sizeof(int)));
  HIP_CHECK(hipMemcpy(din, in.data(), 64 * sizeof(int), hipMemcpyHostToDevice));
  next_shift<<<1, 64>>>(din, dout);
  LAUNCH_CHECK();
  HIP_CHECK(hipMemcpy(got.data(), dout, 64 * sizeof(int), hipMemcpyDeviceToHost));
  check_equal("next_shift", got.data(), want.data(), 64);
  HIP_CHECK(hipFree(din));
  HIP_CHECK(hipFree(dout));
  passed("clean_lds_own_slots");
  return 0;
}
