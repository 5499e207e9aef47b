// Exercise of the bpe-tokenizer chapter: encoding a word with learned
// merges, which compiles, runs, and is wrong in three places. Fix it
// until the exercise tests pass:
//
//   cmake --build build --target run_exercise_04
#include "exercise.hpp"

#include <cstddef>
#include <limits>
#include <map>
#include <utility>

namespace exercise {

std::vector<llm::TokenId> encode_word(const std::vector<llm::Merge>& merges,
                                      std::string_view word) {
  std::map<std::pair<llm::TokenId, llm::TokenId>, std::size_t> rank;
  for (std::size_t i = 0; i < merges.size(); ++i) {
    rank[{merges[i].left, merges[i].right}] = i;
  }
  std::vector<llm::TokenId> tokens;
  for (char b : word) tokens.push_back(static_cast<llm::TokenId>(b));
  const std::size_t none = std::numeric_limits<std::size_t>::max();
  while (tokens.size() > 1) {
    std::size_t best = none, at = 0;
    for (std::size_t i = 0; i + 1 < tokens.size(); ++i) {
      const auto it = rank.find({tokens[i], tokens[i + 1]});
      if (it != rank.end() && best == none) {
        best = it->second;
        at = i;
      }
    }
    if (best == none) break;  // no pair of the word has a merge
    const auto merged = static_cast<llm::TokenId>(best);
    llm::merge_pair(tokens, tokens[at], tokens[at + 1], merged);
  }
  return tokens;
}

}  // namespace exercise
