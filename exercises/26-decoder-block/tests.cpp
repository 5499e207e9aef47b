// The exercise tests of the decoder-block chapter. They call
// exercise::decoder_block (starter.cpp, once fixed) on a small block
// (d = 4, two heads, f = 6) with seeded weights and check how the
// pieces are wired: what each residual adds to, what each norm reads,
// and that a block whose branches output zero passes the stream on
// untouched. Each test names what it checks, and a failure prints
// which element is wrong.
#include <catch2/catch.hpp>

#include <cmath>
#include <cstddef>
#include <vector>

#include "exercise.hpp"

namespace {

using llm::Tape;
using llm::Tensor;
using llm::Var;

const llm::DecoderBlockConfig config{
    .attention = {.d_model = 4, .heads = 2, .rope_base = 100.0,
                  .capacity = 8},
    .ffn_width = 6,
    .eps = 1e-5};

// Two sequences of three tokens, x [2, 3, 4].
Tensor fixture_x() {
  return Tensor({2, 3, 4}, {0.5, -1.0, 2.0, 0.0,  1.5, 0.25, -0.5, 1.0,
                            -2.0, 1.0, 0.5, 0.75, 0.0, 1.0, 1.0, -1.0,
                            3.0, -0.5, 0.25, 0.5, -1.0, -1.0, 2.0, 0.5});
}

// The block's weights from seed 26, as leaves of `tape` (both gains
// are ones).
struct Block {
  llm::Parameters params{26};
  Block() { llm::add_decoder_block_parameters(params, config); }
  llm::DecoderBlockWeights weights(Tape& tape) const {
    const llm::ParameterLeaves leaves(tape, params);
    return llm::decoder_block_weights(leaves);
  }
};

// Requires a == b element by element: `what` names the pair.
void require_equal(const Tensor& a, const Tensor& b, const char* what) {
  REQUIRE(a.shape() == b.shape());
  const std::vector<double> av = a.to_vector(), bv = b.to_vector();
  for (std::size_t k = 0; k < av.size(); ++k) {
    INFO(what << ", element " << k << " (token " << k / 4 % 3
              << " of sequence " << k / 12 << ", feature " << k % 4
              << ")");
    CHECK(av[k] == Approx(bv[k]).margin(1e-12));
  }
}

// x + y element by element, a plain loop.
Tensor plus(const Tensor& x, const Tensor& y) {
  std::vector<double> v = x.to_vector();
  const std::vector<double> w = y.to_vector();
  for (std::size_t k = 0; k < v.size(); ++k) v[k] += w[k];
  return Tensor(x.shape(), v);
}

}  // namespace

TEST_CASE("with both branches silenced the block passes x on unchanged") {
  // W_O = 0 makes attention's output exactly 0, W_down = 0 the
  // feed-forward's: every residual then adds 0 to the stream, so the
  // output is x itself, not a normalised version of it.
  Tape tape;
  llm::DecoderBlockWeights w = Block().weights(tape);
  w.w_o = tape.leaf(Tensor({4, 4}));
  w.w_down = tape.leaf(Tensor({6, 4}));
  const llm::DecoderBlockTrace r =
      exercise::decoder_block(tape.leaf(fixture_x()), w, config);
  require_equal(r.out.value(), fixture_x(), "output against x");
}

TEST_CASE("h is the stream x plus attention's output") {
  Tape tape;
  const llm::DecoderBlockTrace r = exercise::decoder_block(
      tape.leaf(fixture_x()), Block().weights(tape), config);
  require_equal(r.h.value(), plus(fixture_x(), r.attention.out.value()),
                "h against x + attention.out");
}

TEST_CASE("the second norm reads h, the stream after attention") {
  // RMSNorm with gain 1, by hand: each token of h divided by the root of
  // its mean square plus eps.
  Tape tape;
  const llm::DecoderBlockTrace r = exercise::decoder_block(
      tape.leaf(fixture_x()), Block().weights(tape), config);
  std::vector<double> v = r.h.value().to_vector();
  for (std::size_t row = 0; row < v.size() / 4; ++row) {
    double squares = 0.0;
    for (std::size_t j = 0; j < 4; ++j) {
      squares += v[row * 4 + j] * v[row * 4 + j];
    }
    const double root = std::sqrt(squares / 4 + config.eps);
    for (std::size_t j = 0; j < 4; ++j) v[row * 4 + j] /= root;
  }
  require_equal(r.norm2.value(), Tensor({2, 3, 4}, v),
                "norm2 against RMSNorm(h)");
}

TEST_CASE("the output is h plus the feed-forward branch") {
  Tape tape;
  const llm::DecoderBlockTrace r = exercise::decoder_block(
      tape.leaf(fixture_x()), Block().weights(tape), config);
  require_equal(r.out.value(), plus(r.h.value(), r.ffn.value()),
                "output against h + ffn");
}
