// Exercise of the neural-ngram chapter: cutting documents into n-gram
// examples, which compiles, runs, and is wrong in three places. Fix it
// until the exercise tests pass:
//
//   cmake --build build --target run_exercise_20
#include "exercise.hpp"

#include <string>

#include "llm/error.hpp"

namespace exercise {

llm::NgramBatch ngram_windows(
    const std::vector<std::vector<llm::TokenId>>& docs, std::size_t order) {
  if (order < 2) {
    throw llm::ConfigError("ngram_windows: expected n >= 2, got " +
                           std::to_string(order));
  }
  for (const std::vector<llm::TokenId>& doc : docs) {
    if (doc.size() < order) {
      throw llm::ConfigError("ngram_windows: a document of " +
                             std::to_string(doc.size()) +
                             " ids is shorter than n");
    }
  }
  llm::NgramBatch out{.context = order - 1, .contexts = {}, .targets = {}};
  std::vector<llm::TokenId> ids;  // the document being cut
  for (const std::vector<llm::TokenId>& doc : docs) {
    ids.insert(ids.end(), doc.begin(), doc.end());
    for (std::size_t t = order; t < ids.size(); ++t) {
      // The n - 1 ids before t, oldest first, then the id to predict.
      for (std::size_t k = t + 2 - order; k <= t; ++k) {
        out.contexts.push_back(ids[k]);
      }
      out.targets.push_back(ids[t]);
    }
  }
  return out;
}

}  // namespace exercise
