// Tests for chapter embeddings-linear: the embedding and linear layers,
// their parameter registration, and ParameterLeaves. Values are checked
// against hand derivations and plain loops; every layer against central
// differences.
#include <catch2/catch.hpp>

#include "fixtures.hpp"
#include "message_of.hpp"

#include <cmath>
#include <string>
#include <vector>

#include "llm/autograd.hpp"
#include "llm/error.hpp"
#include "llm/layers.hpp"
#include "llm/model_ops.hpp"
#include "llm/params.hpp"
#include "llm/random.hpp"
#include "llm/tensor.hpp"
#include "tape_check.hpp"

using llm::Shape;
using llm::Tape;
using llm::Tensor;
using llm::Var;

TEST_CASE("embedding copies rows and sums the gradients of repeated ids",
          "[embeddings-linear]") {
  Tape tape;
  const Var table = tape.leaf(Tensor({4, 1}, {10, 11, 12, 13}));
  const Var rows = llm::embedding(table, {1, 1, 1, 2});
  REQUIRE(rows.shape() == Shape{4, 1});
  REQUIRE(rows.value().to_vector() == std::vector<double>{11, 11, 11, 12});
  tape.backward(rows, Tensor({4, 1}, {1, 2, 3, 4}));
  // Row 1 is read at positions 0, 1, 2: 1 + 2 + 3 = 6; row 2 at 3: 4.
  REQUIRE(table.grad().to_vector() == std::vector<double>{0, 6, 4, 0});
}

TEST_CASE("an embedding equals a one-hot matrix product, values and gradients",
          "[embeddings-linear]") {
  // Row i of onehot(t) E is one product by 1 plus exact zeros, so it is
  // row t_i of E exactly; onehot(t)^T dY adds the same terms in the same
  // order as the scatter-add, so the gradients agree bit for bit too.
  const std::vector<std::size_t> ids = {3, 1, 3, 0, 3, 5};
  const Tensor table = ramp({6, 4}, -0.9, 0.07);  // [V, d]
  const Tensor seed = ramp({6, 4}, -1.2, 0.1);    // [n, d]
  Tensor hot({6, 6});                             // [n, V]
  for (std::size_t i = 0; i < ids.size(); ++i) hot.set({i, ids[i]}, 1.0);
  Tape a, b;
  const Var ta = a.leaf(table), tb = b.leaf(table);
  const Var gathered = llm::embedding(ta, ids);
  const Var product = llm::matmul(b.leaf(hot), tb);
  a.backward(gathered, seed);
  b.backward(product, seed);
  REQUIRE(gathered.value().to_vector() == product.value().to_vector());
  REQUIRE(ta.grad().to_vector() == tb.grad().to_vector());
  // Rows 2 and 4 are never read: exact zeros either way.
  REQUIRE(ta.grad().at({2, 0}) == 0.0);
  REQUIRE(ta.grad().at({4, 3}) == 0.0);
}

TEST_CASE("embedding rejects a bad id or table before recording",
          "[embeddings-linear]") {
  Tape tape;
  const Var table = tape.leaf(Tensor({3, 2}));
  const std::size_t before = tape.size();
  REQUIRE_THROWS_AS(llm::embedding(table, {0, 3}), llm::IndexError);
  REQUIRE(message_of<llm::IndexError>([&] {
            llm::embedding(table, {0, 2, 5});
          }) == "embedding: id 5 at position 2, expected an id below V = 3");
  REQUIRE(tape.size() == before);
  const Var flat = tape.leaf(Tensor({3}));
  REQUIRE_THROWS_AS(llm::embedding(flat, {0}), llm::ShapeError);
  REQUIRE(message_of<llm::ShapeError>([&] { llm::embedding(flat, {0}); }) ==
          "embedding: table is [3], expected [V, d]");
}

TEST_CASE("linear computes x W + b row by row",
          "[embeddings-linear]") {
  Tape tape;
  const Var x = tape.leaf(Tensor({2, 2}, {1, 2, 3, 4}));
  const Var w = tape.leaf(Tensor({2, 3}, {1, 0, -1, 2, 1, 0}));
  const Var b = tape.leaf(Tensor({3}, {0.5, -0.5, 1}));
  // Row (1, 2): (1 + 4, 0 + 2, -1 + 0) + b = (5.5, 1.5, 0).
  // Row (3, 4): (3 + 8, 0 + 4, -3 + 0) + b = (11.5, 3.5, -2).
  const Var y = llm::linear(x, w, b);
  REQUIRE(y.shape() == Shape{2, 3});
  REQUIRE(y.value().to_vector() ==
          std::vector<double>{5.5, 1.5, 0, 11.5, 3.5, -2});
  REQUIRE(llm::linear(x, w).value().to_vector() ==
          std::vector<double>{5, 2, -1, 11, 4, -3});
}

TEST_CASE("linear keeps every leading axis, and none",
          "[embeddings-linear]") {
  Tape tape;
  const Var w = tape.leaf(ramp({3, 2}, -0.5, 0.25));
  const Var v = tape.leaf(Tensor({3}, {1, 2, 3}));
  const Var y = llm::linear(v, w);  // [2]
  REQUIRE(y.shape() == Shape{2});
  // Plain loop: y_j = sum_i v_i w_ij.
  for (std::size_t j = 0; j < 2; ++j) {
    double s = 0.0;
    for (std::size_t i = 0; i < 3; ++i) {
      s += v.value().at({i}) * w.value().at({i, j});
    }
    REQUIRE(y.value().at({j}) == Approx(s));
  }
  const Var batch = tape.leaf(ramp({2, 4, 3}, 0.1, 0.1));
  const Var yb = llm::linear(batch, w);
  REQUIRE(yb.shape() == Shape{2, 4, 2});
  for (std::size_t b = 0; b < 2; ++b) {
    for (std::size_t t = 0; t < 4; ++t) {
      for (std::size_t j = 0; j < 2; ++j) {
        double s = 0.0;
        for (std::size_t i = 0; i < 3; ++i) {
          s += batch.value().at({b, t, i}) * w.value().at({i, j});
        }
        REQUIRE(yb.value().at({b, t, j}) == Approx(s));
      }
    }
  }
}

TEST_CASE("the bias gradient sums over every leading axis",
          "[embeddings-linear]") {
  Tape tape;
  const Var x = tape.leaf(ramp({2, 5, 3}, -1.0, 0.1));
  const Var w = tape.leaf(ramp({3, 4}, 0.5, -0.1));
  const Var b = tape.leaf(Tensor({4}));
  const Var y = llm::linear(x, w, b);
  tape.backward(y, Tensor({2, 5, 4}, std::vector<double>(40, 1.0)));
  // A seed of ones summed over 2 * 5 rows.
  REQUIRE(b.grad().shape() == Shape{4});
  REQUIRE(b.grad().to_vector() == std::vector<double>(4, 10.0));
}

TEST_CASE("linear's weight and bias gradients by hand",
          "[embeddings-linear]") {
  // The exercise: X rows (1,1), (1,0), (0,2); dY rows (1,0), (2,1),
  // (0,3). db = column sums = (3, 4); dW = X^T dY = [[3, 1], [1, 6]].
  Tape tape;
  const Var x = tape.leaf(Tensor({3, 2}, {1, 1, 1, 0, 0, 2}));
  const Var w = tape.leaf(Tensor({2, 2}, {0.3, -0.2, 0.7, 0.1}));
  const Var b = tape.leaf(Tensor({2}));
  tape.backward(llm::linear(x, w, b), Tensor({3, 2}, {1, 0, 2, 1, 0, 3}));
  REQUIRE(b.grad().to_vector() == std::vector<double>{3, 4});
  REQUIRE(w.grad().to_vector() == std::vector<double>{3, 1, 1, 6});
}

TEST_CASE("linear rejects mismatched shapes before recording",
          "[embeddings-linear]") {
  Tape tape;
  const Var x = tape.leaf(Tensor({2, 3}));
  const Var w = tape.leaf(Tensor({4, 5}));
  const Var w3 = tape.leaf(Tensor({3, 5}));
  const Var scalar = tape.leaf(Tensor(Shape{}));
  const std::size_t before = tape.size();
  REQUIRE_THROWS_AS(llm::linear(x, w), llm::ShapeError);
  REQUIRE(message_of<llm::ShapeError>([&] { llm::linear(x, w); }) ==
          "linear: x is [2,3], weight is [4,5], expected [..., in] and "
          "[in, out]");
  REQUIRE(message_of<llm::ShapeError>([&] { llm::linear(x, x); }) ==
          "linear: x is [2,3], weight is [2,3], expected [..., in] and "
          "[in, out]");
  REQUIRE(message_of<llm::ShapeError>([&] { llm::linear(scalar, w3); }) ==
          "linear: x is [], weight is [3,5], expected [..., in] and "
          "[in, out]");
  const Var bad_bias = tape.leaf(Tensor({3}));
  const std::size_t with_bias = tape.size();
  REQUIRE_THROWS_AS(llm::linear(x, w3, bad_bias), llm::ShapeError);
  REQUIRE(message_of<llm::ShapeError>([&] {
            llm::linear(x, w3, bad_bias);
          }) == "linear: bias is [3], expected [5] for weight [3,5]");
  REQUIRE(before + 1 == with_bias);
  REQUIRE(tape.size() == with_bias);
}

TEST_CASE("embedding and linear pass the finite-difference check",
          "[embeddings-linear]") {
  const Tensor table = ramp({5, 3}, -0.6, 0.11);
  const Tensor w = ramp({3, 4}, 0.9, -0.13), b = ramp({4}, 0.2, -0.1);
  REQUIRE(worst_tape_error([](Tape&, const Vars& v) {
            return llm::embedding(v[0], {4, 1, 4, 4});
          }, {table}) < grad_tol);
  REQUIRE(worst_tape_error([](Tape&, const Vars& v) {
            return llm::linear(v[0], v[1]);
          }, {ramp({3}, 0.5, -0.4), w}) < grad_tol);
  REQUIRE(worst_tape_error([](Tape&, const Vars& v) {
            return llm::linear(v[0], v[1], v[2]);
          }, {ramp({2, 3, 3}, -0.7, 0.09), w, b}) < grad_tol);
  // The chapter's model: embedding, linear head, log-softmax, NLL.
  REQUIRE(worst_tape_error([](Tape&, const Vars& v) {
            const Var h = llm::embedding(v[0], {3, 1, 3});
            return llm::nll(llm::log_softmax(llm::linear(h, v[1], v[2])),
                            {0, 2, 1});
          }, {table, w, b}) < grad_tol);
}

TEST_CASE("layers register named parameters with their initialisers",
          "[embeddings-linear]") {
  llm::Parameters p(17);
  const Tensor e = llm::add_embedding(p, "embed", 6, 4);
  llm::add_linear(p, "head", 4, 6, true);
  llm::add_linear(p, "proj", 4, 4, false);
  REQUIRE(p.size() == 4);
  REQUIRE(p.list()[0].name == "embed.weight");
  REQUIRE(p.list()[1].name == "head.weight");
  REQUIRE(p.list()[2].name == "head.bias");
  REQUIRE(p.list()[3].name == "proj.weight");
  REQUIRE(!p.contains("proj.bias"));
  REQUIRE(e.shares_buffer_with(p.at("embed.weight")));
  // 6*4 + 4*6 + 6 + 4*4 = 70.
  REQUIRE(p.scalar_count() == 70);
  REQUIRE(p.at("head.bias").to_vector() == std::vector<double>(6, 0.0));
  // The weight is the fan-in normal drawn from its own named stream.
  llm::Rng rng(llm::derive_seed(17, "head.weight"));
  const Tensor expected =
      llm::init_tensor({4, 6}, llm::fan_in_normal(4), rng);
  REQUIRE(p.at("head.weight").to_vector() == expected.to_vector());
  llm::Rng table_rng(llm::derive_seed(17, "embed.weight"));
  REQUIRE(e.at({0, 0}) == table_rng.normal());  // std 1
}

TEST_CASE("registering a layer twice or with no inputs is rejected",
          "[embeddings-linear]") {
  llm::Parameters p(1);
  llm::add_linear(p, "head", 2, 3, true);
  REQUIRE_THROWS_AS(llm::add_linear(p, "head", 2, 3, true),
                    llm::ConfigError);
  REQUIRE(message_of<llm::ConfigError>([&] {
            llm::add_linear(p, "x", 0, 3, true);
          }) == "fan_in_normal: fan_in must be > 0");
  REQUIRE(p.size() == 2);
  // Only the bias name is taken: nothing is added, not even the weight.
  llm::Parameters q(1);
  q.add("proj.bias", {3}, llm::constant(0.0));
  REQUIRE(message_of<llm::ConfigError>([&] {
            llm::add_linear(q, "proj", 2, 3, true);
          }) == "add_linear: expected a new name, got 'proj.bias', "
                "already registered");
  REQUIRE(q.size() == 1);
  REQUIRE(!q.contains("proj.weight"));
}

TEST_CASE("ParameterLeaves puts a registry on a tape in order",
          "[embeddings-linear]") {
  llm::Parameters p(5);
  llm::add_embedding(p, "embed", 3, 2);
  llm::add_linear(p, "head", 2, 3, true);
  Tape tape;
  const llm::ParameterLeaves leaves(tape, p);
  REQUIRE(leaves.list().size() == 3);
  REQUIRE(tape.size() == 3);
  for (std::size_t i = 0; i < 3; ++i) {
    REQUIRE(leaves.list()[i].id() == i);
    REQUIRE(tape.op(i) == "leaf");
    REQUIRE(leaves.list()[i].value().shares_buffer_with(p.list()[i].value));
  }
  REQUIRE(leaves.at("head.bias").id() == 2);
  REQUIRE_THROWS_AS(leaves.at("head.gain"), llm::IndexError);
  REQUIRE(message_of<llm::IndexError>([&] { leaves.at("head.gain"); }) ==
          "ParameterLeaves::at: no parameter named 'head.gain' among 3");

  // Loss = sum of the bias: its gradient is ones, the others zeros.
  tape.backward(llm::sum(leaves.at("head.bias"), 0));
  const std::vector<llm::NamedTensor> g = leaves.gradients();
  REQUIRE(g.size() == 3);
  REQUIRE(g[0].name == "embed.weight");
  REQUIRE(g[2].name == "head.bias");
  REQUIRE(g[2].value.to_vector() == std::vector<double>(3, 1.0));
  REQUIRE(g[0].value.to_vector() == std::vector<double>(6, 0.0));
}

TEST_CASE("the first model's loss equals a plain-loop computation",
          "[embeddings-linear]") {
  llm::Parameters p(17);
  llm::add_embedding(p, "embed", 6, 4);
  llm::add_linear(p, "head", 4, 6, true);
  const std::vector<std::size_t> ids = {3, 1, 5}, next = {1, 3, 0};
  Tape tape;
  const llm::ParameterLeaves leaves(tape, p);
  const Var z = llm::linear(llm::embedding(leaves.at("embed.weight"), ids),
                            leaves.at("head.weight"), leaves.at("head.bias"));
  const Var loss = llm::nll(llm::log_softmax(z), next);
  // Plain loops: z_j = sum_i E[t, i] W[i, j] + b_j, then -log softmax.
  const Tensor e = p.at("embed.weight"), w = p.at("head.weight");
  const Tensor b = p.at("head.bias");
  double total = 0.0;
  for (std::size_t n = 0; n < ids.size(); ++n) {
    std::vector<double> logits(6);
    double norm = 0.0;
    for (std::size_t j = 0; j < 6; ++j) {
      logits[j] = b.at({j});
      for (std::size_t i = 0; i < 4; ++i) {
        logits[j] += e.at({ids[n], i}) * w.at({i, j});
      }
      norm += std::exp(logits[j]);
    }
    total -= logits[next[n]] - std::log(norm);
  }
  REQUIRE(loss.value().to_vector()[0] == Approx(total / 3.0));
}
