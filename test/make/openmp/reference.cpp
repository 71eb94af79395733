// The host reference: the same stencil, its loop split over OpenMP threads.
#include <omp.h>
#include "stencil.h"

std::vector<float> cpu_stencil(const std::vector<float> &in, int *threads) {
  int n = static_cast<int>(in.size());
  std::vector<float> out(n);
  int team = 0;
#pragma omp parallel
  {
#pragma omp single
    team = omp_get_num_threads();
#pragma omp for
    for (int i = 0; i < n; i++) {
      float sum = 0.0f;
      for (int k = -kRadius; k <= kRadius; k++) sum += i + k >= 0 && i + k < n ? in[i + k] : 0.0f;
      out[i] = sum / (2 * kRadius + 1);
    }
  }
  *threads = team;
  return out;
}
