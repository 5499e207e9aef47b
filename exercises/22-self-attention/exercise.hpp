// The function the self-attention chapter's exercise asks for. The
// exercise tests (tests.cpp) call it; starter.cpp defines it with three
// mistakes for the reader to find and fix.
#pragma once

#include "llm/tensor.hpp"

namespace exercise {

/// Scaled dot-product attention of one head without a mask, written
/// with plain loops: scores s[t][j] = q_t . k_j / sqrt(d_k), p[t] the
/// softmax of row t of s (over the keys j), output[t] = sum over j of
/// p[t][j] v_j. q and k are [T, d_k], v is [T, d_v]; the result is
/// [T, d_v]. Throws llm::ShapeError unless the shapes fit.
llm::Tensor attention(const llm::Tensor& q, const llm::Tensor& k,
                      const llm::Tensor& v);

}  // namespace exercise
