// Tests for chapter swiglu: the gated feed-forward branch against hand
// values and a plain-loop reference, its gradients against central
// differences, the hidden-width rule and parameter registration.
#include <catch2/catch.hpp>

#include "llm/autograd.hpp"
#include "llm/error.hpp"
#include "llm/layers.hpp"
#include "llm/matmul.hpp"
#include "llm/model_ops.hpp"
#include "llm/params.hpp"
#include "llm/random.hpp"
#include "llm/swiglu.hpp"
#include "llm/tensor.hpp"
#include "fixtures.hpp"
#include "message_of.hpp"
#include "tape_check.hpp"
#include <cmath>
#include <string>
#include <vector>



namespace {

using llm::Shape;
using llm::Tape;
using llm::Tensor;
using llm::Var;

double silu(double a) { return a / (1.0 + std::exp(-a)); }

// The hand-sized branch on `tape`: x = (1, -1), W_gate, W_up, W_down.
struct HandBranch {
  Var x, wg, wu, wd;
};

HandBranch hand_branch(Tape& tape) {
  return {tape.leaf(Tensor({1, 2}, {1.0, -1.0})),
          tape.leaf(Tensor({2, 3}, {2, 0, -1, 0, 0, 1})),
          tape.leaf(Tensor({2, 3}, {1, 1, 1, 0, -1, 0})),
          tape.leaf(Tensor({3, 2}, {1, 0, 0, 1, 1, 1}))};
}

}  // namespace

TEST_CASE("swiglu on the hand-sized branch", "[swiglu]") {
  // x = (1, -1): gate inputs a = (2, 0, -2), up values b = (1, 2, 1);
  // h = (SiLU(2), 0, SiLU(-2)); W_down rows (1,0), (0,1), (1,1) give
  // y = (h0 + h2, h1 + h2).
  Tape tape;
  const HandBranch br = hand_branch(tape);
  const Var y = llm::swiglu(br.x, br.wg, br.wu, br.wd);
  REQUIRE(y.shape() == Shape{1, 2});
  REQUIRE(y.value().at({0, 0}) == Approx(silu(2.0) + silu(-2.0)));
  REQUIRE(y.value().at({0, 1}) == Approx(silu(-2.0)));
  REQUIRE(y.value().at({0, 0}) == Approx(1.523188).margin(1e-6));
}

TEST_CASE("swiglu is its hidden units times W_down, bit for bit", "[swiglu]") {
  // W_down's rows are (1,0), (0,1), (1,1), so y = (h0 + h2, h1 + h2)
  // exactly: every product is by 1 or 0, and adding an exact zero
  // changes nothing, whatever the order of the sums.
  Tape tape;
  const HandBranch br = hand_branch(tape);
  const Var h = llm::mul(llm::silu(llm::linear(br.x, br.wg)),
                         llm::linear(br.x, br.wu));  // [1, f]
  const Var y = llm::swiglu(br.x, br.wg, br.wu, br.wd);
  const Tensor hv = h.value();
  REQUIRE(y.value().to_vector() ==
          std::vector<double>{hv.at({0, 0}) + hv.at({0, 2}),
                              hv.at({0, 1}) + hv.at({0, 2})});
  REQUIRE(y.value().to_vector() ==
          llm::matmul(hv, br.wd.value()).to_vector());
}

TEST_CASE("swiglu equals a plain-loop reference on a batch",
          "[swiglu]") {
  const std::size_t d = 4, f = 5;
  const Tensor x = ramp({2, 3, d}, -1.0, 0.09);
  const Tensor wg = ramp({d, f}, 0.7, -0.07), wu = ramp({d, f}, -0.4, 0.05);
  const Tensor wd = ramp({f, d}, 0.3, -0.03);
  Tape tape;
  const Var y = llm::swiglu(tape.leaf(x), tape.leaf(wg), tape.leaf(wu),
                            tape.leaf(wd));
  REQUIRE(y.shape() == Shape{2, 3, d});
  for (std::size_t b = 0; b < 2; ++b) {
    for (std::size_t t = 0; t < 3; ++t) {
      std::vector<double> h(f);
      for (std::size_t j = 0; j < f; ++j) {
        double a = 0.0, u = 0.0;
        for (std::size_t i = 0; i < d; ++i) {
          a += x.at({b, t, i}) * wg.at({i, j});
          u += x.at({b, t, i}) * wu.at({i, j});
        }
        h[j] = silu(a) * u;
      }
      for (std::size_t k = 0; k < d; ++k) {
        double out = 0.0;
        for (std::size_t j = 0; j < f; ++j) out += h[j] * wd.at({j, k});
        REQUIRE(y.value().at({b, t, k}) == Approx(out).epsilon(1e-12));
      }
    }
  }
}

TEST_CASE("swiglu passes the finite-difference check", "[swiglu]") {
  const llm::TapeFunction f = [](Tape&, const Vars& v) {
    return llm::swiglu(v[0], v[1], v[2], v[3]);
  };
  const Tensor wg = ramp({3, 4}, 0.9, -0.13), wu = ramp({3, 4}, -0.5, 0.1);
  const Tensor wd = ramp({4, 3}, 0.4, -0.07);
  REQUIRE(worst_tape_error(f, {ramp({2, 2, 3}, -1.2, 0.2), wg, wu, wd}) <
          grad_tol);
  REQUIRE(worst_tape_error(f, {ramp({3}, 0.5, -0.6), wg, wu, wd}) < grad_tol);
}

TEST_CASE("a gated branch is flat at the origin", "[swiglu]") {
  // The exercise: d = 1, f = 2, W_gate = (1, -1), W_up = (2, 2),
  // W_down = (1, 1)^T. At x = 0 every a_j, b_j and SiLU(a_j) is 0, so
  // y = 0 and dy/dx = sum_j SiLU'(a_j) b_j g_j + SiLU(a_j) u_j = 0.
  Tape tape;
  const Var x = tape.leaf(Tensor({1, 1}, {0.0}));
  const Var y = llm::swiglu(x, tape.leaf(Tensor({1, 2}, {1, -1})),
                            tape.leaf(Tensor({1, 2}, {2, 2})),
                            tape.leaf(Tensor({2, 1}, {1, 1})));
  tape.backward(y);
  REQUIRE(y.value().to_vector()[0] == 0.0);
  REQUIRE(x.grad().to_vector()[0] == 0.0);
}

TEST_CASE("swapping the gate and up matrices changes the output",
          "[swiglu]") {
  // With the hand-sized branch swapped, unit 1 has gate input 2 and up
  // value 0: y differs from (1.523188, -0.238406).
  Tape tape;
  const HandBranch br = hand_branch(tape);
  const Var right = llm::swiglu(br.x, br.wg, br.wu, br.wd);
  const Var swapped = llm::swiglu(br.x, br.wu, br.wg, br.wd);
  // Swapped: a = (1, 2, 1), b = (2, 0, -2): h = (2 SiLU(1), 0,
  // -2 SiLU(1)), y = (0, -2 SiLU(1)).
  REQUIRE(swapped.value().at({0, 0}) == Approx(0.0).margin(1e-15));
  REQUIRE(swapped.value().at({0, 1}) == Approx(-2.0 * silu(1.0)));
  REQUIRE(right.value().to_vector() != swapped.value().to_vector());
}

TEST_CASE("swiglu rejects mismatched shapes before recording",
          "[swiglu]") {
  Tape tape;
  const Var x = tape.leaf(Tensor({2, 3}));
  const Var g = tape.leaf(Tensor({3, 4})), u = tape.leaf(Tensor({3, 4}));
  const Var d = tape.leaf(Tensor({4, 3}));
  const Var bad_u = tape.leaf(Tensor({3, 5}));
  const Var bad_d = tape.leaf(Tensor({3, 4}));
  const Var x2 = tape.leaf(Tensor({2, 2}));
  const std::size_t before = tape.size();
  REQUIRE_THROWS_AS(llm::swiglu(x, g, bad_u, d), llm::ShapeError);
  REQUIRE(message_of<llm::ShapeError>([&] { llm::swiglu(x, g, bad_u, d); }) ==
          "swiglu: x is [2,3], w_gate is [3,4], w_up is [3,5], w_down is "
          "[4,3], expected [..., d], [d, f], [d, f] and [f, d]");
  REQUIRE(message_of<llm::ShapeError>([&] { llm::swiglu(x, g, u, bad_d); }) ==
          "swiglu: x is [2,3], w_gate is [3,4], w_up is [3,4], w_down is "
          "[3,4], expected [..., d], [d, f], [d, f] and [f, d]");
  REQUIRE(message_of<llm::ShapeError>([&] { llm::swiglu(x2, g, u, d); }) ==
          "swiglu: x is [2,2], w_gate is [3,4], w_up is [3,4], w_down is "
          "[4,3], expected [..., d], [d, f], [d, f] and [f, d]");
  REQUIRE(tape.size() == before);
}

TEST_CASE("the hidden width is 8d/3 rounded up to a multiple",
          "[swiglu]") {
  // floor(8*4096/3) = 10922 -> 43 * 256 = 11008.
  REQUIRE(llm::swiglu_hidden(4096, 256) == 11008);
  // floor(8*768/3) = 2048, already a multiple of 256.
  REQUIRE(llm::swiglu_hidden(768, 256) == 2048);
  REQUIRE(llm::swiglu_hidden(6, 1) == 16);
  REQUIRE(llm::swiglu_hidden(8, 4) == 24);  // 21 -> 24
  REQUIRE(llm::swiglu_hidden(1, 1) == 2);   // floor(8/3)
  REQUIRE_THROWS_AS(llm::swiglu_hidden(0, 4), llm::ConfigError);
  REQUIRE(message_of<llm::ConfigError>([] { llm::swiglu_hidden(8, 0); }) ==
          "swiglu_hidden: expected width > 0 and multiple > 0, got width 8 "
          "and multiple 0");
}

TEST_CASE("add_swiglu registers three fan-in matrices",
          "[swiglu]") {
  llm::Parameters p(18);
  llm::add_swiglu(p, "ffn", 8, 24);
  REQUIRE(p.size() == 3);
  REQUIRE(p.list()[0].name == "ffn.w_gate");
  REQUIRE(p.list()[1].name == "ffn.w_up");
  REQUIRE(p.list()[2].name == "ffn.w_down");
  REQUIRE(p.at("ffn.w_down").shape() == Shape{24, 8});
  REQUIRE(p.scalar_count() == 3 * 8 * 24);
  llm::Rng rng(llm::derive_seed(18, "ffn.w_down"));
  REQUIRE(p.at("ffn.w_down").to_vector() ==
          llm::init_tensor({24, 8}, llm::fan_in_normal(24), rng).to_vector());
}

TEST_CASE("add_swiglu checks every name before adding any",
          "[swiglu]") {
  llm::Parameters p(1);
  p.add("ffn.w_down", {2, 2}, llm::constant(0.0));
  REQUIRE_THROWS_AS(llm::add_swiglu(p, "ffn", 2, 2), llm::ConfigError);
  REQUIRE(message_of<llm::ConfigError>([&] {
            llm::add_swiglu(p, "ffn", 2, 2);
          }) == "add_swiglu: expected a new name, got 'ffn.w_down', "
                "already registered");
  REQUIRE(p.size() == 1);
  REQUIRE(message_of<llm::ConfigError>([&] {
            llm::add_swiglu(p, "mlp", 2, 0);
          }) == "fan_in_normal: fan_in must be > 0");
  REQUIRE(p.size() == 1);
}
