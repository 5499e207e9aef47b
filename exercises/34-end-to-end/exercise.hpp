// What the end-to-end chapter's exercise asks for: generation through the
// key/value cache. The exercise tests (tests.cpp) call it; starter.cpp
// defines it with three mistakes for the reader to find and fix.
#pragma once

#include <cstddef>
#include <vector>

#include "llm/generation.hpp"

namespace exercise {

/// As llm::generate_cached, for a valid context and valid options:
/// read `context` into a cache, then up to `count` times draw a token
/// from the last logits, stop (without it) if it is `stop`, append it,
/// and read it; when the cache is full, read the last config.context / 2
/// tokens into a new cache instead.
std::vector<llm::TokenId> generate_cached(const llm::Parameters& params,
                                          const llm::ModelConfig& config,
                                          std::vector<llm::TokenId> context,
                                          std::size_t count,
                                          const llm::SamplingOptions& options,
                                          llm::Rng& rng, llm::TokenId stop);

}  // namespace exercise
