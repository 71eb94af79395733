// Host-only main(): random input from a fixed seed, libkernels' wrappers, and
// the same computations on the host to check them against.
#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <iostream>
#include <random>
#include <vector>
#include "kernels.h"

static float host_smoothstep01(float x) {
  x = std::min(std::max(x, 0.0f), 1.0f);
  return x * x * (3.0f - 2.0f * x);
}

template <typename T>
static double host_energy(const std::vector<T> &a, const std::vector<T> &b, T w) {
  double total = 0;
  for (size_t i = 0; i < a.size(); i++) {
    double m = a[i] + (double(b[i]) - a[i]) * w;
    total += m * m;
  }
  return total;
}

int main() {
  const int n = 1000;  // not a multiple of the 256-wide blocks
  std::mt19937 gen(20240609);
  std::uniform_real_distribution<float> dist(-0.5f, 1.5f);
  std::vector<float> x(n), a(n), b(n);
  for (float &v : x) v = dist(gen);
  for (float &v : a) v = dist(gen);
  for (float &v : b) v = dist(gen);
  std::vector<double> ad(a.begin(), a.end()), bd(b.begin(), b.end());
  int bad = 0;

  std::vector<float> s = smooth(x);
  for (int i = 0; i < n; i++) {
    float left = i > 0 ? x[i - 1] : 0.0f, right = i + 1 < n ? x[i + 1] : 0.0f;
    float want = host_smoothstep01(0.5f * x[i] + 0.25f * (left + right));
    if (std::fabs(s[i] - want) > 1e-5f) {
      if (bad++ < 5) std::cout << "smooth[" << i << "] = " << s[i] << ", expected " << want << std::endl;
    }
  }

  float ef = blended_energy(a, b, 0.3f);
  double want_f = host_energy(a, b, 0.3f);
  if (std::fabs(ef - want_f) > 1e-4 * want_f) {
    bad++;
    std::cout << "float energy " << ef << ", expected " << want_f << std::endl;
  }
  double ed = blended_energy(ad, bd, 0.3);
  double want_d = host_energy(ad, bd, 0.3);
  if (std::fabs(ed - want_d) > 1e-12 * want_d) {
    bad++;
    std::cout << "double energy " << ed << ", expected " << want_d << std::endl;
  }

  std::cout << "smooth: " << n << " values; energy: float " << ef << ", double " << ed << std::endl;
  std::cout << (bad ? "rdc_libs: FAILED" : "rdc_libs: PASSED") << std::endl;
  return bad ? EXIT_FAILURE : EXIT_SUCCESS;
}
