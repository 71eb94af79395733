// A 1-D stencil benchmark as HIP benchmark suites write one: the kernel
// (stencil.hip, a tile with halos in LDS), an OpenMP reference on the host
// (reference.cpp) and a host-only main comparing the two (main.cpp).
#pragma once
#include <vector>

constexpr int kBlock = 128;  // work-items per block, and the tile's interior
constexpr int kRadius = 3;   // the stencil reads kRadius neighbours each side

std::vector<float> gpu_stencil(const std::vector<float> &in);
// *threads: how many OpenMP threads computed it.
std::vector<float> cpu_stencil(const std::vector<float> &in, int *threads);
