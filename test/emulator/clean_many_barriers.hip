// Clean: a kernel with more barriers than the core's 64-bit region masks
// have bits (an unrolled loop, as LDS bandwidth benchmarks write it: 80
// barriers in the loop). Work-item loops number regions past bit 61 under
// one mask bit (LDSAN_EMU_GROUP_HIGH) and read the states to see which;
// the kernel must still run as work-item loops (not fibers) and compute
// what the CPU reference computes. `split` runs a kernel whose halves
// wait at two different barriers after 70 others (both past the masks'
// bits): detect_races names the divergence with both lines (its checked
// copy is small enough for work-item loops; the others' run as fibers).
// RUN: %run %{exe} | FileCheck %s
// RUN: env LDSAN_OPTIONS=emu_fibers=1 %run %{exe} | FileCheck %s
// RUN: env LDSAN_OPTIONS=detect_races=1:detect_uninit=1 %run %{exe} | FileCheck %s
// RUN: %run %{exe:lds-only+wave32} | FileCheck %s
// CHECK-NOT: ERROR: AddressSanitizer
// CHECK: ldsan-test: stdout:
// CHECK-NEXT: clean_many_barriers: PASSED
// CHECK-NEXT: ldsan-test: exit 0
// RUN: env LDSAN_OPTIONS=detect_races=1 %run %{exe} split | FileCheck %s --check-prefix=SPLIT
// SPLIT-NOT: ERROR: AddressSanitizer
// SPLIT: ERROR: AddressSanitizer: barrier-divergence in kernel split_late(float*): work-item
// SPLIT: SUMMARY: AddressSanitizer: barrier-divergence test/emulator/clean_many_barriers.hip:[[@LINE+56]]:{{[0-9]+}} in split_late(float*) (other barrier at test/emulator/clean_many_barriers.hip:[[@LINE+53]]:{{[0-9]+}})
// SPLIT: ldsan-test: exit 1
// Without the checks, the two barriers release together as on AMD hardware (one
// s_barrier): the first half's twin loop stops at one barrier past the masks'
// bits, the other half's state must still be stored for the other one.
// RUN: %run %{exe} split | FileCheck %s --check-prefix=SPLITOK
// RUN: env LDSAN_OPTIONS=emu_fibers=1 %run %{exe} split | FileCheck %s --check-prefix=SPLITOK
// SPLITOK-NOT: ERROR: AddressSanitizer
// SPLITOK: clean_many_barriers: split_late 32
// SPLITOK-NEXT: ldsan-test: exit 0
// The mode each kernel gets (the build's log, LDSAN_EMU_VERBOSE=1):
// RUN: FileCheck %s --check-prefix=MODE --input-file %{exe}.log
// MODE-DAG: kernel '_Z11swap_roundsIfEvPKT_PS0_': work-item loops ({{[0-9][0-9]+}} regions,
// MODE-DAG: kernel '_Z11swap_roundsIiEvPKT_PS0_': work-item loops ({{[0-9][0-9]+}} regions,
// MODE-DAG: kernel '_Z10split_latePf': work-item loops ({{[0-9][0-9]+}} regions,
// MODE-NOT: kernel '_Z10split_latePf': its LDS checks run as fibers
#include <string.h>
#include <vector>

#include "common.h"

#define WG 64
#define ROUNDS 40

// Each round reads the next lane's slot, then (after a barrier) writes its own.
template <typename T>
__global__ void swap_rounds(const T *in, T *out) {
  __shared__ T s[2 * WG];
  int t = threadIdx.x;
  size_t g = (size_t)blockIdx.x * 2 * WG;
  s[t] = in[g + t];
  s[WG + t] = in[g + WG + t];
  __syncthreads();
#pragma unroll
  for (int r = 0; r < ROUNDS; r++) {
    T a = s[(t + 1) % WG];
    T b = s[WG + t];
    __syncthreads();
    s[t] = b + T(1);
    s[WG + t] = a;
    __syncthreads();
  }
  out[(size_t)blockIdx.x * WG + t] = s[t] * T(3) + s[WG + t];
}

__global__ void split_late(float *out) {
  __shared__ float s[WG];
  int t = threadIdx.x;
  s[t] = (float)t;
  __syncthreads();
#pragma unroll
  for (int r = 0; r < 70; r++) __syncthreads();  // (no LDS access: its checked copy stays small)
  if (t < WG / 2) {
    __syncthreads();  // BUG: the first half waits here ...
    s[t] += s[t + WG / 2];
  } else {
    __syncthreads();  // ... the second half here
  }
  __syncthreads();
  if (t == 0) out[blockIdx.x] = s[0];
}

template <typename T>
static bool check(int groups) {
  std::vector<T> in((size_t)groups * 2 * WG), out((size_t)groups * WG), want(out.size());
  for (size_t i = 0; i < in.size(); i++) in[i] = T(i % 97);
  for (int g = 0; g < groups; g++) {
    std::vector<T> s(in.begin() + (size_t)g * 2 * WG, in.begin() + (size_t)(g + 1) * 2 * WG);
    for (int r = 0; r < ROUNDS; r++) {
      std::vector<T> next(s);
      for (int t = 0; t < WG; t++) {
        next[t] = s[WG + t] + T(1);
        next[WG + t] = s[(t + 1) % WG];
      }
      s = next;
    }
    for (int t = 0; t < WG; t++) want[(size_t)g * WG + t] = s[t] * T(3) + s[WG + t];
  }
  T *din, *dout;
  HIP_CHECK(hipMalloc(&din, in.size() * sizeof(T)));
  HIP_CHECK(hipMalloc(&dout, out.size() * sizeof(T)));
  HIP_CHECK(hipMemcpy(din, in.data(), in.size() * sizeof(T), hipMemcpyHostToDevice));
  swap_rounds<T><<<groups, WG>>>(din, dout);
  LAUNCH_CHECK();
  HIP_CHECK(hipMemcpy(out.data(), dout, out.size() * sizeof(T), hipMemcpyDeviceToHost));
  HIP_CHECK(hipFree(din));
  HIP_CHECK(hipFree(dout));
  for (size_t i = 0; i < out.size(); i++)
    if (out[i] != want[i]) {
      printf("clean_many_barriers: FAILED at %zu: %g, want %g\n", i, (double)out[i], (double)want[i]);
      return false;
    }
  return true;
}

int main(int argc, char **argv) {
  if (argc > 1 && !strcmp(argv[1], "split")) {
    float *dout;
    HIP_CHECK(hipMalloc(&dout, sizeof(float)));
    split_late<<<1, WG>>>(dout);  // one workgroup: one report
    LAUNCH_CHECK();
    float got = 0;
    HIP_CHECK(hipMemcpy(&got, dout, sizeof got, hipMemcpyDeviceToHost));
    printf("clean_many_barriers: split_late %g\n", got);
    return 0;
  }
  if (check<float>(6) && check<int>(5)) printf("clean_many_barriers: PASSED\n");
  return 0;
}
