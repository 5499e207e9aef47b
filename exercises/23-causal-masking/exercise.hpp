// The function the causal-masking chapter's exercise asks for. The
// exercise tests (tests.cpp) call it; starter.cpp defines it with three
// mistakes for the reader to find and fix.
#pragma once

#include "llm/tensor.hpp"

namespace exercise {

/// Causal attention probabilities from one head's scores, [T, T] ->
/// [T, T]: row i is the softmax of scores[i][0..i], and every future key
/// j > i gets exactly 0. The same as softmax(mask_future(scores)).
/// Throws llm::ShapeError unless scores is square.
llm::Tensor causal_probabilities(const llm::Tensor& scores);

}  // namespace exercise
