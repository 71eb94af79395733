// Host-only main: random input from <random>, results checked on the host.
#include <cstdint>
#include <iostream>
#include <random>
#include <vector>
#include "histogram.h"

template <typename T>
static int check(const char *what, std::mt19937 &rng, std::size_t n) {
  std::uniform_real_distribution<T> dist(T(0), T(1));
  std::vector<T> values(n);
  for (T &v : values) v = dist(rng);
  std::vector<std::uint32_t> expected(kBins);
  for (T v : values) {
    int b = static_cast<int>(v * kBins);
    expected[b < kBins ? b : kBins - 1]++;
  }
  std::vector<std::uint32_t> got = gpu_histogram(values);
  int wrong = 0;
  for (int b = 0; b < kBins; b++) wrong += got[b] != expected[b];
  std::cout << what << ": " << n << " values, " << wrong << " wrong bins" << std::endl;
  return wrong;
}

int main() {
  std::mt19937 rng(2026);
  int wrong = check<float>("float", rng, 3000) + check<double>("double", rng, 1777);
  std::cout << (wrong ? "histogram: FAILED" : "histogram: PASSED") << std::endl;
  return wrong ? 1 : 0;
}
