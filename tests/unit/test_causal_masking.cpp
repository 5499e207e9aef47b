// Tests for chapter causal-masking: is_future, mask_future and its
// backward pass, and the causal head. Values are checked against hand
// derivations and against a plain-loop causal attention
// (attention_reference.hpp), which uses nothing of the library but
// Tensor's constructor and element access.
#include <catch2/catch.hpp>

#include <cmath>
#include <cstddef>
#include <limits>
#include <vector>

#include "llm/attention.hpp"
#include "llm/autograd.hpp"
#include "llm/error.hpp"
#include "llm/softmax.hpp"
#include "llm/tensor.hpp"
#include "attention_reference.hpp"
#include "fixtures.hpp"
#include "tape_check.hpp"

namespace {

using llm::Shape;
using llm::Tape;
using llm::Tensor;
using llm::Var;

const double inf = std::numeric_limits<double>::infinity();

}  // namespace

// ---- is_future and mask_future ---------------------------------------

TEST_CASE("is_future is key > query", "[causal-masking]") {
  CHECK_FALSE(llm::is_future(0, 0));  // the diagonal is visible
  CHECK_FALSE(llm::is_future(3, 1));  // an earlier key
  CHECK(llm::is_future(1, 2));
  CHECK(llm::is_future(0, 5));
}

TEST_CASE("mask_future writes -inf above the diagonal and nothing else",
          "[causal-masking]") {
  Tape tape;
  const Var s = tape.leaf(ramp({3, 3}, 1.0, 1.0));  // 1 .. 9
  const std::vector<double> z = llm::mask_future(s).value().to_vector();
  REQUIRE(z == std::vector<double>{1, -inf, -inf, 4, 5, -inf, 7, 8, 9});
}

TEST_CASE("mask_future masks every matrix of a batch",
          "[causal-masking]") {
  Tape tape;
  const Var s = tape.leaf(ramp({2, 2, 2}, 0.0, 1.0));  // 0 .. 7
  REQUIRE(llm::mask_future(s).value().to_vector() ==
          std::vector<double>{0, -inf, 2, 3, 4, -inf, 6, 7});
}

TEST_CASE("mask_future's backward passes visible gradients and blocks "
          "the rest", "[causal-masking]") {
  Tape tape;
  const Var s = tape.leaf(Tensor({3, 3}));
  tape.backward(llm::mask_future(s), ramp({3, 3}, 1.0, 1.0));
  REQUIRE(s.grad().to_vector() ==
          std::vector<double>{1, 0, 0, 4, 5, 0, 7, 8, 9});
}

TEST_CASE("mask_future's backward, seeded with ones, is 0 above the "
          "diagonal and 1 on and below it", "[causal-masking]") {
  // T = 4: T (T - 1) / 2 = 6 blocked cells get 0, the 10 others get the
  // seed's 1 unchanged, compared with ==.
  Tape tape;
  const Var s = tape.leaf(ramp({4, 4}, -0.5, 0.1));
  tape.backward(llm::mask_future(s), ramp({4, 4}, 1.0, 0.0));  // ones
  std::size_t blocked_zero = 0, visible_one = 0;
  for (std::size_t i = 0; i < 4; ++i) {
    for (std::size_t j = 0; j < 4; ++j) {
      const double g = s.grad().at({i, j});
      blocked_zero += llm::is_future(i, j) && g == 0.0 ? 1 : 0;
      visible_one += !llm::is_future(i, j) && g == 1.0 ? 1 : 0;
    }
  }
  CHECK(blocked_zero == 6);
  CHECK(visible_one == 10);
}

TEST_CASE("mask_future rejects scores of rank 1", "[causal-masking]") {
  Tape tape;
  const Var s = tape.leaf(Tensor({4}));
  REQUIRE_THROWS_AS(llm::mask_future(s), llm::ShapeError);
  REQUIRE_THROWS_WITH(llm::mask_future(s),
                      "mask_future: scores is [4], expected [..., T, T]");
  REQUIRE(tape.size() == 1);  // nothing recorded
}

TEST_CASE("mask_future rejects scores that are not square",
          "[causal-masking]") {
  Tape tape;
  const Var s = tape.leaf(Tensor({2, 3, 4}));
  REQUIRE_THROWS_AS(llm::mask_future(s), llm::ShapeError);
  REQUIRE_THROWS_WITH(llm::mask_future(s),
                      "mask_future: scores is [2,3,4], expected [..., T, T]");
}

TEST_CASE("a masked softmax has exact zeros above the diagonal and rows "
          "adding up to 1", "[causal-masking]") {
  Tape tape;
  // Row 1: scores (0, log 3) -> (1/4, 3/4). Row 0 sees only itself.
  const Var s = tape.leaf(Tensor({3, 3}, {5.0, 9.0, 9.0,             //
                                          0.0, std::log(3.0), 9.0,  //
                                          0.1, 0.2, 0.3}));
  const Tensor p = llm::softmax(llm::mask_future(s)).value();
  REQUIRE(p.at({0, 0}) == 1.0);
  REQUIRE(p.at({0, 1}) == 0.0);
  REQUIRE(p.at({0, 2}) == 0.0);
  REQUIRE(p.at({1, 2}) == 0.0);
  CHECK(p.at({1, 0}) == Approx(0.25).epsilon(1e-15));
  CHECK(p.at({1, 1}) == Approx(0.75).epsilon(1e-15));
  for (std::size_t i = 0; i < 3; ++i) {
    CHECK(p.at({i, 0}) + p.at({i, 1}) + p.at({i, 2}) ==
          Approx(1.0).epsilon(1e-15));
  }
}

// ---- the causal head --------------------------------------------------

TEST_CASE("causal_self_attention agrees with the plain-loop reference",
          "[causal-masking]") {
  const HeadInputs in = {ramp({5, 3}, -0.8, 0.19), ramp({3, 2}, 0.9, -0.31),
                         ramp({3, 2}, -0.5, 0.27), ramp({3, 4}, 0.2, 0.09)};
  Tape tape;
  const llm::AttentionResult r =
      run_head(tape, llm::causal_self_attention, in);
  REQUIRE(r.probs.shape() == Shape{5, 5});
  REQUIRE(r.out.shape() == Shape{5, 4});
  check_head(r, in, true);
  const Reference ref = reference(rows_of(in.x), rows_of(in.w_q),
                                  rows_of(in.w_k), rows_of(in.w_v), true);
  // The masked scores are what the softmax read: the reference's
  // visible scores, and -inf above the diagonal.
  for (std::size_t i = 0; i < 5; ++i) {
    for (std::size_t j = 0; j < 5; ++j) {
      const double z = r.scores.value().at({i, j});
      if (j > i) CHECK(z == -inf);
      if (j <= i) CHECK(z == Approx(ref.scores[i][j]).margin(1e-14));
    }
  }
}

TEST_CASE("a causal batch is attended sequence by sequence",
          "[causal-masking]") {
  const HeadInputs in = {ramp({2, 4, 3}, 1.2, -0.11), ramp({3, 3}, 0.3, 0.05),
                         ramp({3, 3}, -0.4, 0.1), ramp({3, 2}, 0.7, -0.2)};
  Tape tape;
  check_head(run_head(tape, llm::causal_self_attention, in), in, true);
}

TEST_CASE("changing the last token leaves earlier rows bit for bit "
          "unchanged", "[causal-masking]") {
  const Tensor w_q = ramp({3, 3}, 0.4, -0.07), w_k = ramp({3, 3}, -0.2, 0.05);
  const Tensor w_v = ramp({3, 3}, 0.3, 0.11);
  const Tensor x = ramp({4, 3}, -1.0, 0.19);
  std::vector<double> flat = x.to_vector();
  flat[9] = 7.0;  // token 3 only
  flat[10] = -2.5;
  Tape tape;
  const auto out = [&](const Tensor& in) {
    return run_head(tape, llm::causal_self_attention, {in, w_q, w_k, w_v})
        .out.value();
  };
  const Tensor a = out(x), b = out(Tensor({4, 3}, flat));
  for (std::size_t i = 0; i < 3; ++i) {
    for (std::size_t c = 0; c < 3; ++c) CHECK(a.at({i, c}) == b.at({i, c}));
  }
  CHECK(a.at({3, 0}) != b.at({3, 0}));
}

TEST_CASE("changing a middle token leaves only the rows before it",
          "[causal-masking]") {
  const Tensor w = ramp({2, 2}, 0.5, -0.3);
  const Tensor x = ramp({4, 2}, 0.1, 0.2);
  std::vector<double> flat = x.to_vector();
  flat[2] = -3.0;  // token 1
  Tape tape;
  const auto out = [&](const Tensor& in) {
    const Var wv = tape.leaf(w);
    return llm::causal_self_attention(tape.leaf(in), wv, wv, wv).out.value();
  };
  const Tensor a = out(x), b = out(Tensor({4, 2}, flat));
  CHECK(a.at({0, 0}) == b.at({0, 0}));
  CHECK(a.at({0, 1}) == b.at({0, 1}));
  for (std::size_t i = 1; i < 4; ++i) CHECK(a.at({i, 0}) != b.at({i, 0}));
}

TEST_CASE("a loss on the earlier rows gives the last token no gradient",
          "[causal-masking]") {
  Tape tape;
  const Var x = tape.leaf(ramp({3, 2}, 0.3, 0.4));
  const Var w = tape.leaf(Tensor({2, 2}, {0.5, -1.0, 1.5, 0.25}));
  const Var out = llm::causal_self_attention(x, w, w, w).out;
  tape.backward(out, Tensor({3, 2}, {1.0, -2.0, 0.5, 3.0, 0.0, 0.0}));
  CHECK(x.grad().at({2, 0}) == 0.0);
  CHECK(x.grad().at({2, 1}) == 0.0);
  CHECK(x.grad().at({1, 0}) != 0.0);
}

TEST_CASE("causal_self_attention rejects x of rank 1",
          "[causal-masking]") {
  Tape tape;
  const Var w = tape.leaf(Tensor({4, 2}));
  const Var x = tape.leaf(Tensor({4}));
  REQUIRE_THROWS_AS(llm::causal_self_attention(x, w, w, w), llm::ShapeError);
  REQUIRE_THROWS_WITH(llm::causal_self_attention(x, w, w, w),
                      "causal_self_attention: x is [4], expected [T, d] or "
                      "[B, T, d] with no empty axis");
}

TEST_CASE("causal_self_attention rejects a value matrix of the wrong "
          "width", "[causal-masking]") {
  Tape tape;
  const Var x = tape.leaf(Tensor({3, 4})), w = tape.leaf(Tensor({4, 2}));
  const Var bad = tape.leaf(Tensor({3, 2}));
  const std::size_t before = tape.size();
  REQUIRE_THROWS_AS(llm::causal_self_attention(x, w, w, bad),
                    llm::ShapeError);
  REQUIRE_THROWS_WITH(llm::causal_self_attention(x, w, w, bad),
                      "causal_self_attention: w_v is [3,2], expected "
                      "[4, n] with n > 0");
  REQUIRE(tape.size() == before);  // nothing was recorded
}

TEST_CASE("causal_self_attention rejects queries and keys of different "
          "widths", "[causal-masking]") {
  Tape tape;
  const Var x = tape.leaf(Tensor({3, 4}));
  const Var w_q = tape.leaf(Tensor({4, 3})), w_k = tape.leaf(Tensor({4, 2}));
  REQUIRE_THROWS_AS(llm::causal_self_attention(x, w_q, w_k, w_k),
                    llm::ShapeError);
  REQUIRE_THROWS_WITH(llm::causal_self_attention(x, w_q, w_k, w_k),
                      "causal_self_attention: w_q is [4,3], w_k is [4,2], "
                      "expected the same [d, d_k]");
}

TEST_CASE("the causal head passes a gradient check",
          "[causal-masking]") {
  CHECK(worst_tape_error([](Tape&, const Vars& v) {
    return llm::softmax(llm::mask_future(v[0])); },
                         {ramp({2, 4, 4}, -0.9, 0.07)}) < grad_tol);
  check_head_gradients(llm::causal_self_attention);
  // The cases the chapter's demo used to tabulate: a masked softmax of a
  // batch, and the head on one sequence and on a batch of two.
  CHECK(worst_tape_error([](Tape&, const Vars& v) {
    return llm::softmax(llm::mask_future(v[0])); },
                         {ramp({2, 3, 3}, -0.8, 0.13)}) < grad_tol);
  const llm::TapeFunction head = [](Tape&, const Vars& v) {
    return llm::causal_self_attention(v[0], v[1], v[2], v[3]).out;
  };
  const Tensor w_q = ramp({4, 2}, 0.5, -0.13), w_k = ramp({4, 2}, -0.4, 0.11);
  const Tensor w_v = ramp({4, 3}, 0.3, -0.07);
  CHECK(worst_tape_error(head, {ramp({3, 4}, -0.9, 0.17), w_q, w_k, w_v}) <
        grad_tol);
  CHECK(worst_tape_error(head, {ramp({2, 3, 4}, 1.0, -0.085), w_q, w_k,
                                w_v}) < grad_tol);
}

// ---- the exercises ----------------------------------------------------

TEST_CASE("exercise: token 0's output is its own value",
          "[causal-masking]") {
  Tape tape;
  const Var x = tape.leaf(ramp({3, 2}, 2.0, -1.3));
  const Var w_q = tape.leaf(ramp({2, 2}, 4.0, 3.0));  // large scores
  const Var w_v = tape.leaf(Tensor({2, 2}, {1.0, 2.0, -1.0, 0.5}));
  const llm::AttentionResult r = llm::causal_self_attention(x, w_q, w_q, w_v);
  // v0 = x0 W_V with x0 = (2, 0.7): (2 - 0.7, 4 + 0.35) = (1.3, 4.35).
  REQUIRE(r.probs.value().at({0, 0}) == 1.0);
  CHECK(r.out.value().at({0, 0}) == Approx(1.3).epsilon(1e-15));
  CHECK(r.out.value().at({0, 1}) == Approx(4.35).epsilon(1e-15));
}

TEST_CASE("exercise: the visible entries of a T x T mask",
          "[causal-masking]") {
  // T (T + 1) / 2 visible and T (T - 1) / 2 blocked: 10 and 6 for
  // T = 4, 15 and 10 for T = 5.
  const auto visible = [](std::size_t t) {
    std::size_t n = 0;
    for (std::size_t i = 0; i < t; ++i) {
      for (std::size_t j = 0; j < t; ++j) n += llm::is_future(i, j) ? 0 : 1;
    }
    return n;
  };
  CHECK(visible(4) == 10);
  CHECK(16 - visible(4) == 6);
  CHECK(visible(5) == 15);
  CHECK(25 - visible(5) == 10);
}

TEST_CASE("exercise: renormalising after the softmax divides 0 by 0",
          "[causal-masking]") {
  // Row 0 with scores (0, 800): the future key takes all the weight,
  // e^-800 underflows to 0, and the visible weight left is 0.
  const Tensor p = llm::softmax(Tensor({1, 2}, {0.0, 800.0}));
  REQUIRE(p.at({0, 0}) == 0.0);
  REQUIRE(std::isnan(p.at({0, 0}) / p.at({0, 0})));
  // Masking before the softmax gives the right row.
  Tape tape;
  const Var s = tape.leaf(Tensor({2, 2}, {0.0, 800.0, 0.0, 800.0}));
  REQUIRE(llm::softmax(llm::mask_future(s)).value().at({0, 0}) == 1.0);
}
