// The book's implementation behind the exercise's interface: the tests
// must pass on it.
#include "exercise.hpp"

namespace exercise {

double probability(const llm::BigramCounts& counts, double alpha,
                   llm::TokenId a, llm::TokenId b) {
  return llm::BigramModel(counts, alpha).probability(a, b);
}

llm::SplitLoss bigram_loss(const llm::BigramCounts& counts, double alpha,
                           const std::vector<std::vector<llm::TokenId>>& docs,
                           std::uint64_t bytes) {
  return llm::evaluate(llm::BigramModel(counts, alpha), docs, bytes);
}

}  // namespace exercise
