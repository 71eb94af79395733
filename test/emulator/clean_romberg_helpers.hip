// Clean: clean_romberg_wave.hip's Romberg integration with the partial sums
// stored and loaded through __device__ helpers that are not inlined: lane 0's
// load, in one function, reads what lanes 1-16 stored in another, with no
// barrier. The retarget tool follows LDS pointers into the helpers and puts
// the kernel in lockstep, so lane 0 sees every sum as on a GPU (before, the
// store and the load in different functions were not seen: lane 0 read zeros
// in work-item loops and part of the sums as fibers). Checked against a CPU
// reference.
// Optimized, lane 0's loop over the rows is unrolled, so every call of get()
// passes a constant pointer into the __shared__ array: the AMDGPU attributor
// makes get()'s flat load an LDS one, which amdgpu-sw-lower-lds leaves at the
// low 32 bits of the block's address (get() read a wild address, in full ASan
// and LDS-only, under both schedulers); the plugin makes it flat again
// (instrument/FlatLdsCasts.h).
// RUN: %run %{exe} | FileCheck %s
// RUN: env LDSAN_OPTIONS=emu_fibers=1 %run %{exe} | FileCheck %s
// RUN: %run %{exe:lds-only} | FileCheck %s
// RUN: env LDSAN_OPTIONS=emu_fibers=1 %run %{exe:lds-only} | FileCheck %s
// RUN: %run %{exe:O0} | FileCheck %s
// RUN: env LDSAN_OPTIONS=emu_fibers=1 %run %{exe:O0} | FileCheck %s
// CHECK-NOT: ERROR: AddressSanitizer
// CHECK-NOT: WARNING
// CHECK: ldsan-test: stdout:
// CHECK-NEXT: clean_romberg_helpers: PASSED
// CHECK-NEXT: ldsan-test: exit 0
// RUN: FileCheck %s --check-prefix=MODE --input-file %{exe}.log
// RUN: FileCheck %s --check-prefix=MODE --input-file %{exe:lds-only}.log
// RUN: FileCheck %s --check-prefix=MODE --input-file %{exe:O0}.log
// MODE: kernel '_Z7rombergIdLi16EEvPKT_S2_PS0_': work-item loops, waves in lockstep ({{.*}}), because of a call that loads LDS that can follow an LDS store of another lane with no barrier between
#include <vector>

#include "common.h"

template <typename T> __host__ __device__ T integrand(T x) { return T(4) / (T(1) + x * x); }

// Row k >= 1 of the Romberg table adds the midpoints of 2^(k-1) intervals.
template <typename T> __host__ __device__ T midpoint_sum(T a, T b, int k) {
  int n = 1 << (k - 1);
  T h = (b - a) / T(n), s = 0;
  for (int i = 0; i < n; i++) s += integrand(a + (T(i) + T(0.5)) * h);
  return s * h;
}

// Richardson extrapolation over rows 0..ROWS, from row 0's trapezoid and the rows' midpoint sums.
template <typename T, int ROWS> __host__ __device__ T extrapolate(T trapezoid, const T *mid) {
  T r[ROWS + 1], prev[ROWS + 1];
  prev[0] = r[0] = trapezoid;
  for (int row = 1; row <= ROWS; row++) {
    r[0] = (prev[0] + mid[row]) / T(2);
    T p4 = 4;
    for (int j = 1; j <= row; j++, p4 *= 4) r[j] = r[j - 1] + (r[j - 1] - prev[j - 1]) / (p4 - 1);
    for (int j = 0; j <= row; j++) prev[j] = r[j];
  }
  return r[ROWS];
}

template <typename T> __device__ __attribute__((noinline)) void put(T *slot, T v) { *slot = v; }
template <typename T> __device__ __attribute__((noinline)) T get(const T *slot) { return *slot; }

template <typename T, int ROWS>
__global__ void romberg(const T *lo, const T *hi, T *out) {
  __shared__ T partial[ROWS + 1];
  int k = threadIdx.x;
  T a = lo[blockIdx.x], b = hi[blockIdx.x];
  if (k >= 1 && k <= ROWS) put(&partial[k], midpoint_sum(a, b, k));
  if (k == 0) {
    T mid[ROWS + 1];
    for (int row = 1; row <= ROWS; row++) mid[row] = get(&partial[row]);  // no barrier
    out[blockIdx.x] = extrapolate<T, ROWS>((b - a) / T(2) * (integrand(a) + integrand(b)), mid);
  }
}

template <typename T>
static void run(const char *what, double tol) {
  const int ROWS = 16, pieces = 6;
  std::vector<T> lo(pieces), hi(pieces), got(pieces), want(pieces);
  for (int g = 0; g < pieces; g++) {
    lo[g] = T(g) / pieces;
    hi[g] = T(g + 1) / pieces;
    T mid[ROWS + 1];
    for (int row = 1; row <= ROWS; row++) mid[row] = midpoint_sum(lo[g], hi[g], row);
    want[g] = extrapolate<T, ROWS>((hi[g] - lo[g]) / T(2) * (integrand(lo[g]) + integrand(hi[g])), mid);
  }
  T *dlo, *dhi, *dout;
  HIP_CHECK(hipMalloc(&dlo, pieces * sizeof(T)));
  HIP_CHECK(hipMalloc(&dhi, pieces * sizeof(T)));
  HIP_CHECK(hipMalloc(&dout, pieces * sizeof(T)));
  HIP_CHECK(hipMemcpy(dlo, lo.data(), pieces * sizeof(T), hipMemcpyHostToDevice));
  HIP_CHECK(hipMemcpy(dhi, hi.data(), pieces * sizeof(T), hipMemcpyHostToDevice));
  romberg<T, ROWS><<<pieces, ROWS + 1>>>(dlo, dhi, dout);
  LAUNCH_CHECK();
  HIP_CHECK(hipMemcpy(got.data(), dout, pieces * sizeof(T), hipMemcpyDeviceToHost));
  check_equal(what, got.data(), want.data(), pieces, tol);
  T sum = 0;
  for (T v : got) sum += v;
  if (fabs((double)sum - M_PI) > tol * 10 + 1e-12) {
    fprintf(stderr, "%s: the pieces add up to %.17g, not pi\n", what, (double)sum);
    exit(4);
  }
  HIP_CHECK(hipFree(dlo));
  HIP_CHECK(hipFree(dhi));
  HIP_CHECK(hipFree(dout));
}

int main() {
  run<double>("romberg<double>", 1e-12);
  run<float>("romberg<float>", 1e-5);
  passed("clean_romberg_helpers");
  return 0;
}
