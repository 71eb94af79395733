// Clean: the barrier shapes the emulator's work-item loops must get right,
// each checked against a CPU reference (the RUN lines also run them as fibers):
//  - a barrier in a loop whose trip count is a kernel argument, with a private
//    array and an LDS pointer kept across barriers;
//  - early return before barriers (returned work-items wait at the kernel-exit
//    barrier while the others go on);
//  - divergent barriers (odd and even work-items reach different ones);
//  - a barrier inside a non-inlined device function;
//  - a spin with s_sleep, which keeps its kernel on fibers;
//  - is_private on per-work-item memory kept across a barrier.
// RUN: %run %{exe} | FileCheck %s --implicit-check-not='ERROR: AddressSanitizer' --implicit-check-not='ldsan-emu: error:'
// RUN: env LDSAN_OPTIONS=emu_fibers=1 %run %{exe} | FileCheck %s --implicit-check-not='ERROR: AddressSanitizer' --implicit-check-not='ldsan-emu: error:'
// RUN: %run %{exe:lds-only+wave32} | FileCheck %s --implicit-check-not='ERROR: AddressSanitizer' --implicit-check-not='ldsan-emu: error:'
// RUN: env LDSAN_OPTIONS=emu_fibers=1 %run %{exe:lds-only+wave32} | FileCheck %s --implicit-check-not='ERROR: AddressSanitizer' --implicit-check-not='ldsan-emu: error:'
// CHECK: ldsan-test: stdout:
// CHECK: clean_barrier_shapes: PASSED
// CHECK: ldsan-test: exit 0
// The shapes work on AMD GPUs but break the barrier rules: with detect_races=1
// (unoptimized builds) the odd/even barriers are an error, the early return a warning.
// RUN: env LDSAN_OPTIONS=detect_races=1:halt_on_error=0 %run %{exe:O0} | FileCheck %s --check-prefix=RULES
// RUN: env LDSAN_OPTIONS=detect_races=1:halt_on_error=0 %run %{exe:lds-only+O0} | FileCheck %s --check-prefix=RULES
// RUN: env LDSAN_OPTIONS=detect_races=1:halt_on_error=0 %run %{exe:lds-only+wave32+O0} | FileCheck %s --check-prefix=RULES
// RULES-DAG: ERROR: AddressSanitizer: barrier-divergence in kernel divergent(int*): work-item
// RULES-DAG: WARNING: ldsan: barrier-divergence in kernel early_return(int*, int): work-item
// RULES-DAG: returned from the kernel without reaching it
// FIBERS: _Z10sleep_spinPi
#include "common.h"

#define WG 128

// out[g*WG+t] = sum over rounds r of (value of work-item t^r's slot + acc[r%4]).
__global__ void rounds(const int *in, int *out, int nrounds) {
  __shared__ int a[WG], b[WG];
  int t = threadIdx.x, g = blockIdx.x;
  int acc[4];
  for (int k = 0; k < 4; k++) acc[k] = in[g * WG + t] * (k + 1);
  int *cur = (t & 1) ? a : b; // an LDS pointer live across every barrier
  int total = 0;
  for (int r = 0; r < nrounds; r++) {
    cur[t] = acc[r % 4] + r;
    __syncthreads();
    int other = t ^ (r % WG);
    int *theirs = (other & 1) ? a : b;
    total += theirs[other];
    acc[(r + 1) % 4] += total & 7;
    __syncthreads();
  }
  out[g * WG + t] = total;
}

static void rounds_ref(const int *in, int *out, int groups, int nrounds) {
  for (int g = 0; g < groups; g++) {
    int acc[WG][4], total[WG] = {0}, slot[WG];
    for (int t = 0; t < WG; t++)
      for (int k = 0; k < 4; k++) acc[t][k] = in[g * WG + t] * (k + 1);
    for (int r = 0; r < nrounds; r++) {
      for (int t = 0; t < WG; t++) slot[t] = acc[t][r % 4] + r;
      for (int t = 0; t < WG; t++) {
        total[t] += slot[t ^ (r % WG)];
        acc[t][(r + 1) % 4] += total[t] & 7;
      }
    }
    for (int t = 0; t < WG; t++) out[g * WG + t] = total[t];
  }
}

// Work-items at or past `active` return at once; the rest shift through LDS.
__global__ void early_return(int *out, int active) {
  __shared__ int s[WG];
  int t = threadIdx.x;
  if (t >= active) return;
  s[t] = t * 3 + blockIdx.x;
  __syncthreads();
  int v = s[(t + 1) % active];
  __syncthreads();
  s[t] = v + 1;
  __syncthreads();
  out[blockIdx.x * WG + t] = s[(t + active - 1) % active];
}

// Odd and even work-items reach different barrier instructions.
__global__ void divergent(int *out) {
  __shared__ int s[WG];
  int t = threadIdx.x, x;
  if (t & 1) {
    s[t] = 100 + t;
    __syncthreads();
    x = s[t ^ 1] * 2;
  } else {
    s[t] = 200 + t;
    __syncthreads();
    x = s[t ^ 1] * 3;
  }
  out[blockIdx.x * WG + t] = x;
}

__device__ __attribute__((noinline)) int exchange(int *s, int t, int v) {
  s[t] = v;
  __syncthreads();
  int r = s[WG - 1 - t];
  __syncthreads();
  return r;
}

__global__ void through_call(int *out) {
  __shared__ int s[WG];
  int t = threadIdx.x;
  int v = exchange(s, t, t + blockIdx.x);
  v = exchange(s, t, v * 10);
  out[blockIdx.x * WG + t] = v;
}

// Work-item 0 waits with s_sleep until the last one sets a flag: needs fibers.
__global__ void sleep_spin(int *out) {
  __shared__ int flag;
  int t = threadIdx.x;
  if (t == 0) flag = 0;
  __syncthreads();
  if (t == 0) {
    while (__atomic_load_n(&flag, __ATOMIC_ACQUIRE) == 0) __builtin_amdgcn_s_sleep(1);
    out[blockIdx.x] = 1;
  }
  if (t == WG - 1) __atomic_store_n(&flag, 1, __ATOMIC_RELEASE);
}

__global__ void private_memory(int *out, int k) {
  __shared__ int s[WG];
  int t = threadIdx.x;
  volatile int mine[8];
  for (int i = 0; i < 8; i++) mine[i] = t * i;
  s[t] = t;
  __syncthreads();
  int ok = __builtin_amdgcn_is_private((void *)&mine[k]) && !__builtin_amdgcn_is_private((void *)out) &&
           !__builtin_amdgcn_is_private((void *)&s[t]);
  out[blockIdx.x * WG + t] = ok * 1000 + mine[k] + s[WG - 1 - t];
}

int main() {
  const int groups = 6, n = groups * WG;
  int *h = (int *)malloc(n * sizeof(int)), *got = (int *)malloc(n * sizeof(int)),
      *want = (int *)malloc(n * sizeof(int));
  for (int i = 0; i < n; i++) h[i] = (i * 7919) % 61 - 30;
  int *din, *dout;
  HIP_CHECK(hipMalloc(&din, n * sizeof(int)));
  HIP_CHECK(hipMalloc(&dout, n * sizeof(int)));
  HIP_CHECK(hipMemcpy(din, h, n * sizeof(int), hipMemcpyHostToDevice));

  for (int nrounds : {0, 1, 5, 9}) {
    rounds<<<groups, WG>>>(din, dout, nrounds);
    LAUNCH_CHECK();
    HIP_CHECK(hipMemcpy(got, dout, n * sizeof(int), hipMemcpyDeviceToHost));
    rounds_ref(h, want, groups, nrounds);
    check_equal("rounds", got, want, n);
  }

  const int active = 77;
  HIP_CHECK(hipMemset(dout, 0xff, n * sizeof(int)));
  early_return<<<groups, WG>>>(dout, active);
  LAUNCH_CHECK();
  HIP_CHECK(hipMemcpy(got, dout, n * sizeof(int), hipMemcpyDeviceToHost));
  for (int g = 0; g < groups; g++)
    for (int t = 0; t < WG; t++)
      want[g * WG + t] = t < active ? ((t + active - 1) % active + 1) % active * 3 + g + 1 : -1;
  check_equal("early_return", got, want, n);

  divergent<<<groups, WG>>>(dout);
  LAUNCH_CHECK();
  HIP_CHECK(hipMemcpy(got, dout, n * sizeof(int), hipMemcpyDeviceToHost));
  for (int g = 0; g < groups; g++)
    for (int t = 0; t < WG; t++) want[g * WG + t] = (t & 1) ? (200 + (t ^ 1)) * 2 : (100 + (t ^ 1)) * 3;
  check_equal("divergent", got, want, n);

  through_call<<<groups, WG>>>(dout);
  LAUNCH_CHECK();
  HIP_CHECK(hipMemcpy(got, dout, n * sizeof(int), hipMemcpyDeviceToHost));
  for (int g = 0; g < groups; g++)
    for (int t = 0; t < WG; t++) want[g * WG + t] = (t + g) * 10;
  check_equal("through_call", got, want, n);

  HIP_CHECK(hipMemset(dout, 0, n * sizeof(int)));
  sleep_spin<<<groups, WG>>>(dout);
  LAUNCH_CHECK();
  HIP_CHECK(hipMemcpy(got, dout, groups * sizeof(int), hipMemcpyDeviceToHost));
  for (int g = 0; g < groups; g++) want[g] = 1;
  check_equal("sleep_spin", got, want, groups);

  private_memory<<<groups, WG>>>(dout, 5);
  LAUNCH_CHECK();
  HIP_CHECK(hipMemcpy(got, dout, n * sizeof(int), hipMemcpyDeviceToHost));
  for (int g = 0; g < groups; g++)
    for (int t = 0; t < WG; t++) want[g * WG + t] = 1000 + t * 5 + (WG - 1 - t);
  check_equal("private_memory", got, want, n);

  free(h);
  free(got);
  free(want);
  passed("clean_barrier_shapes");
  return 0;
}
