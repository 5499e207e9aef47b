// The exercise tests of the causal-masking chapter. They call
// exercise::causal_probabilities (starter.cpp, once fixed) on score
// matrices whose probabilities are worked out by hand: visible scores
// chosen as logarithms, so that the exponentials are whole numbers.
// Each test names what it checks, and a failure prints which
// probability is wrong.
#include <catch2/catch.hpp>

#include <cmath>
#include <cstddef>
#include <vector>

#include "exercise.hpp"

namespace {

using llm::Tensor;

const double ln2 = std::log(2.0), ln3 = std::log(3.0);

// Requires the probabilities of `scores` [t, t] to be `want` (row-major):
// exactly 0 above the diagonal, to 1e-12 elsewhere.
void require_probs(const Tensor& scores, const std::vector<double>& want) {
  const Tensor p = exercise::causal_probabilities(scores);
  REQUIRE(p.shape() == scores.shape());
  const std::vector<double> got = p.to_vector();
  const std::size_t t = scores.shape()[0];
  for (std::size_t k = 0; k < want.size(); ++k) {
    const std::size_t i = k / t, j = k % t;
    INFO("query " << i << ", key " << j
                  << (j > i ? " (a future key: weight exactly 0)"
                            : " (a visible key)"));
    if (j > i) {
      CHECK(got[k] == 0.0);
    } else {
      CHECK(got[k] == Approx(want[k]).margin(1e-12));
    }
  }
}

}  // namespace

TEST_CASE("equal scores: each query spreads over itself and the past") {
  // Query i sees keys 0..i, i + 1 of them, all with the same score:
  // row 0 is (1, 0, 0), row 1 (1/2, 1/2, 0), row 2 (1/3, 1/3, 1/3).
  // Query 0 sees exactly one key, itself.
  require_probs(Tensor({3, 3}),
                {1, 0, 0, 0.5, 0.5, 0, 1.0 / 3, 1.0 / 3, 1.0 / 3});
}

TEST_CASE("each row is a distribution over the visible keys only") {
  // Row 1 has visible scores (ln 3, 0): exponentials 3 and 1, so 3/4 and
  // 1/4; its future score 9 must not take any share. Row 2 (0, ln 2,
  // ln 3) gives 1, 2, 3: 1/6, 2/6, 3/6. Row 0 is (1, 0, 0) whatever its
  // future scores 5 and 7 are.
  require_probs(Tensor({3, 3}, {0, 5, 7, ln3, 0, 9, 0, ln2, ln3}),
                {1, 0, 0, 0.75, 0.25, 0, 1.0 / 6, 2.0 / 6, 3.0 / 6});
}

TEST_CASE("a huge future score changes nothing") {
  // Query 0 sees key 0 alone: probability 1, even when key 1 scores
  // 1000. Shifting by 1000, a score no visible key has, makes exp(0 -
  // 1000) round to 0 and the row 0 / 0. Row 1 sees (0, 1000): (0, 1).
  require_probs(Tensor({2, 2}, {0, 1000, 0, 1000}), {1, 0, 0, 1});
}

TEST_CASE("scores that are not square are rejected") {
  CHECK_THROWS_AS(exercise::causal_probabilities(Tensor({2, 3})),
                  llm::ShapeError);
}
