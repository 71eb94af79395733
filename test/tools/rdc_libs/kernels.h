// libkernels' host interface: plain C++, what main.cpp includes.
#pragma once
#include <vector>

// A 3-point stencil over each value and its neighbours (0 past either end),
// mapped through smoothstep: out[i] = smoothstep01(in[i] / 2 + (in[i-1] + in[i+1]) / 4).
std::vector<float> smooth(const std::vector<float> &in);

// The sum over i of (a[i] + (b[i] - a[i]) * w)^2; a and b have the same length.
float blended_energy(const std::vector<float> &a, const std::vector<float> &b, float w);
double blended_energy(const std::vector<double> &a, const std::vector<double> &b, double w);
