// Tests for the review of Part VI: the counts the review states, each
// against arithmetic written out here. The book's model's parameters by
// hand equal the formula and the registry; the key/value cache holds
// 2 N d numbers per position read; the mean arithmetic per token over a
// full context, by hand for a small model, equals the mean of
// cached_step_work.
#include <catch2/catch.hpp>

#include <cstddef>

#include "llm/decoder_model.hpp"
#include "llm/kv_cache.hpp"
#include "llm/params.hpp"
#include "llm/training.hpp"

namespace {

// V 11, d 8, N 2 blocks of 2 heads, f 16, context 8: the review's small
// model.
const llm::ModelConfig small{.vocab = 11, .d_model = 8, .layers = 2,
                             .heads = 2, .ffn_width = 16, .context = 8};

}  // namespace

TEST_CASE("the book's model has 320160 parameters by hand, by formula and "
          "in the registry",
          "[llm-review]") {
  const llm::ModelConfig c = llm::book_model_config();
  REQUIRE(c.vocab == 1026);
  REQUIRE(c.d_model == 96);
  REQUIRE(c.layers == 2);
  REQUIRE(c.ffn_width == 256);
  // Embedding 1026 * 96 = 98496; a block 2*96 + 4*96*96 + 3*96*256 =
  // 192 + 36864 + 73728 = 110784; the final gain 96.
  const std::size_t by_hand = 98496 + 2 * 110784 + 96;
  CHECK(by_hand == 320160);
  CHECK(llm::model_parameter_count(c) == by_hand);
  llm::Parameters p(34);
  llm::add_model_parameters(p, c);
  CHECK(p.scalar_count() == by_hand);
  CHECK(p.size() == 1 + 9 * 2 + 1);  // embedding, 9 per block, final gain
}

TEST_CASE("the key/value cache holds 2 N d numbers per position",
          "[llm-review]") {
  llm::Parameters p(34);
  llm::add_model_parameters(p, small);
  llm::KvCache cache(small);
  for (std::size_t t = 1; t <= 5; ++t) {
    llm::decode_step(p, small, cache, t % small.vocab);
    std::size_t numbers = 0;
    for (std::size_t l = 0; l < small.layers; ++l) {
      numbers += cache.key_rows(l).size() + cache.value_rows(l).size();
    }
    // Each of the 2 layers keeps a key and a value of d = 8 per position.
    CHECK(numbers == t * 2 * 2 * 8);
  }
}

TEST_CASE("the mean arithmetic per token over a full context matches the "
          "hand count",
          "[llm-review]") {
  // At position t: N (4 d^2 + 3 d f + 2 (t + 1) d) + V d
  //   = 2 (256 + 384 + 16 (t + 1)) + 88 = 1368 + 32 (t + 1).
  // The mean of t + 1 over t = 0 .. 7 is 4.5, so the mean is
  // 1368 + 32 * 4.5 = 1512.
  std::size_t total = 0;
  for (std::size_t t = 0; t < small.context; ++t) {
    CHECK(llm::cached_step_work(small, t) == 1368 + 32 * (t + 1));
    total += llm::cached_step_work(small, t);
  }
  CHECK(total == 1512 * 8);
}
