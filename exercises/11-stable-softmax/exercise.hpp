// The function the stable-softmax chapter's exercise asks for. The
// exercise tests (tests.cpp) call it; starter.cpp defines it with three
// mistakes for the reader to find and fix.
#pragma once

#include "llm/tensor.hpp"

namespace exercise {

/// The softmax of each row of a matrix, [r, n] -> [r, n]:
/// p[i][j] = exp(x[i][j] - m_i) / sum over l of exp(x[i][l] - m_i), with
/// m_i the largest logit of row i. Throws llm::ShapeError unless x is
/// rank 2 with at least one column.
llm::Tensor softmax(const llm::Tensor& x);

}  // namespace exercise
