// Host-only main: random input, the kernel's result checked against the
// OpenMP reference.
#include <cmath>
#include <cstdio>
#include <random>
#include "stencil.h"

int main() {
  std::mt19937 rng(37);
  std::uniform_real_distribution<float> dist(-1.0f, 1.0f);
  std::vector<float> in(1000);
  for (float &v : in) v = dist(rng);
  std::vector<float> got = gpu_stencil(in);
  int threads = 0;
  std::vector<float> want = cpu_stencil(in, &threads);
  int wrong = 0;
  for (std::size_t i = 0; i < in.size(); i++) wrong += std::fabs(got[i] - want[i]) > 1e-5f;
  std::printf("stencil: %d of %zu wrong (reference on %d OpenMP threads)\n", wrong, in.size(), threads);
  std::printf(wrong ? "stencil: FAILED\n" : "stencil: PASSED\n");
  return wrong ? 1 : 0;
}
