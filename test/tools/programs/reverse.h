// The host-side interface of reverse.hip, as a HIP project's header would have it.
#pragma once
#include <vector>

// Reverses each block of 256 values on the GPU; the length is any multiple of 256.
std::vector<float> reverse_blocks(const std::vector<float> &in);
std::vector<int> reverse_blocks(const std::vector<int> &in);
