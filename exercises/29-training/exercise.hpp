// The functions the training chapter's exercise asks for. The exercise
// tests (tests.cpp) call them; starter.cpp defines them with three
// mistakes for the reader to find and fix.
#pragma once

#include <cstddef>
#include <vector>

#include "llm/training.hpp"

namespace exercise {

/// The learning rate of 0-based step `step` under `s`, as
/// llm::learning_rate computes it: lr_max (step + 1) / warmup during
/// the warm-up, then lr_min + (lr_max - lr_min)(1 + cos(pi p)) / 2 with
/// p = (step + 1 - warmup) / (steps - warmup). The schedule and the step
/// are assumed valid.
double scheduled_rate(const llm::Schedule& s, std::size_t step);

/// Scales every vector of `grads` by max_norm / n when the global norm
/// n (the root of the sum of the squares of all their elements) exceeds
/// max_norm, and leaves them as they are otherwise. Returns n.
double clip_global(std::vector<std::vector<double>>& grads,
                   double max_norm);

}  // namespace exercise
