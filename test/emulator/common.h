// Shared by the emulator test programs: HIP error checks and result checks
// that print both sides and the location, and a PASSED line the checker looks for.
#pragma once
#include <hip/hip_runtime.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#define HIP_CHECK(expr)                                                                        \
  do {                                                                                         \
    hipError_t e_ = (expr);                                                                    \
    if (e_ != hipSuccess) {                                                                    \
      fprintf(stderr, "%s:%d: %s failed: %s\n", __FILE__, __LINE__, #expr, hipGetErrorString(e_)); \
      exit(3);                                                                                 \
    }                                                                                          \
  } while (0)

// Launch check: the launch itself and the sticky device state.
#define LAUNCH_CHECK() do { HIP_CHECK(hipGetLastError()); HIP_CHECK(hipDeviceSynchronize()); } while (0)

// Compares n results with a reference; prints the first mismatch and exits 4.
template <typename T>
static void check_equal(const char *what, const T *got, const T *want, size_t n, double tol = 0) {
  for (size_t i = 0; i < n; i++) {
    double g = (double)got[i], w = (double)want[i];
    if (fabs(g - w) > tol * (1 + fabs(w))) {
      fprintf(stderr, "%s: element %zu is %g, expected %g\n", what, i, g, w);
      exit(4);
    }
  }
}

static void passed(const char *name) { printf("%s: PASSED\n", name); }
