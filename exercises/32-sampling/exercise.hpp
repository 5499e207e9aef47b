// The function the sampling chapter's exercise asks for. The exercise
// tests (tests.cpp) call it; starter.cpp defines it with three mistakes
// for the reader to find and fix.
#pragma once

#include <vector>

#include "llm/error.hpp"

namespace exercise {

/// The top-p distribution of `logits` at temperature 1: the softmax,
/// cut to the fewest most probable tokens whose mass reaches p (equal
/// probabilities rank the lower id first), renormalised; index v is
/// token v and every token outside the cut gets 0. Throws
/// llm::ConfigError unless 0 < p <= 1.
std::vector<double> top_p_distribution(const std::vector<double>& logits,
                                       double p);

}  // namespace exercise
