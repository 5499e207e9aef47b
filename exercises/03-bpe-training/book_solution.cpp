// The book's implementation behind the exercise's interface: the tests
// must pass on it. merge_pair is the chapter's; the loop is the chapter's
// definition of a merge step written plainly (train_bpe itself keeps pair
// counts up to date instead of recounting, and the tests compare the two).
#include "exercise.hpp"

#include <map>
#include <utility>

namespace exercise {

std::size_t merge_pair(std::vector<llm::TokenId>& tokens, llm::TokenId left,
                       llm::TokenId right, llm::TokenId merged) {
  return llm::merge_pair(tokens, left, right, merged);
}

std::vector<llm::Merge> learn_merges(std::vector<Word> words,
                                     std::size_t merge_count) {
  using Pair = std::pair<llm::TokenId, llm::TokenId>;
  std::vector<llm::Merge> merges;
  for (std::size_t step = 0; step < merge_count; ++step) {
    std::map<Pair, std::uint64_t> counts;
    for (const Word& w : words) {
      for (std::size_t i = 0; i + 1 < w.tokens.size(); ++i) {
        counts[{w.tokens[i], w.tokens[i + 1]}] += w.count;
      }
    }
    if (counts.empty()) break;
    auto best = counts.begin();  // the first of the largest: smallest pair
    for (auto it = counts.begin(); it != counts.end(); ++it) {
      if (it->second > best->second) best = it;
    }
    const auto merged = static_cast<llm::TokenId>(llm::byte_token_count + step);
    for (Word& w : words) {
      llm::merge_pair(w.tokens, best->first.first, best->first.second, merged);
    }
    merges.push_back({best->first.first, best->first.second, best->second});
  }
  return merges;
}

}  // namespace exercise
