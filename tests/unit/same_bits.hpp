// Shared by the unit tests that require the fast code's bits: byte-for-
// byte equality of two lists of doubles, which tells -0.0 from 0.0 and
// compares NaNs by their bits (== would call -0.0 and 0.0 equal and any
// NaN unequal to itself).
#pragma once

#include <cstring>
#include <vector>

inline bool same_bits(const std::vector<double>& a,
                      const std::vector<double>& b) {
  return a.size() == b.size() &&
         (a.empty() || std::memcmp(a.data(), b.data(),
                                   a.size() * sizeof(double)) == 0);
}
