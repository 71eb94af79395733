// A __device__ function of another translation unit (-fgpu-rdc), with an assert.
#pragma once
#include <hip/hip_runtime.h>

__device__ float checked_ratio(float a, float b);
