// Tests for chapter model-op-gradients: gather and scatter-add, batched
// matmul, SiLU, log-softmax and NLL on the tape, with hand-derived
// gradients, a finite-difference check of each, and their errors. Uses
// only what chapters up to it define.
#include <catch2/catch.hpp>

#include <cmath>
#include <vector>

#include "llm/autograd.hpp"
#include "llm/error.hpp"
#include "llm/gradcheck.hpp"
#include "llm/model_ops.hpp"
#include "llm/softmax.hpp"
#include "llm/tensor.hpp"
#include "fixtures.hpp"
#include "tape_check.hpp"

using llm::Shape;
using llm::Tape;
using llm::Tensor;
using llm::Var;

TEST_CASE("gather copies rows and scatter-adds repeated ids",
          "[model-op-gradients]") {
  Tape tape;
  const Var table = tape.leaf(ramp({3, 2}, 0.0, 1.0));  // rows 01 23 45
  const Var rows = llm::gather(table, {2, 0, 2});
  REQUIRE(rows.shape() == Shape{3, 2});
  REQUIRE(rows.value().to_vector() ==
          std::vector<double>{4, 5, 0, 1, 4, 5});
  tape.backward(rows, Tensor({3, 2}, {1, 2, 3, 4, 5, 6}));
  // Row 2 was picked at positions 0 and 2: (1,2) + (5,6) = (6,8);
  // row 0 at position 1: (3,4); row 1 never: zeros.
  REQUIRE(table.grad().to_vector() ==
          std::vector<double>{3, 4, 0, 0, 6, 8});
}

TEST_CASE("gather rejects an id outside the table",
          "[model-op-gradients]") {
  Tape tape;
  const Var table = tape.leaf(Tensor({3, 2}));
  REQUIRE_THROWS_AS(llm::gather(table, {0, 3}), llm::IndexError);
  REQUIRE_THROWS_WITH(llm::gather(table, {0, 3}),
                      "gather: id 3 is outside a table of 3 rows");
  REQUIRE_THROWS_WITH(llm::gather(tape.leaf(Tensor({3})), {0}),
                      "gather: table is [3], expected [V, d]");
}

TEST_CASE("matmul's VJPs are dC B^T and A^T dC",
          "[model-op-gradients]") {
  Tape tape;
  const Var a = tape.leaf(Tensor({1, 2}, {1.0, 2.0}));
  const Var b = tape.leaf(Tensor({2, 1}, {3.0, 4.0}));
  tape.backward(llm::matmul(a, b));  // c = 1*3 + 2*4 = 11
  // dA = dC B^T = [3, 4]; dB = A^T dC = [1, 2]^T.
  REQUIRE(a.grad().to_vector() == std::vector<double>{3.0, 4.0});
  REQUIRE(b.grad().to_vector() == std::vector<double>{1.0, 2.0});
}

TEST_CASE("a shared matmul operand sums its gradient over the batch",
          "[model-op-gradients]") {
  Tape tape;
  const Var a = tape.leaf(Tensor({2, 1, 1}, {2.0, 5.0}));  // batch 2
  const Var b = tape.leaf(Tensor({1, 1}, {3.0}));         // shared
  tape.backward(llm::matmul(a, b), Tensor({2, 1, 1}, {1.0, 1.0}));
  // dB = sum over the batch of a^T dC = 2 + 5 = 7; dA = b = 3 each.
  REQUIRE(b.grad().shape() == Shape{1, 1});
  REQUIRE(b.grad().to_vector() == std::vector<double>{7.0});
  REQUIRE(a.grad().to_vector() == std::vector<double>{3.0, 3.0});
}

TEST_CASE("SiLU's derivative at 0 is one half",
          "[model-op-gradients]") {
  Tape tape;
  const Var x = tape.leaf(Tensor({2}, {0.0, 2.0}));
  const Var y = llm::silu(x);
  tape.backward(y, Tensor({2}, {1.0, 1.0}));
  // s(0) = 1/2, so SiLU'(0) = 1/2 (1 + 0) = 1/2; SiLU(0) = 0.
  REQUIRE(y.value().to_vector()[0] == 0.0);
  REQUIRE(x.grad().to_vector()[0] == 0.5);
  // SiLU'(2) = s (1 + 2 (1 - s)) with s = 1 / (1 + e^-2).
  const double s = 1.0 / (1.0 + std::exp(-2.0));
  REQUIRE(x.grad().to_vector()[1] == Approx(s * (1.0 + 2.0 * (1.0 - s))));
  // Far left the sigmoid is 0, not NaN.
  Tape far;
  const Var z = far.leaf(Tensor({1}, {-1000.0}));
  far.backward(llm::silu(z), Tensor({1}, {1.0}));
  REQUIRE(z.grad().to_vector()[0] == 0.0);
}

TEST_CASE("log-softmax then NLL gives (softmax - one-hot) / N",
          "[model-op-gradients]") {
  Tape tape;
  const Tensor z({2, 3}, {1.0, 2.0, 0.5, -1.0, 0.0, 3.0});
  const Var logits = tape.leaf(z);
  const Var loss = llm::nll(llm::log_softmax(logits), {1, 0});
  REQUIRE(loss.shape() == Shape{});
  tape.backward(loss);
  const std::vector<double> p = llm::softmax(z).to_vector();
  const std::vector<double> g = logits.grad().to_vector();
  const std::vector<double> hot = {0, 1, 0, 1, 0, 0};
  for (std::size_t k = 0; k < g.size(); ++k) {
    CHECK(g[k] == Approx((p[k] - hot[k]) / 2.0).margin(1e-15));
  }
}

TEST_CASE("NLL of uniform log-probabilities is log V",
          "[model-op-gradients]") {
  Tape tape;
  const double l = -std::log(4.0);
  const Var logp = tape.leaf(Tensor({2, 4}, std::vector<double>(8, l)));
  const Var loss = llm::nll(logp, {3, 1});
  REQUIRE(loss.value().to_vector()[0] == Approx(std::log(4.0)));
  tape.backward(loss);
  // -1/N = -0.5 at each target, 0 elsewhere.
  REQUIRE(logp.grad().to_vector() ==
          std::vector<double>{0, 0, 0, -0.5, 0, -0.5, 0, 0});
}

TEST_CASE("NLL errors name the row, the target and the vocabulary",
          "[model-op-gradients]") {
  Tape tape;
  const Var logp = tape.leaf(Tensor({2, 5}));
  REQUIRE_THROWS_AS(llm::nll(logp, {1, 5}), llm::IndexError);
  REQUIRE_THROWS_WITH(llm::nll(logp, {1, 9}),
                      "nll: target 9 at row 1 is outside a vocabulary "
                      "of 5");
  REQUIRE_THROWS_WITH(llm::nll(logp, {1}),
                      "nll: logp is [2,5], expected [N, V] with N = 1 "
                      "targets, N > 0");
  REQUIRE_THROWS_AS(llm::nll(tape.leaf(Tensor({0, 5})), {}),
                    llm::ShapeError);
}

TEST_CASE("every model operation passes a gradient check",
          "[model-op-gradients]") {
  const Tensor a = ramp({3, 4}, -0.9, 0.17), b = ramp({4, 2}, 0.8, -0.21);
  const Tensor ab = ramp({2, 3, 4}, 1.1, -0.09);
  const Tensor bb = ramp({2, 4, 2}, -0.5, 0.07);
  const auto mm = [](Tape&, const Vars& v) {
    return llm::matmul(v[0], v[1]);
  };
  CHECK(worst_tape_error([](Tape&, const Vars& v) {
    return llm::gather(v[0], {1, 1, 0, 2}); }, {a}) < grad_tol);
  CHECK(worst_tape_error(mm, {a, b}) < grad_tol);
  CHECK(worst_tape_error(mm, {ab, b}) < grad_tol);
  CHECK(worst_tape_error(mm, {a, bb}) < grad_tol);
  CHECK(worst_tape_error(mm, {ab, bb}) < grad_tol);
  CHECK(worst_tape_error(
            [](Tape&, const Vars& v) { return llm::silu(v[0]); }, {ab}) <
        grad_tol);
  CHECK(worst_tape_error([](Tape&, const Vars& v) {
    return llm::log_softmax(v[0]); }, {ab}) < grad_tol);
  CHECK(worst_tape_error([](Tape&, const Vars& v) {
    return llm::nll(v[0], {2, 0, 3}); }, {a}) < grad_tol);
  CHECK(worst_tape_error([](Tape&, const Vars& v) {
    return llm::nll(llm::log_softmax(v[0]), {2, 0, 3}); }, {a}) < grad_tol);
}
