// The function the neural-ngram chapter's exercise asks for. The
// exercise tests (tests.cpp) call it; starter.cpp defines it with three
// mistakes for the reader to find and fix.
#pragma once

#include <cstddef>
#include <vector>

#include "llm/bpe.hpp"
#include "llm/ngram.hpp"

namespace exercise {

/// The n-gram examples of `docs`, as llm::ngram_examples cuts them: for
/// each document and each position t from n - 1 on, the context ids
/// t - n + 1 .. t - 1 (oldest first) and the target id t. No window
/// reaches across a document's start. Throws llm::ConfigError for
/// n < 2 or a document of fewer than n ids.
llm::NgramBatch ngram_windows(
    const std::vector<std::vector<llm::TokenId>>& docs, std::size_t order);

}  // namespace exercise
