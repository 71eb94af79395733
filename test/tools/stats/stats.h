// The host-side interface of moments.hip and precision.hip: plain C++, what
// main.cpp includes.
#pragma once
#include <vector>

template <typename T>
struct Moments {
  T mean;
  T stddev;  // population standard deviation
};

// Mean and standard deviation, reduced on the GPU (moments.hip: float and double).
template <typename T> Moments<T> moments(const std::vector<T> &x);
extern template Moments<float> moments(const std::vector<float> &);
extern template Moments<double> moments(const std::vector<double> &);

// (x[i] + x[i + 1]) / 2 computed in half precision (__half), the last value paired
// with the first of its 256-wide block; returned as float.
std::vector<float> half_pair_means(const std::vector<float> &x);

// The normal density with the given mean and standard deviation at each x, in double.
std::vector<double> normal_pdf(const std::vector<double> &x, double mean, double stddev);
