// Clean: warp-synchronous LDS code whose answer depends on a wave's lanes
// making each statement together, and code whose answer does not, because
// lanes that meet do so in the order the emulator runs them (lowest first).
// The GPU's answers, computed here on the host:
// - shift_up: `v = s[t]; s[t + 1] = v;` with no barrier: every lane loads
//   before any lane stores, so s[t + 1] gets the old s[t]. One lane after
//   another, lane t would load what lane t - 1 just stored (all the first
//   value): the kernel must run its waves in lockstep.
// - fill_twice: `s[t] = a; s[t + 2] = b;`: lane t + 2's first store comes
//   before lane t's second on a GPU (s[2..] = b). Lockstep too.
// - shift_down: `v = s[t + 1]; s[t] = v;`: lane t + 1 overwrites what lane t
//   read only after lane t read it, in either order: no lockstep.
// - tree: the tree reduction with a loop over `s` from blockDim.x / 2 down
//   (`buf[t] += buf[t + s]`, a barrier each step): a lane's store meets
//   only the load of a lower lane made before it. No lockstep.
// Workgroups of 32 work-items, so that a wave of 32 or 64 holds one.
// Not at -O0: there the addresses go through HIP's unoptimized accessors, the
// analysis sees no threadIdx.x in them, and a write is put in lockstep only
// when its address shows the meeting, so shift_up and fill_twice run lanes in
// order (docs/emulator.md, "Known limit").
// RUN: %run %{exe} | FileCheck %s
// RUN: env LDSAN_OPTIONS=emu_fibers=1 %run %{exe} | FileCheck %s
// RUN: %run %{exe:lds-only+wave32} | FileCheck %s
// CHECK-NOT: ERROR: AddressSanitizer
// CHECK: ldsan-test: stdout:
// CHECK-NEXT: clean_lds_lane_order: PASSED
// CHECK-NEXT: ldsan-test: exit 0
// The mode each kernel gets (the builds' logs, LDSAN_EMU_VERBOSE=1):
// RUN: FileCheck %s --check-prefix=MODE --input-file %{exe}.log
// RUN: FileCheck %s --check-prefix=MODE --input-file %{exe:lds-only+wave32}.log
// MODE-DAG: kernel '_Z8shift_upIiEvPKT_PS0_': work-item loops, waves in lockstep ({{.*}}), because of an LDS store that can follow an LDS load or store of another lane
// MODE-DAG: kernel '_Z8shift_upIfEvPKT_PS0_': work-item loops, waves in lockstep ({{.*}}), because of an LDS store that can follow an LDS load or store of another lane
// MODE-DAG: kernel '_Z10fill_twicePi': work-item loops, waves in lockstep ({{.*}}), because of an LDS store that can follow an LDS load or store of another lane
// MODE-DAG: kernel '_Z10shift_downIiEvPKT_PS0_': work-item loops ({{[0-9]+}} regions,
// MODE-DAG: kernel '_Z10shift_downIfEvPKT_PS0_': work-item loops ({{[0-9]+}} regions,
// MODE-DAG: kernel '_Z4treePKiPi': work-item loops ({{[0-9]+}} regions,
#include <vector>

#include "common.h"

constexpr int WG = 32;

template <typename T>
__global__ void shift_up(const T *in, T *out) {
  __shared__ T s[WG + 1];
  int t = threadIdx.x;
  s[t] = in[blockIdx.x * WG + t];
  if (t == 0) s[WG] = T(-1);
  __syncthreads();
  T v = s[t];
  s[t + 1] = v;  // the wave's loads all came first
  __syncthreads();
  out[blockIdx.x * (WG + 1) + t] = s[t];
  if (t == 0) out[blockIdx.x * (WG + 1) + WG] = s[WG];
}

template <typename T>
__global__ void shift_down(const T *in, T *out) {
  __shared__ T s[WG + 1];
  int t = threadIdx.x;
  // (Stored after s[t] with no barrier between, s[WG] would be lockstep's
  // business: with workgroups of more than WG work-items, lane WG's s[t]
  // would meet it out of the lanes' order.)
  if (t == 0) s[WG] = T(-1);
  __syncthreads();
  s[t] = in[blockIdx.x * WG + t];
  __syncthreads();
  T v = s[t + 1];
  s[t] = v;
  __syncthreads();
  out[blockIdx.x * WG + t] = s[t];
}

__global__ void fill_twice(int *out) {
  __shared__ int s[WG + 2];
  int t = threadIdx.x;
  s[t] = 10 + t;
  s[t + 2] = 100 + t;  // after every lane's first store (not next to it: -O2 would make the two one store)
  __syncthreads();
  out[t] = s[t];
  if (t < 2) out[WG + t] = s[WG + t];
}

__global__ void tree(const int *in, int *partial) {
  __shared__ int buf[WG];
  int t = threadIdx.x;
  buf[t] = in[blockIdx.x * blockDim.x + t];
  __syncthreads();
  for (unsigned s = blockDim.x / 2; s > 0; s >>= 1) {
    if (t < (int)s) buf[t] += buf[t + s];
    __syncthreads();
  }
  if (t == 0) partial[blockIdx.x] = buf[0];
}

template <typename T>
static std::vector<T> run(void (*kernel)(const T *, T *), const std::vector<T> &in, size_t out_n, int groups) {
  std::vector<T> got(out_n, T(0));
  T *din, *dout;
  HIP_CHECK(hipMalloc(&din, in.size() * sizeof(T)));
  HIP_CHECK(hipMalloc(&dout, out_n * sizeof(T)));
  HIP_CHECK(hipMemcpy(din, in.data(), in.size() * sizeof(T), hipMemcpyHostToDevice));
  kernel<<<groups, WG>>>(din, dout);
  LAUNCH_CHECK();
  HIP_CHECK(hipMemcpy(got.data(), dout, out_n * sizeof(T), hipMemcpyDeviceToHost));
  HIP_CHECK(hipFree(din));
  HIP_CHECK(hipFree(dout));
  return got;
}

template <typename T>
static void check_shifts(const char *up_name, const char *down_name) {
  const int groups = 3;
  std::vector<T> in(groups * WG), up_want(groups * (WG + 1)), down_want(groups * WG);
  for (size_t i = 0; i < in.size(); i++) in[i] = T((i * 7) % 53 + 1);
  for (int g = 0; g < groups; g++) {
    // Every lane loads, then every lane stores: s[t + 1] = old s[t], s[0] unchanged.
    up_want[g * (WG + 1)] = in[g * WG];
    for (int t = 0; t < WG; t++) up_want[g * (WG + 1) + t + 1] = in[g * WG + t];
    for (int t = 0; t < WG; t++) down_want[g * WG + t] = t + 1 < WG ? in[g * WG + t + 1] : T(-1);
  }
  std::vector<T> up = run(shift_up<T>, in, up_want.size(), groups);
  check_equal(up_name, up.data(), up_want.data(), up.size());
  std::vector<T> down = run(shift_down<T>, in, down_want.size(), groups);
  check_equal(down_name, down.data(), down_want.data(), down.size());
}

int main() {
  check_shifts<int>("shift_up<int>", "shift_down<int>");
  check_shifts<float>("shift_up<float>", "shift_down<float>");

  std::vector<int> fill(WG + 2), fill_want(WG + 2);
  fill_want[0] = 10;  // lanes 0 and 1's first stores; every later one is a second store
  fill_want[1] = 11;
  for (int t = 2; t < WG + 2; t++) fill_want[t] = 100 + t - 2;
  int *dfill;
  HIP_CHECK(hipMalloc(&dfill, fill.size() * sizeof(int)));
  fill_twice<<<1, WG>>>(dfill);
  LAUNCH_CHECK();
  HIP_CHECK(hipMemcpy(fill.data(), dfill, fill.size() * sizeof(int), hipMemcpyDeviceToHost));
  HIP_CHECK(hipFree(dfill));
  check_equal("fill_twice", fill.data(), fill_want.data(), fill.size());

  const int groups = 5;
  std::vector<int> in(groups * WG), sums_want(groups);
  for (size_t i = 0; i < in.size(); i++) in[i] = (int)(i % 11) - 4;
  for (int g = 0; g < groups; g++)
    for (int t = 0; t < WG; t++) sums_want[g] += in[g * WG + t];
  std::vector<int> sums = run(tree, in, groups, groups);
  check_equal("tree", sums.data(), sums_want.data(), sums.size());
  passed("clean_lds_lane_order");
  return 0;
}
