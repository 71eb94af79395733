// Host-only translation unit with main(): no HIP in it, as in most HIP projects.
#include <iostream>
#include <numeric>
#include <vector>
#include "reverse.h"

int main() {
  std::vector<float> f(4 * 256);
  std::iota(f.begin(), f.end(), 0.0f);
  std::vector<int> k(2 * 256);
  std::iota(k.begin(), k.end(), 1);
  std::vector<float> rf = reverse_blocks(f);
  std::vector<int> rk = reverse_blocks(k);
  int bad = 0;
  for (size_t i = 0; i < f.size(); i++)
    bad += rf[i] != f[(i / 256) * 256 + 255 - i % 256];
  for (size_t i = 0; i < k.size(); i++)
    bad += rk[i] != k[(i / 256) * 256 + 255 - i % 256];
  std::cout << "checked " << f.size() + k.size() << " values, " << bad << " wrong" << std::endl;
  std::cout << (bad ? "programs: FAILED" : "programs: PASSED") << std::endl;
  return bad != 0;
}
