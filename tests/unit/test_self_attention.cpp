// Tests for chapter self-attention: scale and softmax on the tape,
// scaled dot-product scores, the weighted sum and one head of
// self-attention. Values are checked against hand derivations and
// against a plain-loop implementation (attention_reference.hpp), which
// uses nothing of the library but Tensor's constructor and element
// access.
#include <catch2/catch.hpp>

#include <cmath>
#include <cstddef>
#include <limits>
#include <string>
#include <utility>
#include <vector>

#include "llm/attention.hpp"
#include "llm/autograd.hpp"
#include "llm/error.hpp"
#include "llm/tensor.hpp"
#include "attention_reference.hpp"
#include "fixtures.hpp"
#include "message_of.hpp"
#include "tape_check.hpp"

namespace {

using llm::Shape;
using llm::Tape;
using llm::Tensor;
using llm::Var;

// The chapter's fixture: three tokens of width 4, W_Q = W_V = I, W_K
// swaps features 0 and 1, and 2 and 3.
const Tensor fx({3, 4}, {1, 0, 0, 0, 0, 1, 0, 0, 1, 1, 1, 1});
const Tensor eye({4, 4}, {1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1});
const Tensor swap({4, 4}, {0, 1, 0, 0, 1, 0, 0, 0, 0, 0, 0, 1, 0, 0, 1, 0});

}  // namespace

// ---- scale and softmax ------------------------------------------------

TEST_CASE("scale multiplies values and gradients by the factor",
          "[self-attention]") {
  Tape tape;
  const Var x = tape.leaf(Tensor({3}, {1.0, -2.0, 0.5}));
  const Var y = llm::scale(x, 0.5);
  REQUIRE(y.value().to_vector() == std::vector<double>{0.5, -1.0, 0.25});
  tape.backward(y, Tensor({3}, {1.0, 2.0, 4.0}));
  REQUIRE(x.grad().to_vector() == std::vector<double>{0.5, 1.0, 2.0});
}

TEST_CASE("scale rejects an infinite factor", "[self-attention]") {
  Tape tape;
  const Var x = tape.leaf(Tensor({2}));
  const double inf = std::numeric_limits<double>::infinity();
  REQUIRE_THROWS_AS(llm::scale(x, inf), llm::DomainError);
  REQUIRE_THROWS_WITH(llm::scale(x, inf),
                      "scale: expected a finite factor, got inf");
  REQUIRE(tape.size() == 1);  // nothing recorded
}

TEST_CASE("scale rejects a NaN factor", "[self-attention]") {
  Tape tape;
  const Var x = tape.leaf(Tensor({2}));
  const double nan = std::numeric_limits<double>::quiet_NaN();
  REQUIRE_THROWS_AS(llm::scale(x, nan), llm::DomainError);
  REQUIRE_THROWS_WITH(llm::scale(x, nan),
                      Catch::Matchers::StartsWith(
                          "scale: expected a finite factor, got ") &&
                          Catch::Matchers::Contains("nan"));
}

TEST_CASE("softmax on the tape: values and the VJP by hand",
          "[self-attention]") {
  Tape tape;
  // Row 0: s = (0, 0) gives p = (1/2, 1/2). Row 1: s = (0, log 3)
  // gives p = (1/4, 3/4).
  const Var s = tape.leaf(Tensor({2, 2}, {0.0, 0.0, 0.0, std::log(3.0)}));
  const Var p = llm::softmax(s);
  const std::vector<double> pv = p.value().to_vector();
  REQUIRE(pv[0] == 0.5);
  REQUIRE(pv[1] == 0.5);
  REQUIRE(pv[2] == Approx(0.25).epsilon(1e-15));
  REQUIRE(pv[3] == Approx(0.75).epsilon(1e-15));
  // g = (1, 0) on both rows. Row 0: sum(g p) = 1/2, so
  // s_bar = p (g - 1/2) = (1/4, -1/4). Row 1: sum(g p) = 1/4, so
  // s_bar = (1/4 * 3/4, 3/4 * -1/4) = (3/16, -3/16).
  tape.backward(p, Tensor({2, 2}, {1.0, 0.0, 1.0, 0.0}));
  const std::vector<double> g = s.grad().to_vector();
  REQUIRE(g[0] == 0.25);
  REQUIRE(g[1] == -0.25);
  REQUIRE(g[2] == Approx(3.0 / 16.0).epsilon(1e-14));
  REQUIRE(g[3] == Approx(-3.0 / 16.0).epsilon(1e-14));
}

TEST_CASE("a softmax gradient adds up to zero along each row",
          "[self-attention]") {
  // softmax(s + c) = softmax(s), so moving a whole row changes nothing
  // and the row's gradient must sum to zero whatever g is.
  Tape tape;
  const Var s = tape.leaf(ramp({3, 4}, -1.3, 0.45));
  tape.backward(llm::softmax(s), ramp({3, 4}, 0.7, -0.31));
  for (std::size_t i = 0; i < 3; ++i) {
    double total = 0.0;
    for (std::size_t j = 0; j < 4; ++j) total += s.grad().at({i, j});
    CHECK(total == Approx(0.0).margin(1e-15));
  }
}

TEST_CASE("softmax on the tape rejects a tensor without a last axis",
          "[self-attention]") {
  Tape tape;
  REQUIRE_THROWS_AS(llm::softmax(tape.leaf(Tensor({2, 0}))),
                    llm::ShapeError);
  REQUIRE_THROWS_WITH(llm::softmax(tape.leaf(Tensor({2, 0}))),
                      "softmax: x is [2,0], which has no logits along a "
                      "last axis");
}

// ---- scores and attend ------------------------------------------------

TEST_CASE("attention_scores is q k^T / sqrt(d_k), by hand",
          "[self-attention]") {
  Tape tape;
  // d_k = 4, so the scale is exactly 1/2. q = (1, 2, 0, 0);
  // k0 = (1, 1, 1, 1): q.k0 = 3; k1 = (0, 1, 0, 3): q.k1 = 2.
  const Var q = tape.leaf(Tensor({1, 4}, {1, 2, 0, 0}));
  const Var k = tape.leaf(Tensor({2, 4}, {1, 1, 1, 1, 0, 1, 0, 3}));
  const Var s = llm::attention_scores(q, k);
  REQUIRE(s.shape() == Shape{1, 2});
  REQUIRE(s.value().to_vector() == std::vector<double>{1.5, 1.0});
}

TEST_CASE("attention_scores rejects q and k of incompatible shapes",
          "[self-attention]") {
  const std::string rule = "expected [..., T, d_k] and [..., S, d_k] with "
                           "the same leading axes and d_k > 0";
  struct Bad {
    Shape q, k;
    std::string shapes;  // as the message names them
  };
  const std::vector<Bad> cases = {
      {{4}, {2, 4}, "q is [4], k is [2,4]"},  // q of rank 1
      {{3, 4}, {3, 2}, "q is [3,4], k is [3,2]"},  // different key widths
      {{2, 3, 4}, {3, 3, 4}, "q is [2,3,4], k is [3,3,4]"},  // leading axes
      {{3, 0}, {3, 0}, "q is [3,0], k is [3,0]"},  // d_k = 0
  };
  for (const Bad& bad : cases) {
    Tape tape;
    const Var q = tape.leaf(Tensor(bad.q)), k = tape.leaf(Tensor(bad.k));
    CHECK(message_of<llm::ShapeError>([&] { llm::attention_scores(q, k); }) ==
          "attention_scores: " + bad.shapes + ", " + rule);
  }
}

TEST_CASE("attend weights the value rows", "[self-attention]") {
  Tape tape;
  // Row 0 takes 1/4 of v0 and 3/4 of v1: (1/4)(4, 0) + (3/4)(0, 8).
  const Var p = tape.leaf(Tensor({2, 2}, {0.25, 0.75, 1.0, 0.0}));
  const Var v = tape.leaf(Tensor({2, 2}, {4.0, 0.0, 0.0, 8.0}));
  REQUIRE(llm::attend(p, v).value().to_vector() ==
          std::vector<double>{1.0, 6.0, 4.0, 0.0});
}

TEST_CASE("attend rejects probabilities whose columns do not match the "
          "value rows", "[self-attention]") {
  Tape tape;
  const Var p = tape.leaf(Tensor({3, 3})), v = tape.leaf(Tensor({2, 5}));
  REQUIRE_THROWS_AS(llm::attend(p, v), llm::ShapeError);
  REQUIRE_THROWS_WITH(llm::attend(p, v),
                      "attend: probs is [3,3], v is [2,5], expected "
                      "[..., T, S] and [..., S, d_v] with the same "
                      "leading axes");
}

TEST_CASE("attend rejects operands of different ranks",
          "[self-attention]") {
  Tape tape;
  const Var p = tape.leaf(Tensor({1, 3, 3})), v = tape.leaf(Tensor({3, 5}));
  REQUIRE_THROWS_AS(llm::attend(p, v), llm::ShapeError);
  REQUIRE_THROWS_WITH(llm::attend(p, v),
                      "attend: probs is [1,3,3], v is [3,5], expected "
                      "[..., T, S] and [..., S, d_v] with the same "
                      "leading axes");
}

// ---- one head ---------------------------------------------------------

TEST_CASE("the fixture's scores, weights and outputs, by hand",
          "[self-attention]") {
  Tape tape;
  const llm::AttentionResult r = llm::self_attention(
      tape.leaf(fx), tape.leaf(eye), tape.leaf(swap), tape.leaf(eye));
  // Keys are the tokens with features 0<->1 and 2<->3 exchanged:
  // k0 = (0,1,0,0), k1 = (1,0,0,0), k2 = (1,1,1,1). q = x. Dot
  // products /2: row 0 (0, 1, 1)/2, row 1 (1, 0, 1)/2, row 2 (1, 1, 4)/2.
  REQUIRE(r.scores.value().to_vector() ==
          std::vector<double>{0, 0.5, 0.5, 0.5, 0, 0.5, 0.5, 0.5, 2.0});
  // Row 0: (1, e^.5, e^.5) / (1 + 2 e^.5).
  const double e = std::exp(0.5), z0 = 1.0 + 2.0 * e;
  CHECK(r.probs.value().at({0, 0}) == Approx(1.0 / z0).epsilon(1e-14));
  CHECK(r.probs.value().at({0, 1}) == Approx(e / z0).epsilon(1e-14));
  // Row 2: (e^.5, e^.5, e^2) / (2 e^.5 + e^2).
  const double z2 = 2.0 * e + std::exp(2.0);
  CHECK(r.probs.value().at({2, 2}) ==
        Approx(std::exp(2.0) / z2).epsilon(1e-14));
  // Output row 0 = p00 x0 + p01 x1 + p02 x2 with p01 = p02:
  // (p00 + p02, p01 + p02, p02, p02).
  const double p0 = 1.0 / z0, p1 = e / z0;
  const std::vector<double> out0 = r.out.value().slice(0, 0, 1).to_vector();
  CHECK(out0[0] == Approx(p0 + p1).epsilon(1e-14));
  CHECK(out0[1] == Approx(2.0 * p1).epsilon(1e-14));
  CHECK(out0[2] == Approx(p1).epsilon(1e-14));
  CHECK(out0[3] == Approx(p1).epsilon(1e-14));
}

TEST_CASE("self_attention agrees with the plain-loop reference",
          "[self-attention]") {
  const HeadInputs in = {ramp({4, 3}, -0.8, 0.23), ramp({3, 2}, 0.9, -0.31),
                         ramp({3, 2}, -0.5, 0.27), ramp({3, 5}, 0.2, 0.09)};
  Tape tape;
  const llm::AttentionResult r = run_head(tape, llm::self_attention, in);
  REQUIRE(r.scores.shape() == Shape{4, 4});
  REQUIRE(r.out.shape() == Shape{4, 5});
  check_head(r, in, false);
  const Reference ref = reference(rows_of(in.x), rows_of(in.w_q),
                                  rows_of(in.w_k), rows_of(in.w_v));
  CHECK(gap(r.scores.value(), ref.scores) < 1e-14);
}

TEST_CASE("a batch is attended sequence by sequence",
          "[self-attention]") {
  const HeadInputs in = {ramp({2, 3, 4}, 1.1, -0.13), ramp({4, 2}, 0.4, 0.1),
                         ramp({4, 2}, -0.3, 0.2), ramp({4, 3}, 0.7, -0.2)};
  Tape tape;
  const llm::AttentionResult r = run_head(tape, llm::self_attention, in);
  REQUIRE(r.probs.shape() == Shape{2, 3, 3});
  REQUIRE(r.out.shape() == Shape{2, 3, 3});
  check_head(r, in, false);
}

TEST_CASE("exchanging two tokens exchanges their outputs bit for bit",
          "[self-attention]") {
  const Tensor w_q = ramp({4, 4}, 0.4, -0.07), w_k = ramp({4, 4}, -0.2, 0.05);
  const Tensor w_v = ramp({4, 2}, 0.3, 0.11);
  const Tensor x = ramp({3, 4}, -1.0, 0.19);
  // The same tokens with rows 0 and 1 exchanged.
  std::vector<double> flat = x.to_vector();
  for (std::size_t c = 0; c < 4; ++c) std::swap(flat[c], flat[4 + c]);
  Tape tape;
  const auto out = [&](const Tensor& in) {
    return run_head(tape, llm::self_attention, {in, w_q, w_k, w_v})
        .out.value();
  };
  const Tensor a = out(x), b = out(Tensor({3, 4}, flat));
  // a + b == b + a exactly, so sums over the keys in the orders
  // (0, 1, 2) and (1, 0, 2) agree to the last bit.
  for (std::size_t c = 0; c < 2; ++c) {
    CHECK(a.at({0, c}) == b.at({1, c}));
    CHECK(a.at({1, c}) == b.at({0, c}));
    CHECK(a.at({2, c}) == b.at({2, c}));
  }
}

TEST_CASE("self_attention rejects each bad shape, recording nothing",
          "[self-attention]") {
  struct Bad {
    Shape x, w_q, w_k, w_v;
    std::string message;
  };
  const std::string x_rule = "expected [T, d] or [B, T, d] with no empty axis";
  const std::string w_rule = "expected [4, n] with n > 0";
  const Shape w{4, 2};
  const std::vector<Bad> cases = {
      {{4}, w, w, w, "self_attention: x is [4], " + x_rule},  // rank 1
      {{1, 2, 3, 4}, w, w, w, "self_attention: x is [1,2,3,4], " + x_rule},
      {{2, 0, 4}, w, w, w, "self_attention: x is [2,0,4], " + x_rule},
      // A query matrix of the wrong width, a key matrix of rank 1, a
      // value matrix with no columns.
      {{3, 4}, {5, 2}, w, w, "self_attention: w_q is [5,2], " + w_rule},
      {{3, 4}, w, {4}, w, "self_attention: w_k is [4], " + w_rule},
      {{3, 4}, w, w, {4, 0}, "self_attention: w_v is [4,0], " + w_rule},
      // Queries and keys of different widths.
      {{3, 4}, w, {4, 3}, w,
       "self_attention: w_q is [4,2], w_k is [4,3], expected the same "
       "[d, d_k]"},
  };
  for (const Bad& bad : cases) {
    Tape tape;
    const Var x = tape.leaf(Tensor(bad.x)), w_q = tape.leaf(Tensor(bad.w_q));
    const Var w_k = tape.leaf(Tensor(bad.w_k));
    const Var w_v = tape.leaf(Tensor(bad.w_v));
    const std::size_t before = tape.size();
    CHECK(message_of<llm::ShapeError>([&] {
            llm::self_attention(x, w_q, w_k, w_v);
          }) == bad.message);
    CHECK(tape.size() == before);
  }
}

TEST_CASE("every attention operation passes a gradient check",
          "[self-attention]") {
  const auto check = [](const llm::TapeFunction& f,
                        const std::vector<Tensor>& in) {
    return worst_tape_error(f, in);
  };
  CHECK(check([](Tape&, const Vars& v) { return llm::scale(v[0], -1.7); },
              {ramp({2, 3}, 0.2, 0.3)}) < grad_tol);
  CHECK(check([](Tape&, const Vars& v) { return llm::softmax(v[0]); },
              {ramp({2, 3, 4}, -1.2, 0.1)}) < grad_tol);
  CHECK(check([](Tape&, const Vars& v) {
    return llm::attention_scores(v[0], v[1]); },
              {ramp({2, 3, 2}, 0.5, -0.1), ramp({2, 4, 2}, -0.3, 0.12)}) <
        grad_tol);
  CHECK(check([](Tape&, const Vars& v) { return llm::attend(v[0], v[1]); },
              {ramp({2, 3, 4}, 0.1, 0.02), ramp({2, 4, 3}, 0.6, -0.1)}) <
        grad_tol);
  // The head with respect to x and all three matrices, and on a batch.
  check_head_gradients(llm::self_attention);
}

// ---- the exercises ----------------------------------------------------

TEST_CASE("exercise: row 2 of the fixture by hand",
          "[self-attention]") {
  // Scores (1/2, 1/2, 2): weights e^.5 : e^.5 : e^2, and the output is
  // (p0 + p2, p1 + p2, p2, p2) with v = x.
  Tape tape;
  const llm::AttentionResult r = llm::self_attention(
      tape.leaf(fx), tape.leaf(eye), tape.leaf(swap), tape.leaf(eye));
  const double z = 2.0 * std::exp(0.5) + std::exp(2.0);
  const double p0 = std::exp(0.5) / z, p2 = std::exp(2.0) / z;
  CHECK(r.out.value().at({2, 0}) == Approx(p0 + p2).epsilon(1e-14));
  CHECK(r.out.value().at({2, 2}) == Approx(p2).epsilon(1e-14));
  CHECK(p2 == Approx(0.691438).margin(5e-7));
}

TEST_CASE("exercise: a uniform row passes the mean of the values",
          "[self-attention]") {
  // W_Q = 0 makes every score 0, every weight 1/T, every output row the
  // mean of the value rows, and the key gradient exactly 0.
  Tape tape;
  const Var x = tape.leaf(ramp({4, 2}, 0.5, 0.5));  // rows (.5,1) ... (3.5,4)
  const Var w_q = tape.leaf(Tensor({2, 2}));
  const Var w_k = tape.leaf(ramp({2, 2}, 1.0, 1.0));
  const Var w_v = tape.leaf(Tensor({2, 2}, {1, 0, 0, 1}));
  const llm::AttentionResult r = llm::self_attention(x, w_q, w_k, w_v);
  for (std::size_t i = 0; i < 4; ++i) {
    CHECK(r.probs.value().at({i, 1}) == 0.25);
    CHECK(r.out.value().at({i, 0}) == Approx(2.0).epsilon(1e-15));
    CHECK(r.out.value().at({i, 1}) == Approx(2.5).epsilon(1e-15));
  }
  tape.backward(r.out, ramp({4, 2}, 1.0, -0.4));
  for (double g : w_k.grad().to_vector()) CHECK(g == 0.0);
}
