// The host interface of the histogram library (histogram.hip).
#pragma once
#include <cstdint>
#include <vector>

constexpr int kBins = 64;

// Counts values in [0, 1) into kBins equal bins on the GPU.
std::vector<std::uint32_t> gpu_histogram(const std::vector<float> &values);
std::vector<std::uint32_t> gpu_histogram(const std::vector<double> &values);
