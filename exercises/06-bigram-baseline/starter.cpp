// Exercise of the bigram-baseline chapter: the add-alpha bigram's
// probability and loss, which compile, run, and are wrong in three
// places. Fix them until the exercise tests pass:
//
//   cmake --build build --target run_exercise_06
#include "exercise.hpp"

#include <cmath>
#include <cstddef>

namespace exercise {

double probability(const llm::BigramCounts& counts, double alpha,
                   llm::TokenId a, llm::TokenId b) {
  const double c = static_cast<double>(counts.count(a, b));
  const double n = static_cast<double>(counts.row_total(a));
  return (c + alpha) / (n + alpha);
}

llm::SplitLoss bigram_loss(const llm::BigramCounts& counts, double alpha,
                           const std::vector<std::vector<llm::TokenId>>& docs,
                           std::uint64_t bytes) {
  std::vector<llm::TokenId> ids;  // every document, one after the other
  for (const auto& d : docs) ids.insert(ids.end(), d.begin(), d.end());
  llm::SplitLoss loss;
  loss.bytes = bytes;
  for (std::size_t k = 1; k < ids.size(); ++k) {
    loss.nll -= std::log2(probability(counts, alpha, ids[k - 1], ids[k]));
    ++loss.predictions;
  }
  return loss;
}

}  // namespace exercise
