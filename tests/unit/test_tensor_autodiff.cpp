// Tests for chapter tensor-autodiff: the tape, accumulation, sum_to, the
// vector-Jacobian products of the structural and elementwise operations,
// and a finite-difference check of each with the probe loss. Uses only
// what chapters up to it define.
#include <catch2/catch.hpp>

#include <string>
#include <vector>

#include "llm/autograd.hpp"
#include "llm/error.hpp"
#include "llm/gradcheck.hpp"
#include "llm/ops.hpp"
#include "llm/tensor.hpp"
#include "tape_check.hpp"

namespace {

using llm::Shape;
using llm::Tape;
using llm::Tensor;
using llm::Var;

Tensor ones(const Shape& shape) {
  return Tensor(shape, std::vector<double>(llm::numel(shape), 1.0));
}

const Tensor x23({2, 3}, {0.3, -1.2, 0.7, 2.1, -0.4, 1.6});
const Tensor y3({3}, {0.9, -0.6, 1.4});

// The gradient x holds after one backward pass from `out` seeded with
// `seed`.
std::vector<double> grad_after(const Var& x, const Var& out,
                               const Tensor& seed) {
  out.tape().backward(out, seed);
  return x.grad().to_vector();
}

}  // namespace

TEST_CASE("the tape records nodes in order and seeds the output",
          "[tensor-autodiff]") {
  Tape tape;
  const Var x = tape.leaf(x23);
  const Var s = llm::sum(x, 1);
  REQUIRE(tape.size() == 2);
  REQUIRE(tape.op(0) == "leaf");
  REQUIRE(tape.op(1) == "sum");
  REQUIRE(s.id() == 1);
  REQUIRE(tape.var(1).shape() == Shape{2, 1});
  REQUIRE(x.grad().to_vector() == std::vector<double>(6, 0.0));
  // Seed [1, 2]: each row of x receives its row's seed.
  REQUIRE(grad_after(x, s, Tensor({2, 1}, {1.0, 2.0})) ==
          std::vector<double>{1.0, 1.0, 1.0, 2.0, 2.0, 2.0});
}

TEST_CASE("a reference to a node's value stays valid while the tape grows",
          "[tensor-autodiff]") {
  // A std::vector of nodes would move them to a new block as it grows;
  // a reference taken before would then point at freed memory.
  Tape tape;
  const Var x = tape.leaf(x23);
  const Tensor& value = x.value();
  const Shape& shape = x.shape();
  for (int i = 0; i < 1000; ++i) tape.record("leaf", x23, {});
  REQUIRE(&value == &x.value());
  REQUIRE(&shape == &x.shape());
  REQUIRE(shape == Shape{2, 3});
}

TEST_CASE("backward clears gradients, so running it twice agrees",
          "[tensor-autodiff]") {
  Tape tape;
  const Var x = tape.leaf(x23);
  const Var loss = llm::sum(llm::sum(x, 0), 1);  // [1, 1]
  tape.backward(loss);
  tape.backward(loss);
  REQUIRE(x.grad().to_vector() == std::vector<double>(6, 1.0));
}

TEST_CASE("a bias broadcast over rows collects one term per row",
          "[tensor-autodiff]") {
  Tape tape;
  const Var x = tape.leaf(Tensor({4, 3}));
  const Var b = tape.leaf(y3);
  const Var loss = llm::sum(llm::sum(llm::add(x, b), 1), 0);
  tape.backward(loss);
  // d/db_j of sum_ij (x_ij + b_j) = number of rows = 4.
  REQUIRE(b.grad().shape() == Shape{3});
  REQUIRE(b.grad().to_vector() == std::vector<double>{4.0, 4.0, 4.0});
}

TEST_CASE("a tensor used twice accumulates both terms",
          "[tensor-autodiff]") {
  Tape tape;
  const Var x = tape.leaf(Tensor({2}, {3.0, -0.5}));
  // d(x*x)/dx = x + x = 2x.
  REQUIRE(grad_after(x, llm::mul(x, x), ones({2})) ==
          std::vector<double>{6.0, -1.0});
  REQUIRE(grad_after(x, llm::add(x, x), ones({2})) ==
          std::vector<double>{2.0, 2.0});
}

TEST_CASE("sum_to reverses broadcasting", "[tensor-autodiff]") {
  const Tensor g = ones({2, 4, 3});
  // Leading axis summed away (2), axis of extent 1 summed (4): 8 each.
  REQUIRE(llm::sum_to(g, {1, 3}).to_vector() ==
          std::vector<double>{8.0, 8.0, 8.0});
  REQUIRE(llm::sum_to(g, {3}).to_vector() ==
          std::vector<double>{8.0, 8.0, 8.0});
  REQUIRE(llm::sum_to(g, {2, 4, 3}).shape() == Shape{2, 4, 3});
  REQUIRE(llm::sum_to(g, {}).to_vector() == std::vector<double>{24.0});
  REQUIRE_THROWS_WITH(llm::sum_to(g, {2, 3}),
                      "sum_to: [2,4,3] is not a broadcast of [2,3]");
}

TEST_CASE("hand-derived VJPs of the structural operations",
          "[tensor-autodiff]") {
  Tape tape;
  const Var x = tape.leaf(x23);
  const Tensor seed({3, 2}, {1.0, 2.0, 3.0, 4.0, 5.0, 6.0});
  // Transposing the seed back: x_ij receives seed_ji.
  REQUIRE(grad_after(x, llm::transpose(x, 0, 1), seed) ==
          std::vector<double>{1.0, 3.0, 5.0, 2.0, 4.0, 6.0});
  // Column 0 was not in the slice: zero; columns 1-2 get the seed.
  REQUIRE(grad_after(x, llm::slice(x, 1, 1, 3), Tensor({2, 2}, {1, 2, 3, 4})) ==
          std::vector<double>{0.0, 1.0, 2.0, 0.0, 3.0, 4.0});
  // Each of 3 elements of a row gets the row's seed divided by 3.
  REQUIRE(grad_after(x, llm::mean(x, 1), Tensor({2, 1}, {3.0, 6.0})) ==
          std::vector<double>{1.0, 1.0, 1.0, 2.0, 2.0, 2.0});
}

TEST_CASE("sub sends the negated gradient to its second operand",
          "[tensor-autodiff]") {
  Tape tape;
  const Var a = tape.leaf(x23);
  const Var b = tape.leaf(y3);
  tape.backward(llm::sub(a, b), ones({2, 3}));
  // b is broadcast over 2 rows and subtracted: -1 per row, -2 in all.
  REQUIRE(b.grad().to_vector() == std::vector<double>{-2.0, -2.0, -2.0});
  REQUIRE(a.grad().to_vector() == std::vector<double>(6, 1.0));
}

TEST_CASE("every structural and elementwise op passes a gradient check",
          "[tensor-autodiff]") {
  const Tensor z({2, 3}, {1.1, 0.2, -0.9, 0.5, -1.7, 0.8});
  CHECK(worst_tape_error([](Tape&, const Vars& v) {
    return llm::transpose(v[0], 0, 1); }, {x23}) < grad_tol);
  CHECK(worst_tape_error([](Tape&, const Vars& v) {
    return llm::reshape(llm::transpose(v[0], 0, 1), {3, 2}); },
    {x23}) < grad_tol);
  CHECK(worst_tape_error([](Tape&, const Vars& v) {
    return llm::slice(v[0], 0, 1, 2); }, {x23}) < grad_tol);
  CHECK(worst_tape_error([](Tape&, const Vars& v) {
    return llm::broadcast_to(v[0], {2, 4, 3}); }, {y3}) < grad_tol);
  CHECK(worst_tape_error([](Tape&, const Vars& v) {
    return llm::sum(v[0], 0); }, {x23}) < grad_tol);
  CHECK(worst_tape_error([](Tape&, const Vars& v) {
    return llm::mean(v[0], 1); }, {x23}) < grad_tol);
  CHECK(worst_tape_error([](Tape&, const Vars& v) {
    return llm::add(v[0], v[1]); }, {y3, x23}) < grad_tol);
  CHECK(worst_tape_error([](Tape&, const Vars& v) {
    return llm::sub(v[0], v[1]); }, {x23, y3}) < grad_tol);
  CHECK(worst_tape_error([](Tape&, const Vars& v) {
    return llm::mul(v[0], v[1]); }, {x23, z}) < grad_tol);
  CHECK(worst_tape_error([](Tape&, const Vars& v) {
    return llm::mul(v[0], llm::mul(v[0], v[1])); }, {x23, y3}) < grad_tol);
}

TEST_CASE("the probe loss catches a VJP that a plain sum misses",
          "[tensor-autodiff]") {
  // Backward forgets to transpose; on a square matrix shapes still fit.
  const auto bad = [](Tape&, const Vars& v) {
    const Var x = v[0];
    return x.tape().record("bad", x.value().transpose(0, 1),
                           [x](const Tensor& g) { x.accumulate(g); });
  };
  const Tensor x({2, 2}, {0.4, -1.3, 2.2, 0.6});
  CHECK(worst_tape_error(bad, {x}) > 0.1);
  CHECK(worst_tape_error([&](Tape& t, const Vars& v) {
    return llm::sum(llm::sum(bad(t, v), 0), 1); }, {x}) < 1e-8);
}

TEST_CASE("probe weights are distinct and non-zero",
          "[tensor-autodiff]") {
  // w_k = ((7k + 3) mod 13) / 6.5 - 1: k = 0 gives 3/6.5 - 1.
  const std::vector<double> w = llm::probe_weights({13}).to_vector();
  REQUIRE(w[0] == Approx(3.0 / 6.5 - 1.0));
  for (std::size_t i = 0; i < w.size(); ++i) {
    CHECK(w[i] != 0.0);
    for (std::size_t j = 0; j < i; ++j) CHECK(w[i] != w[j]);
  }
}

TEST_CASE("tape errors name the operation and the shapes",
          "[tensor-autodiff]") {
  Tape tape, other;
  const Var x = tape.leaf(x23);
  const Var y = other.leaf(y3);
  REQUIRE_THROWS_AS(llm::add(x, y), llm::ConfigError);
  REQUIRE_THROWS_WITH(llm::mul(x, y),
                      "mul: operands are on different tapes");
  REQUIRE_THROWS_WITH(tape.backward(x),
                      "Tape::backward: output [2,3] is not one element; "
                      "pass a seed");
  REQUIRE_THROWS_WITH(tape.backward(x, ones({3, 2})),
                      "Tape::backward: seed is [3,2], output is [2,3]");
  REQUIRE_THROWS_AS(tape.var(7), llm::IndexError);
  REQUIRE_THROWS_WITH(x.accumulate(ones({3})),
                      "accumulate: gradient [3] for node 0 (leaf) of "
                      "shape [2,3]");
  REQUIRE_THROWS_AS(llm::add(x, tape.leaf(Tensor({2}))), llm::ShapeError);
}

namespace {

// The exercise's division, written with Tape::record.
Var divide(const Var& a, const Var& b) {
  return llm::same_tape(a, b, "div").record(
      "div", llm::div(a.value(), b.value()), [a, b](const Tensor& g) {
        const Tensor q = llm::div(a.value(), b.value());  // a / b
        const Tensor minus_q = llm::mul(q, Tensor(Shape{}, {-1.0}));
        a.accumulate(llm::sum_to(llm::div(g, b.value()), a.shape()));
        b.accumulate(llm::sum_to(
            llm::div(llm::mul(g, minus_q), b.value()), b.shape()));
      });
}

}  // namespace

TEST_CASE("the exercise's division passes a gradient check",
          "[tensor-autodiff]") {
  CHECK(worst_tape_error(
            [](Tape&, const Vars& v) { return divide(v[0], v[1]); },
            {x23, y3}) < 1e-8);
  Tape tape;
  const Var a = tape.leaf(Tensor({1}, {3.0}));
  const Var b = tape.leaf(Tensor({1}, {2.0}));
  tape.backward(divide(a, b));
  // d(a/b)/da = 1/b = 0.5; d(a/b)/db = -a/b^2 = -0.75.
  REQUIRE(a.grad().to_vector()[0] == 0.5);
  REQUIRE(b.grad().to_vector()[0] == -0.75);
}
