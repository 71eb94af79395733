// libdevmath: device-only helpers, compiled with -fgpu-rdc and archived in
// libdevmath.a; libkernels' kernels call them across the library boundary.
#include "devmath.h"

namespace devmath {

__device__ float smoothstep01(float x) {
  x = fminf(fmaxf(x, 0.0f), 1.0f);
  return x * x * (3.0f - 2.0f * x);
}

__device__ float mix(float a, float b, float t) { return a + (b - a) * t; }
__device__ double mix(double a, double b, double t) { return a + (b - a) * t; }

template <typename T> __device__ T square(T x) { return x * x; }
template __device__ float square<float>(float);
template __device__ double square<double>(double);

}  // namespace devmath
