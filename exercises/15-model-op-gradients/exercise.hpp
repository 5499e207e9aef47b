// The function the model-op-gradients chapter's exercise asks for. The
// exercise tests (tests.cpp) call it; starter.cpp defines it with three
// mistakes for the reader to find and fix.
#pragma once

#include <cstddef>
#include <vector>

#include "llm/tensor.hpp"

namespace exercise {

/// The gradient of the mean cross-entropy loss
/// nll(log_softmax(logits), targets) with respect to the logits, in
/// closed form: (softmax(logits) - onehot(targets)) / N, logits [N, V]
/// -> [N, V]. Throws llm::ShapeError unless logits is [targets.size(),
/// V], llm::IndexError for a target >= V.
llm::Tensor cross_entropy_grad(const llm::Tensor& logits,
                               const std::vector<std::size_t>& targets);

}  // namespace exercise
