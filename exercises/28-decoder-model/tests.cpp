// The exercise tests of the decoder-model chapter. Each builds a small
// seeded model, runs exercise::model_logits (starter.cpp, once fixed)
// and compares it with what the model must satisfy: the book's
// model_forward, bit for bit, since the same operations in the same
// order give the same roundings; a sequence that does not depend on
// the others in its batch; logits that scale with the final gain.
#include <catch2/catch.hpp>

#include <cstddef>
#include <vector>

#include "exercise.hpp"
#include "llm/layers.hpp"
#include "llm/params.hpp"

namespace {

llm::ModelConfig config_with(std::size_t layers) {
  return {.vocab = 11, .d_model = 8, .layers = layers, .heads = 2,
          .ffn_width = 12, .context = 6};
}

// The model's parameters for `c`, from seed 28.
llm::Parameters seeded(const llm::ModelConfig& c) {
  llm::Parameters params(28);
  llm::add_model_parameters(params, c);
  return params;
}

// The logits of both ways for `ids` (B sequences of T), on one tape.
struct Both {
  std::vector<double> mine, book;
};

Both logits_of(const llm::ModelConfig& c, const llm::Parameters& params,
               std::size_t batch, const std::vector<std::size_t>& ids) {
  llm::Tape tape;
  const llm::ParameterLeaves leaves(tape, params);
  const llm::ModelWeights w = llm::model_weights(leaves, c);
  const llm::TokenGrid grid{batch, ids.size() / batch, ids};
  const llm::Var book = llm::model_forward(w, c, grid).logits;
  const llm::Var mine = exercise::model_logits(w, c, grid);
  REQUIRE(mine.shape() == book.shape());
  return {mine.value().to_vector(), book.value().to_vector()};
}

const std::vector<std::size_t> kTwo = {3, 1, 4, 1, 5, 9, 2, 6};  // B 2, T 4

}  // namespace

TEST_CASE("one block: equal to model_forward, bit for bit") {
  const llm::ModelConfig c = config_with(1);
  llm::Parameters params = seeded(c);
  const Both b = logits_of(c, params, 2, kTwo);
  CHECK(b.mine == b.book);
}

TEST_CASE("a sequence's logits do not depend on the other sequences") {
  // Sequence 0 alone (B = 1) and as the first of two (B = 2) must give
  // the same logits: attention reads only its own sequence. Mixing the
  // B and T axes of the embedded rows breaks this.
  const llm::ModelConfig c = config_with(1);
  llm::Parameters params = seeded(c);
  const Both two = logits_of(c, params, 2, kTwo);
  const Both one = logits_of(c, params, 1, {3, 1, 4, 1});
  INFO("logits of sequence 0 (its 4 positions x 11 ids) alone vs in the batch");
  const std::vector<double> first(two.mine.begin(), two.mine.begin() + 44);
  CHECK(one.mine == first);
}

TEST_CASE("two blocks: the second reads what the first wrote") {
  // With N = 2 the second block's input is the first block's output;
  // fed the embedding again, it computes something else.
  const llm::ModelConfig c = config_with(2);
  llm::Parameters params = seeded(c);
  const Both b = logits_of(c, params, 2, kTwo);
  CHECK(b.mine == b.book);
}

TEST_CASE("the final gain scales the logits: the final RMSNorm is there") {
  // logits = (g * x / rms(x)) E^T, so doubling the final gain g doubles
  // every logit exactly (a power of two changes no rounding). Without
  // the final RMSNorm the gain is never used and nothing changes.
  const llm::ModelConfig c = config_with(1);
  llm::Parameters params = seeded(c);
  const Both before = logits_of(c, params, 2, kTwo);
  llm::Tensor gain = params.at("final_norm.gain");
  for (std::size_t i = 0; i < c.d_model; ++i) gain.set({i}, 2.0);
  const Both after = logits_of(c, params, 2, kTwo);
  REQUIRE(after.mine.size() == before.mine.size());
  for (std::size_t i = 0; i < after.mine.size(); ++i) {
    INFO("logit " << i);
    CHECK(after.mine[i] == 2.0 * before.mine[i]);
  }
}
