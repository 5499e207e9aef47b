// The function the gradient-checking chapter's exercise asks for. The
// exercise tests (tests.cpp) call it; starter.cpp defines it with two
// mistakes for the reader to find and fix.
#pragma once

#include <vector>

#include "llm/gradcheck.hpp"

namespace exercise {

/// The central-difference gradient of f at x, as llm::numeric_gradient:
/// coordinate i is (f(x + h e_i) - f(x - h e_i)) / (2h), moving
/// coordinate i alone. Throws llm::ConfigError unless h is positive and
/// finite.
std::vector<double> numeric_gradient(const llm::MultiFunction& f,
                                     const std::vector<double>& x,
                                     double h);

}  // namespace exercise
