#include "ratio.h"

#include <cassert>

__device__ float checked_ratio(float a, float b) {
  assert(b != 0.0f && "divisor must not be zero");
  return a / b;
}
