// The exercise tests of the sampling chapter. They call
// exercise::top_p_distribution (starter.cpp, once fixed) on logits whose
// probabilities are worked out by hand: equal logits give exactly 1/4
// each, so the running masses 1/4, 1/2, 3/4 and 1 are exact and a cut
// can land exactly on p. Each test names what it checks.
#include <catch2/catch.hpp>

#include <cmath>
#include <cstddef>
#include <vector>

#include "exercise.hpp"
#include "fixtures.hpp"  // tests/unit/: require_near

using Vec = std::vector<double>;

TEST_CASE("a cut exactly at p keeps the token that reaches it") {
  // Four probabilities of 1/4: the first two reach 1/2 exactly.
  require_near(exercise::top_p_distribution({0, 0, 0, 0}, 0.5),
               {0.5, 0.5, 0, 0});
  require_near(exercise::top_p_distribution({0, 0, 0, 0}, 0.25),
               {1, 0, 0, 0});
}

TEST_CASE("equal probabilities are ranked by the lower id") {
  // Ids 1 and 3 tie for the top; p = 0.3 needs one of them (0.4 or so
  // of the mass each): the lower, id 1.
  const double ln4 = std::log(4.0);
  const Vec q = exercise::top_p_distribution({0, ln4, 0, ln4}, 0.3);
  require_near(q, {0, 1, 0, 0});
}

TEST_CASE("the survivors add up to 1") {
  // z = (ln 4, ln 2, 0, 0): probabilities about (1/2, 1/4, 1/8, 1/8);
  // p = 0.6 keeps the first two, renormalised to (2/3, 1/3).
  const Vec q = exercise::top_p_distribution(
      {std::log(4.0), std::log(2.0), 0, 0}, 0.6);
  require_near(q, {2.0 / 3, 1.0 / 3, 0, 0});
  double total = 0.0;
  for (double x : q) total += x;
  CHECK(std::abs(total - 1.0) <= 1e-12);
}

TEST_CASE("p = 1 keeps every token, and a bad p is refused") {
  require_near(exercise::top_p_distribution({0, 0, 0, 0}, 1.0),
               {0.25, 0.25, 0.25, 0.25});
  CHECK_THROWS_AS(exercise::top_p_distribution({0, 0}, 0.0),
                  llm::ConfigError);
  CHECK_THROWS_AS(exercise::top_p_distribution({0, 0}, 1.5),
                  llm::ConfigError);
}
