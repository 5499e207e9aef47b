// What the bpe-tokenizer chapter's exercise asks for: encoding one word
// with learned merges. The exercise tests (tests.cpp) call it;
// starter.cpp defines it with three mistakes for the reader to find and
// fix.
#pragma once

#include <string_view>
#include <vector>

#include "llm/bpe.hpp"

namespace exercise {

/// The tokens of one word, as llm::Tokenizer encodes it: start from its
/// bytes (ids 0 .. 255), then, while some adjacent pair of the word has a
/// merge, apply the merge learned first (the lowest rank i, which makes
/// id 256 + i) to every occurrence of its pair.
std::vector<llm::TokenId> encode_word(const std::vector<llm::Merge>& merges,
                                      std::string_view word);

}  // namespace exercise
