// The function the rope chapter's exercise asks for. The exercise tests
// (tests.cpp) call it; starter.cpp defines it with three mistakes for
// the reader to find and fix.
#pragma once

#include <cstddef>

#include "llm/tensor.hpp"

namespace exercise {

/// Rotary position embedding of T tokens, x [T, d] -> [T, d], the value
/// of llm::Rope(d, offset + T, base).apply: row t sits at position
/// p = offset + t, and its feature pair (2k, 2k + 1) is rotated
/// counterclockwise by p * base^(-2k / d) radians. Throws
/// llm::ConfigError for a zero or odd d or a base that is not a finite
/// number above 1.
llm::Tensor rope(const llm::Tensor& x, std::size_t offset, double base);

}  // namespace exercise
