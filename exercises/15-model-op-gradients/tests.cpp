// The exercise tests of the model-op-gradients chapter. They call
// exercise::cross_entropy_grad (starter.cpp, once fixed) on logits
// whose softmax is worked out by hand: equal logits, or logits chosen
// as logarithms. Each test names what it checks, and a failure prints
// which entry of the gradient is wrong.
#include <catch2/catch.hpp>

#include <cmath>
#include <cstddef>
#include <vector>

#include "exercise.hpp"

namespace {

using llm::Tensor;

// Requires the gradient to be `want` (row-major [N, V]) to 1e-12.
void require_grad(const Tensor& logits, const std::vector<std::size_t>& t,
                  const std::vector<double>& want) {
  const Tensor g = exercise::cross_entropy_grad(logits, t);
  REQUIRE(g.shape() == logits.shape());
  const std::vector<double> got = g.to_vector();
  const std::size_t v = logits.shape()[1];
  for (std::size_t k = 0; k < want.size(); ++k) {
    const std::size_t i = k / v, j = k % v;
    INFO("row " << i << " (target " << t[i] << "), logit " << j
                << (j == t[i] ? ": the target's entry" : ""));
    CHECK(got[k] == Approx(want[k]).margin(1e-12));
  }
}

}  // namespace

TEST_CASE("one row: the softmax minus the target's one-hot") {
  // Logits (0, ln 3): the softmax is (1/4, 3/4). With target 1 the
  // gradient is (1/4, 3/4 - 1) = (1/4, -1/4): raising the target's
  // logit lowers the loss, so its entry is negative.
  require_grad(Tensor({1, 2}, {0.0, std::log(3.0)}), {1}, {0.25, -0.25});
}

TEST_CASE("equal logits, two rows: each row's target, divided by N") {
  // Four equal logits give 1/4 each. Row 0's target is 1, row 1's is 3;
  // the loss is the mean over N = 2 rows, so every entry is halved:
  // 1/8 everywhere except -3/8 at each row's target.
  require_grad(Tensor({2, 4}), {1, 3},
               {0.125, -0.375, 0.125, 0.125, 0.125, 0.125, 0.125, -0.375});
}

TEST_CASE("each row of the gradient adds up to 0") {
  // The softmax adds up to 1 and the one-hot to 1: their difference to
  // 0, whatever the logits. Logits 0, 1, ..., 5 as two rows of 3.
  const Tensor g = exercise::cross_entropy_grad(
      Tensor({2, 3}, {0, 1, 2, 3, 4, 5}), {2, 0});
  for (std::size_t i = 0; i < 2; ++i) {
    INFO("row " << i);
    CHECK(g.at({i, 0}) + g.at({i, 1}) + g.at({i, 2}) ==
          Approx(0.0).margin(1e-12));
  }
}

TEST_CASE("a target outside the vocabulary is rejected") {
  CHECK_THROWS_AS(exercise::cross_entropy_grad(Tensor({1, 3}), {3}),
                  llm::IndexError);
}
