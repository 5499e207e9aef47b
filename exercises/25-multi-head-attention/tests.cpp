// The exercise tests of the multi-head-attention chapter. They call
// exercise::multi_head_attention (starter.cpp, once fixed) on the
// chapter's fixture and check values derived by hand, plus three
// properties every correct layer has. Each test names what it checks.
#include <catch2/catch.hpp>

#include <cmath>
#include <cstddef>
#include <vector>

#include "exercise.hpp"
#include "llm/tensor.hpp"

namespace {

using llm::Tape;
using llm::Tensor;
using llm::Var;

const double c1 = std::cos(1.0), s1 = std::sin(1.0);
const double c2 = std::cos(2.0), s2 = std::sin(2.0);

// B = 1, T = 3, d_model = 4, h = 2, RoPE base 100, capacity 6.
const llm::AttentionConfig config{
    .d_model = 4, .heads = 2, .rope_base = 100.0, .capacity = 6};

Tensor fixture_x() {
  return Tensor({1, 3, 4}, {1, 0, 1, 0, c1, -s1, 0, 1, c2, -s2, 1, 1});
}

Tensor identity() {
  Tensor w({4, 4});
  for (std::size_t i = 0; i < 4; ++i) w.set({i, i}, 1.0);
  return w;
}

// [a, b, c, d] -> [c, d, a, b].
Tensor block_swap() {
  return Tensor({4, 4}, {0, 0, 1, 0, 0, 0, 0, 1, 1, 0, 0, 0, 0, 1, 0, 0});
}

// Runs the reader's layer on x with identity projections and the swap.
llm::MultiHeadTrace run(Tape& tape, const Tensor& x) {
  return exercise::multi_head_attention(
      tape.leaf(x), tape.leaf(identity()), tape.leaf(identity()),
      tape.leaf(identity()), tape.leaf(block_swap()), config);
}

}  // namespace

TEST_CASE("heads take contiguous feature slices") {
  // With identity projections head 0 must read features 0-1 of every
  // token and head 1 features 2-3.
  Tape tape;
  const llm::MultiHeadTrace r = run(tape, fixture_x());
  const Tensor v = r.v.value();
  const Tensor x = fixture_x();
  for (std::size_t hd = 0; hd < 2; ++hd) {
    for (std::size_t t = 0; t < 3; ++t) {
      for (std::size_t c = 0; c < 2; ++c) {
        REQUIRE(v.at({0, hd, t, c}) == x.at({0, t, hd * 2 + c}));
      }
    }
  }
  // Changing features 2-3 must leave head 0 exactly as it was.
  Tensor changed = fixture_x().contiguous();
  changed.set({0, 2, 2}, -1.5);
  changed.set({0, 1, 3}, 0.25);
  const Tensor before = r.heads.value().slice(1, 0, 1).contiguous();
  const llm::MultiHeadTrace o = run(tape, changed);
  REQUIRE(o.heads.value().slice(1, 0, 1).to_vector() == before.to_vector());
}

TEST_CASE("scores are q.k scaled by 1 over sqrt of the head width") {
  // Whatever the queries and keys are, score[t][j] = q_t . k_j / sqrt(2).
  Tape tape;
  const llm::MultiHeadTrace r = run(tape, fixture_x());
  const Tensor q = r.q.value(), k = r.k.value(), s = r.scores.value();
  for (std::size_t hd = 0; hd < 2; ++hd) {
    for (std::size_t t = 0; t < 3; ++t) {
      for (std::size_t j = 0; j <= t; ++j) {
        const double dot = q.at({0, hd, t, 0}) * k.at({0, hd, j, 0}) +
                           q.at({0, hd, t, 1}) * k.at({0, hd, j, 1});
        REQUIRE(s.at({0, hd, t, j}) ==
                Approx(dot / std::sqrt(2.0)).margin(1e-12));
      }
    }
  }
}

TEST_CASE("each probability row is a distribution over the visible keys") {
  // Row t: non-negative, exactly 0 for every key j > t, summing to 1.
  Tape tape;
  const llm::MultiHeadTrace r = run(tape, fixture_x());
  const Tensor p = r.probs.value();
  for (std::size_t hd = 0; hd < 2; ++hd) {
    for (std::size_t t = 0; t < 3; ++t) {
      double sum = 0.0;
      for (std::size_t j = 0; j < 3; ++j) {
        const double v = p.at({0, hd, t, j});
        REQUIRE(v >= 0.0);
        if (j > t) REQUIRE(v == 0.0);
        sum += v;
      }
      REQUIRE(sum == Approx(1.0).margin(1e-12));
    }
  }
}

TEST_CASE("the fixture's values at position 1") {
  // Head 1 at position 1: rotated query and key (-sin 1, cos 1), first
  // key (1, 0). Scores -sin 1 / sqrt 2 = -0.595010 and 1 / sqrt 2 =
  // 0.707107; p1 = 1 / (1 + exp(-0.595010 - 0.707107)) = 0.786191.
  // Head 0 is uniform: ((1 + cos 1) / 2, -sin 1 / 2).
  Tape tape;
  const llm::MultiHeadTrace r = run(tape, fixture_x());
  const double p1 =
      1.0 / (1.0 + std::exp(-s1 / std::sqrt(2.0) - 1.0 / std::sqrt(2.0)));
  REQUIRE(r.probs.value().at({0, 1, 1, 0}) == Approx(1 - p1).margin(1e-9));
  REQUIRE(r.probs.value().at({0, 1, 1, 1}) == Approx(p1).margin(1e-9));
  const std::vector<double> concat = {(1 + c1) / 2, -s1 / 2, 1 - p1, p1};
  const std::vector<double> out = {1 - p1, p1, (1 + c1) / 2, -s1 / 2};
  for (std::size_t c = 0; c < 4; ++c) {
    REQUIRE(r.concat.value().at({0, 1, c}) == Approx(concat[c]).margin(1e-9));
    REQUIRE(r.out.value().at({0, 1, c}) == Approx(out[c]).margin(1e-9));
  }
}

TEST_CASE("the fixture's values at position 2") {
  // Head 0: the mean of the three values. Head 1: scores
  // (cos 2 - sin 2, cos 1 + sin 1, 2) / sqrt 2 over values (1, 0),
  // (0, 1), (1, 1).
  Tape tape;
  const llm::MultiHeadTrace r = run(tape, fixture_x());
  const double root2 = std::sqrt(2.0);
  const double e[3] = {std::exp((c2 - s2) / root2),
                       std::exp((c1 + s1) / root2), std::exp(2 / root2)};
  const double z = e[0] + e[1] + e[2];
  const std::vector<double> concat = {(1 + c1 + c2) / 3, (-s1 - s2) / 3,
                                      (e[0] + e[2]) / z, (e[1] + e[2]) / z};
  for (std::size_t c = 0; c < 4; ++c) {
    REQUIRE(r.concat.value().at({0, 2, c}) == Approx(concat[c]).margin(1e-9));
  }
}
