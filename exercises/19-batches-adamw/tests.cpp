// The exercise tests of the batches-adamw chapter. They call
// exercise::adamw_step (starter.cpp, once fixed) for one or two steps
// whose results are worked out by hand in the comments, with eps =
// 1e-12 so small that it changes nothing at 1e-9. Each test names what
// it checks, and a failure prints which weight is wrong.
#include <catch2/catch.hpp>

#include <cstddef>
#include <vector>

#include "exercise.hpp"

namespace {

// lr 0.1, the default betas 0.9 and 0.999, eps 1e-12, no decay unless a
// test sets one.
llm::AdamWOptions options(double weight_decay = 0.0) {
  llm::AdamWOptions o;
  o.lr = 0.1;
  o.eps = 1e-12;
  o.weight_decay = weight_decay;
  return o;
}

// Requires every weight of `theta` to be `want` to 1e-9.
void require_weights(const std::vector<double>& theta,
                     const std::vector<double>& want) {
  REQUIRE(theta.size() == want.size());
  for (std::size_t k = 0; k < want.size(); ++k) {
    INFO("weight " << k);
    CHECK(theta[k] == Approx(want[k]).margin(1e-9));
  }
}

}  // namespace

TEST_CASE("the first step moves each weight by lr against its gradient") {
  // After one step m = (1 - b1) g and v = (1 - b2) g^2; the bias
  // corrections divide them by 1 - b1 and 1 - b2, so m_hat / sqrt(v_hat)
  // = g / |g|: every weight with a gradient moves by exactly lr = 0.1,
  // however large the gradient. A zero gradient moves nothing.
  std::vector<double> theta = {1.0, -2.0, 0.5};
  exercise::Moments state;
  exercise::adamw_step(theta, {4.0, -0.01, 0.0}, state, options(), false);
  require_weights(theta, {0.9, -1.9, 0.5});
  CHECK(state.step == 1);
}

TEST_CASE("the second step, by hand") {
  // Gradients +1 then -1 on one weight starting at 1. Step 1 moves it to
  // 0.9 with m = 0.1, v = 0.001. Step 2: m = 0.09 - 0.1 = -0.01 and
  // v = 0.000999 + 0.001 = 0.001999; the corrections are 1 - 0.81 = 0.19
  // and 1 - 0.998001 = 0.001999, so m_hat = -1/19 and v_hat = 1, and the
  // weight moves up by 0.1 / 19.
  std::vector<double> theta = {1.0};
  exercise::Moments state;
  exercise::adamw_step(theta, {1.0}, state, options(), false);
  require_weights(theta, {0.9});
  exercise::adamw_step(theta, {-1.0}, state, options(), false);
  require_weights(theta, {0.9 + 0.1 / 19});
  REQUIRE(state.m.size() == 1);
  CHECK(state.m[0] == Approx(-0.01).margin(1e-12));
  CHECK(state.v[0] == Approx(0.001999).margin(1e-12));
  CHECK(state.step == 2);
}

TEST_CASE("weight decay is decoupled from the gradient") {
  // theta = 2, g = 3, lambda = 0.5: the adaptive part of the first step
  // is g / |g| = 1 and the decay adds lambda theta = 1 beside it, so
  // theta = 2 - 0.1 (1 + 1) = 1.8. Adding lambda theta to the gradient
  // instead (g = 4) leaves only 4 / |4| = 1: theta = 1.9, as if there
  // were no decay at all.
  std::vector<double> theta = {2.0};
  exercise::Moments state;
  exercise::adamw_step(theta, {3.0}, state, options(0.5), true);
  require_weights(theta, {1.8});
}

TEST_CASE("a parameter without decay ignores lambda") {
  // The same step with decay = false: only the adaptive part, 2 - 0.1.
  std::vector<double> theta = {2.0};
  exercise::Moments state;
  exercise::adamw_step(theta, {3.0}, state, options(0.5), false);
  require_weights(theta, {1.9});
}

TEST_CASE("a gradient of the wrong size is rejected") {
  std::vector<double> theta = {1.0, 2.0};
  exercise::Moments state;
  CHECK_THROWS_AS(
      exercise::adamw_step(theta, {1.0}, state, options(), false),
      llm::ShapeError);
}
