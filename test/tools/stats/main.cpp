// Host-only main(): samples from <random> with a fixed seed, the statistics
// computed by the kernels of moments.hip and precision.hip, and the same
// computed on the host, compared with a tolerance per precision.
#include <cmath>
#include <cstdlib>
#include <iostream>
#include <random>
#include <string>
#include <vector>
#include "stats.h"

static int failures = 0;

static void expect_near(const std::string &what, double got, double want, double tolerance) {
  if (std::fabs(got - want) <= tolerance) return;
  if (failures++ < 10)
    std::cout << what << ": " << got << ", expected " << want << " (tolerance " << tolerance << ")" << std::endl;
}

// Mean and population standard deviation in long double, two passes.
template <typename T>
static Moments<double> reference(const std::vector<T> &x) {
  long double s = 0, q = 0;
  for (T v : x) s += v;
  long double mean = s / x.size();
  for (T v : x) q += (v - mean) * (v - mean);
  return Moments<double>{static_cast<double>(mean), static_cast<double>(std::sqrt(q / x.size()))};
}

template <typename T>
static void check_moments(const std::string &type, const std::vector<T> &x, double relative) {
  Moments<T> got = moments(x);
  Moments<double> want = reference(x);
  expect_near(type + " mean", got.mean, want.mean, relative * std::fabs(want.mean));
  expect_near(type + " stddev", got.stddev, want.stddev, relative * want.stddev);
  std::cout << type << ": mean " << got.mean << ", stddev " << got.stddev << " of " << x.size() << " samples" << std::endl;
}

int main() {
  std::mt19937 gen(4242);
  std::normal_distribution<double> normal(3.0, 2.0);
  std::uniform_real_distribution<float> uniform(-4.0f, 4.0f);

  const int n = 10000;  // not a multiple of the 256-wide blocks
  std::vector<double> xd(n);
  for (double &v : xd) v = normal(gen);
  std::vector<float> xf(xd.begin(), xd.end());
  check_moments("float", xf, 1e-4);
  check_moments("double", xd, 1e-12);

  // Half precision: each value rounds to 11 significant bits, and so does the sum.
  std::vector<float> u(3000);
  for (float &v : u) v = uniform(gen);
  std::vector<float> pm = half_pair_means(u);
  for (size_t i = 0; i < u.size(); i++) {
    size_t j = i % 256 == 255 ? i - 255 : i + 1;
    float next = j < u.size() ? u[j] : 0.0f;
    double want = 0.5 * (double(u[i]) + next);
    expect_near("half pair mean " + std::to_string(i), pm[i], want, 1e-3 * (std::fabs(u[i]) + std::fabs(next)) + 1e-7);
  }

  Moments<double> m = reference(xd);
  std::vector<double> pdf = normal_pdf(xd, m.mean, m.stddev);
  const double pi = 3.14159265358979323846;
  for (int i = 0; i < n; i++) {
    double z = (xd[i] - m.mean) / m.stddev;
    double want = std::exp(-0.5 * z * z) / (m.stddev * std::sqrt(2.0 * pi));
    expect_near("pdf " + std::to_string(i), pdf[i], want, 1e-13 * want);
  }

  std::cout << "checked moments, " << u.size() << " half pair means, " << n << " densities: "
            << failures << " wrong" << std::endl;
  std::cout << (failures ? "stats: FAILED" : "stats: PASSED") << std::endl;
  return failures ? EXIT_FAILURE : EXIT_SUCCESS;
}
