// Exercise of the bpe-training chapter: BPE's merge loop, which compiles,
// runs, and is wrong in three places. Fix it until the exercise tests
// pass:
//
//   cmake --build build --target run_exercise_03
#include "exercise.hpp"

#include <map>
#include <utility>

namespace exercise {

std::size_t merge_pair(std::vector<llm::TokenId>& tokens, llm::TokenId left,
                       llm::TokenId right, llm::TokenId merged) {
  std::size_t out = 0, replaced = 0;  // out: where the next token goes
  for (std::size_t i = 0; i < tokens.size(); ++i) {
    if (i + 1 < tokens.size() && tokens[i] == left &&
        tokens[i + 1] == right) {
      tokens[out++] = merged;
      ++replaced;
    } else {
      tokens[out++] = tokens[i];
    }
  }
  tokens.resize(out);
  return replaced;
}

std::vector<llm::Merge> learn_merges(std::vector<Word> words,
                                     std::size_t merge_count) {
  using Pair = std::pair<llm::TokenId, llm::TokenId>;
  std::vector<llm::Merge> merges;
  for (std::size_t step = 0; step < merge_count; ++step) {
    std::map<Pair, std::uint64_t> counts;  // ordered by (left, right)
    for (const Word& w : words) {
      for (std::size_t i = 0; i + 1 < w.tokens.size(); ++i) {
        counts[{w.tokens[i], w.tokens[i + 1]}] += 1;
      }
    }
    if (counts.empty()) break;
    Pair best = counts.begin()->first;
    std::uint64_t best_count = 0;
    for (const auto& [pair, count] : counts) {
      if (count >= best_count) {
        best = pair;
        best_count = count;
      }
    }
    const auto merged = static_cast<llm::TokenId>(llm::byte_token_count + step);
    for (Word& w : words) merge_pair(w.tokens, best.first, best.second, merged);
    merges.push_back({best.first, best.second, best_count});
  }
  return merges;
}

}  // namespace exercise
