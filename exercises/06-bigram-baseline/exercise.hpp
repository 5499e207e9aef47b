// What the bigram-baseline chapter's exercise asks for: the add-alpha
// bigram's probability and its loss on a split. The exercise tests
// (tests.cpp) call them; starter.cpp defines them with three mistakes for
// the reader to find and fix.
#pragma once

#include <cstdint>
#include <vector>

#include "llm/bigram.hpp"

namespace exercise {

/// p(b | a) = (c(a, b) + alpha) / (n(a) + alpha V), as
/// llm::BigramModel::probability.
double probability(const llm::BigramCounts& counts, double alpha,
                   llm::TokenId a, llm::TokenId b);

/// As llm::evaluate: the sum of -ln p(ids[k] | ids[k-1]) over every pair
/// inside each document (no pair spans two documents), the number of
/// those predictions, and `bytes`.
llm::SplitLoss bigram_loss(const llm::BigramCounts& counts, double alpha,
                           const std::vector<std::vector<llm::TokenId>>& docs,
                           std::uint64_t bytes);

}  // namespace exercise
