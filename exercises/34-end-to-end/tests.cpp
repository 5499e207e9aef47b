// The exercise tests of the end-to-end chapter. They call
// exercise::generate_cached (starter.cpp, once fixed) on a small seeded
// model and compare it with the sampling chapter's uncached generate
// (equal tokens while the context has room), with the stop rule, and
// with the rebuild rule written as a plain loop here.
#include <catch2/catch.hpp>

#include <memory>
#include <vector>

#include "exercise.hpp"
#include "llm/kv_cache.hpp"

namespace {

using Ids = std::vector<llm::TokenId>;

const llm::ModelConfig kConfig{.vocab = 13, .d_model = 8, .layers = 2,
                               .heads = 2, .ffn_width = 12, .context = 10};

// A seeded model far from its initialisation, so that draws depend on
// the context: the embedding scaled from its 0.02 spread to 1 (else the
// tied output's logits are nearly equal and a draw depends only on the
// uniform number), and the block matrices 8 times larger (else the
// current token's embedding dominates the stream). A token read at the
// wrong place or not at all then changes the draws.
llm::Parameters model() {
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

constexpr llm::TokenId kNever = 1000;  // a stop id no draw can give

}  // namespace

TEST_CASE("the same tokens as uncached generation while the context has room") {
  // Each drawn token must be read into the cache before the next draw;
  // the uncached loop runs the whole model on everything so far.
  const llm::Parameters p = model();
  const llm::SamplingOptions o{.temperature = 1.0};
  llm::Rng a(7), b(7);
  const Ids got = exercise::generate_cached(p, kConfig, {1, 2, 3}, 6, o, a, kNever);
  const Ids want = llm::generate(p, kConfig, {1, 2, 3}, 6, o, b);
  CHECK(got == want);
}

TEST_CASE("the stop token ends generation and is not returned") {
  // With the first token the model draws as the stop token, nothing is
  // added to the context.
  const llm::Parameters p = model();
  const llm::SamplingOptions greedy{.temperature = 0.0};
  llm::Rng a(1), b(1);
  const Ids free = exercise::generate_cached(p, kConfig, {4}, 3, greedy, a, kNever);
  REQUIRE(free.size() == 4);
  const Ids stopped = exercise::generate_cached(p, kConfig, {4}, 3, greedy, b, free[1]);
  CHECK(stopped == Ids{4});
}

TEST_CASE("a full cache is rebuilt from the last half of the tokens") {
  // Context 10: when 10 positions are held, the next drawn token is read
  // with the 4 before it into a new cache (the last 5 tokens).
  const llm::Parameters p = model();
  const llm::SamplingOptions o{.temperature = 1.0};
  llm::Rng a(3), b(3);
  const Ids got = exercise::generate_cached(p, kConfig, {1, 2}, 15, o, a, kNever);
  Ids want = {1, 2};
  auto cache = std::make_unique<llm::KvCache>(kConfig);
  std::vector<double> logits;
  for (llm::TokenId id : want) logits = llm::decode_step(p, kConfig, *cache, id).to_vector();
  for (int n = 0; n < 15; ++n) {
    const llm::TokenId next = llm::sample_token(logits, o, b);
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
  CHECK(got == want);
}
