// The exercise tests of the self-attention chapter. They call
// exercise::attention (starter.cpp, once fixed) on queries and keys
// chosen so that the scores are simple logarithms and the weights
// simple fractions, worked out in the comments. Each test names what
// it checks, and a failure prints which output is wrong.
#include <catch2/catch.hpp>

#include <cmath>
#include <cstddef>
#include <vector>

#include "exercise.hpp"

namespace {

using llm::Tensor;

// Requires attention(q, k, v) to be `want` (row-major [T, d_v]).
void require_out(const Tensor& q, const Tensor& k, const Tensor& v,
                 const std::vector<double>& want) {
  const Tensor y = exercise::attention(q, k, v);
  REQUIRE(y.shape() == llm::Shape{q.shape()[0], v.shape()[1]});
  const std::vector<double> got = y.to_vector();
  const std::size_t dv = v.shape()[1];
  for (std::size_t n = 0; n < want.size(); ++n) {
    INFO("query " << n / dv << ", output feature " << n % dv);
    CHECK(got[n] == Approx(want[n]).margin(1e-12));
  }
}

// The values of every test: token j's value is one-hot at feature j,
// so each output row is exactly that query's weights over the keys.
Tensor one_hot_values(std::size_t t) {
  Tensor v({t, t});
  for (std::size_t j = 0; j < t; ++j) v.set({j, j}, 1.0);
  return v;
}

}  // namespace

TEST_CASE("scores are divided by the square root of d_k") {
  // d_k = 4, one query q = (a, a, a, a) against keys 0 and (1, 1, 1, 1):
  // scores 0 and 4a / sqrt(4) = 2a. With a = ln(3) / 2 the second is
  // ln 3, so the weights are 1/4 and 3/4. Dividing by d_k = 4 instead
  // would give a score of ln(3) / 2 and weights 1 / (1 + sqrt 3).
  const double a = std::log(3.0) / 2;
  const Tensor q({2, 4}, {a, a, a, a, 0, 0, 0, 0});
  const Tensor k({2, 4}, {0, 0, 0, 0, 1, 1, 1, 1});
  // Query 1 is 0: equal scores, weights 1/2 and 1/2.
  require_out(q, k, one_hot_values(2), {0.25, 0.75, 0.5, 0.5});
}

TEST_CASE("each query's weights add up to 1 over the keys") {
  // d_k = 1, T = 3: q = (0, 1, 2) and k = (0, ln 2, ln 3) give
  // score[i][j] = q_i k_j. Query 0 scores all 0: weights 1/3 each.
  // Query 1: (0, ln 2, ln 3) -> 1, 2, 3 over 6. Query 2: (0, 2 ln 2,
  // 2 ln 3) -> 1, 4, 9 over 14.
  const Tensor q({3, 1}, {0, 1, 2});
  const Tensor k({3, 1}, {0, std::log(2.0), std::log(3.0)});
  require_out(q, k, one_hot_values(3),
              {1.0 / 3, 1.0 / 3, 1.0 / 3, 1.0 / 6, 2.0 / 6, 3.0 / 6,
               1.0 / 14, 4.0 / 14, 9.0 / 14});
}

TEST_CASE("queries and keys of different widths are rejected") {
  CHECK_THROWS_AS(exercise::attention(Tensor({2, 3}), Tensor({2, 2}),
                                      Tensor({2, 1})),
                  llm::ShapeError);
}
