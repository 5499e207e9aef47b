// What the bpe-training chapter's exercise asks for: BPE's merge loop on
// a list of distinct words with their counts. The exercise tests
// (tests.cpp) call it; starter.cpp defines it with three mistakes for the
// reader to find and fix.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "llm/bpe.hpp"

namespace exercise {

/// One distinct word of the training text: its tokens (bytes at the
/// start) and how many times the word occurs.
struct Word {
  std::vector<llm::TokenId> tokens;
  std::uint64_t count;
};

/// As llm::merge_pair: replaces each `left` followed by `right` by
/// `merged`, scanning from left to right (so "a a a" with the pair
/// (a, a) becomes "M a"); returns the number of replacements.
std::size_t merge_pair(std::vector<llm::TokenId>& tokens, llm::TokenId left,
                       llm::TokenId right, llm::TokenId merged);

/// Up to merge_count merges, as llm::train_bpe learns them: each step
/// counts every adjacent pair inside every word, weighted by the word's
/// count, merges the pair with the largest count (among equal counts the
/// smallest (left, right)) into token 256 + step in every word, and
/// records it with its count. Stops early when no pair is left.
std::vector<llm::Merge> learn_merges(std::vector<Word> words,
                                     std::size_t merge_count);

}  // namespace exercise
