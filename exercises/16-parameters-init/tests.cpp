// The exercise tests of the parameters-init chapter. They call
// exercise::normal (starter.cpp, once fixed) with seeded generators and
// compare against a copy of the same generator stepped by hand, and
// against the moments every standard normal has. Each test names what
// it checks.
#include <catch2/catch.hpp>

#include <cmath>
#include <cstddef>
#include <numbers>

#include "exercise.hpp"

TEST_CASE("each draw consumes two uniforms") {
  // Box-Muller needs two independent uniforms: after one draw the
  // generator must stand where a copy stands after two uniform() calls.
  llm::Rng rng(16), copy(16);
  exercise::normal(rng);
  copy.uniform();
  copy.uniform();
  CHECK(rng.state() == copy.state());
}

TEST_CASE("the first draws of seed 16, by the formula") {
  // The same uniforms from a copy of the generator, put through
  // sqrt(-2 log(1 - u1)) cos(2 pi u2) here: three draws in a row.
  llm::Rng rng(16), copy(16);
  for (int draw = 0; draw < 3; ++draw) {
    const double u1 = copy.uniform(), u2 = copy.uniform();
    const double want = std::sqrt(-2.0 * std::log(1.0 - u1)) *
                        std::cos(2.0 * std::numbers::pi * u2);
    INFO("draw " << draw << " from u1 = " << u1 << ", u2 = " << u2);
    CHECK(exercise::normal(rng) == Approx(want).margin(1e-12));
  }
}

TEST_CASE("100000 draws have mean 0 and variance 1") {
  // The standard error of the mean of 100000 standard normals is
  // 1 / sqrt(100000), about 0.003, and that of the variance about
  // sqrt(2 / 100000), about 0.0045: the margins are five of those.
  llm::Rng rng(2026);
  const std::size_t n = 100000;
  double sum = 0.0, squares = 0.0;
  for (std::size_t i = 0; i < n; ++i) {
    const double z = exercise::normal(rng);
    sum += z;
    squares += z * z;
  }
  const double mean = sum / n;
  const double variance = squares / n - mean * mean;
  CHECK(mean == Approx(0.0).margin(0.016));
  CHECK(variance == Approx(1.0).margin(0.023));
}
