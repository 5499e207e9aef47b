// The function the swiglu chapter's exercise asks for. The exercise
// tests (tests.cpp) call it; starter.cpp defines it with two mistakes
// for the reader to find and fix.
#pragma once

#include "llm/tensor.hpp"

namespace exercise {

/// The value of llm::swiglu: (silu(x W_gate) * (x W_up)) W_down, with
/// silu(z) = z sigmoid(z) = z / (1 + exp(-z)) and the product unit by
/// unit. x is [n, d], W_gate and W_up [d, f], W_down [f, d]; the result
/// is [n, d].
llm::Tensor swiglu(const llm::Tensor& x, const llm::Tensor& w_gate,
                   const llm::Tensor& w_up, const llm::Tensor& w_down);

}  // namespace exercise
