// Shared by the end-to-end chapter's unit tests and its exercise tests:
// a small seeded model whose draws depend on the context, and the
// rebuild rule of a full key/value cache written as a plain loop over
// decode_step.
#pragma once

#include <cstddef>
#include <memory>
#include <utility>
#include <vector>

#include "llm/generation.hpp"
#include "llm/kv_cache.hpp"
#include "llm/params.hpp"
#include "llm/random.hpp"
#include "llm/sampling.hpp"

using Ids = std::vector<llm::TokenId>;

// The spread model's configuration.
inline const llm::ModelConfig kConfig{.vocab = 13, .d_model = 8, .layers = 2,
                                      .heads = 2, .ffn_width = 12,
                                      .context = 10};

// A stop id no draw can give.
inline constexpr llm::TokenId kNever = 1000;

// A seeded model far from its initialisation, so that draws depend on
// the context: the embedding scaled from its 0.02 spread to 1 (else the
// tied output's logits are nearly equal and a draw depends only on the
// uniform number), and the block matrices 8 times larger (else the
// current token's embedding dominates the stream). A token read at the
// wrong place or not at all then changes the draws.
inline llm::Parameters spread_model() {
  llm::Parameters p(34);
  llm::add_model_parameters(p, kConfig);
  for (const auto& named : p.list()) {
    if (named.value.shape().size() != 2) continue;
    const double factor = named.name == "embed.weight" ? 50.0 : 8.0;
    llm::Tensor w = named.value;
    for (std::size_t i = 0; i < w.shape()[0]; ++i) {
      for (std::size_t j = 0; j < w.shape()[1]; ++j) {
        w.set({i, j}, factor * w.at({i, j}));
      }
    }
  }
  return p;
}

// `prompt` and `count` tokens drawn after it from the spread model, by
// decode_step on one cache: when the cache holds its 10 positions, the
// token just drawn is read with the 4 before it into a new cache (the
// last 5 ids).
inline Ids rebuilt_by_hand(const llm::Parameters& p,
                           const llm::SamplingOptions& o, llm::Rng& rng,
                           Ids prompt, int count) {
  Ids want = std::move(prompt);
  auto cache = std::make_unique<llm::KvCache>(kConfig);
  std::vector<double> logits;
  for (llm::TokenId id : want) {
    logits = llm::decode_step(p, kConfig, *cache, id).to_vector();
  }
  for (int n = 0; n < count; ++n) {
    const llm::TokenId next = llm::sample_token(logits, o, rng);
    want.push_back(next);
    if (cache->size() == kConfig.context) {
      cache = std::make_unique<llm::KvCache>(kConfig);
      for (std::size_t i = want.size() - 5; i < want.size(); ++i) {
        logits = llm::decode_step(p, kConfig, *cache, want[i]).to_vector();
      }
    } else {
      logits = llm::decode_step(p, kConfig, *cache, next).to_vector();
    }
  }
  return want;
}
