// Kernels whose global accesses are flat (their pointers are read from device
// memory: a struct of views, as libraries pass them), so that the LDS-only
// build (-fsanitize=lds) puts a flat-access check before each
// (instrument/LdsOnly.cpp), plus an LDS staging array. On the emulator each
// check gets an inline test of the LDS store's range in front of it
// (retarget_flat_filter.cpp) and the staging loops still check the shadow
// once per loop (retarget_shadow_ranges.cpp). flat_checks.sh checks the
// retarget tool's output and runs this program; each kernel is checked
// against a host reference.
#include "common.h"

#include <vector>

template <typename T>
struct Views {
  const T *in;
  const int *index;
  T *out;
};

// Gather through an index table into LDS, then each work-item combines its
// own element with its mirror's: every global access goes through v's
// pointers (flat).
template <typename T, int WG>
__global__ void gather_mirror(const Views<T> *v) {
  __shared__ T tile[WG];
  int t = threadIdx.x, i = blockIdx.x * WG + t;
  tile[t] = v->in[v->index[i]];
  __syncthreads();
  v->out[i] = tile[WG - 1 - t] + v->in[i];
}

template <typename T>
static T *to_device(const std::vector<T> &h) {
  T *d;
  HIP_CHECK(hipMalloc(&d, h.size() * sizeof(T)));
  HIP_CHECK(hipMemcpy(d, h.data(), h.size() * sizeof(T), hipMemcpyHostToDevice));
  return d;
}

template <typename T, int WG>
static int run(const char *name, int groups) {
  int n = groups * WG;
  std::vector<T> in(n), want(n), got(n);
  std::vector<int> index(n);
  for (int i = 0; i < n; i++) {
    in[i] = (T)(i % 97);
    index[i] = (i * 7 + 3) % n;
  }
  for (int g = 0; g < groups; g++)
    for (int t = 0; t < WG; t++) want[g * WG + t] = in[index[g * WG + WG - 1 - t]] + in[g * WG + t];
  Views<T> h = {to_device(in), to_device(index), nullptr};
  HIP_CHECK(hipMalloc(&h.out, n * sizeof(T)));
  Views<T> *dv = to_device(std::vector<Views<T>>{h});
  gather_mirror<T, WG><<<groups, WG>>>(dv);
  LAUNCH_CHECK();
  HIP_CHECK(hipMemcpy(got.data(), h.out, n * sizeof(T), hipMemcpyDeviceToHost));
  HIP_CHECK(hipFree((void *)h.in));
  HIP_CHECK(hipFree((void *)h.index));
  HIP_CHECK(hipFree(h.out));
  HIP_CHECK(hipFree(dv));
  for (int i = 0; i < n; i++)
    if (got[i] != want[i]) {
      fprintf(stderr, "flat_checks: %s: element %d is %g, expected %g\n", name, i, (double)got[i], (double)want[i]);
      return 1;
    }
  return 0;
}

int main() {
  int bad = run<float, 256>("gather_mirror<float, 256>", 64) + run<double, 64>("gather_mirror<double, 64>", 32);
  if (bad) return 1;
  printf("flat_checks: PASSED\n");
  return 0;
}
