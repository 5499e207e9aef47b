// The function the matrix-multiplication chapter's exercise asks for.
// The exercise tests (tests.cpp) call it; starter.cpp defines it with
// three mistakes for the reader to find and fix.
#pragma once

#include "llm/tensor.hpp"

namespace exercise {

/// The product of two matrices, [m, k] x [k, n] -> [m, n], computed
/// element by element: c[i][j] = sum over p of a[i][p] b[p][j]. Throws
/// llm::ShapeError unless both are rank 2 with matching inner extents.
llm::Tensor matmul(const llm::Tensor& a, const llm::Tensor& b);

}  // namespace exercise
