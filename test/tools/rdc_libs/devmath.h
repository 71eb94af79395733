// libdevmath's device interface: __device__ functions defined in devmath.hip and
// called from other translation units, so every user builds with -fgpu-rdc.
#pragma once
#include <hip/hip_runtime.h>

namespace devmath {

// Cubic Hermite smoothstep of x clamped to [0, 1].
__device__ float smoothstep01(float x);

// a + (b - a) * t, for float and for double.
__device__ float mix(float a, float b, float t);
__device__ double mix(double a, double b, double t);

// x * x; devmath.hip instantiates it for float and double.
template <typename T> __device__ T square(T x);
extern template __device__ float square<float>(float);
extern template __device__ double square<double>(double);

}  // namespace devmath
