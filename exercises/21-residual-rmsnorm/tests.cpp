// The exercise tests of the residual-rmsnorm chapter. They call
// exercise::rms_norm (starter.cpp, once fixed) on rows chosen so that
// the root mean square is a whole number, worked out in the comments.
// Each test names what it checks, and a failure prints which output is
// wrong.
#include <catch2/catch.hpp>

#include <cmath>
#include <cstddef>
#include <vector>

#include "exercise.hpp"

namespace {

using llm::Tensor;

// Requires rms_norm(x, gain, eps) to be `want` (row-major) to 1e-12.
void require_norm(const Tensor& x, const Tensor& gain, double eps,
                  const std::vector<double>& want) {
  const Tensor y = exercise::rms_norm(x, gain, eps);
  REQUIRE(y.shape() == x.shape());
  const std::vector<double> got = y.to_vector();
  const std::size_t d = gain.shape()[0];
  for (std::size_t k = 0; k < want.size(); ++k) {
    INFO("row " << k / d << ", feature " << k % d);
    CHECK(got[k] == Approx(want[k]).margin(1e-12));
  }
}

}  // namespace

TEST_CASE("numbers of opposite sign: the mean of the squares") {
  // x = (3, -3): the mean of the squares is (9 + 9) / 2 = 9, so the root
  // is 3 and y = (1, -1). The plain mean is 0, which would divide by
  // about sqrt(eps). eps = 1e-12 is too small to matter at 1e-12.
  require_norm(Tensor({1, 2}, {3, -3}), Tensor({2}, {1, 1}), 1e-12,
               {1, -1});
}

TEST_CASE("epsilon goes under the square root") {
  // x = (1, 1) and eps = 3: sqrt(1 + 3) = 2, so y = (1/2, 1/2). With
  // eps added to the root instead, 1 / (1 + 3) = 1/4.
  require_norm(Tensor({1, 2}, {1, 1}), Tensor({2}, {1, 1}), 3.0,
               {0.5, 0.5});
}

TEST_CASE("the gain scales each feature, the same in every row") {
  // Two rows (1, 1) with eps = 3 normalise to (1/2, 1/2) each; the gain
  // (2, 10) multiplies feature 0 by 2 and feature 1 by 10 in both rows:
  // (1, 5) and (1, 5).
  require_norm(Tensor({2, 2}, {1, 1, 1, 1}), Tensor({2}, {2, 10}), 3.0,
               {1, 5, 1, 5});
}

TEST_CASE("each row has its own root mean square") {
  // Rows (4, -2, 4, -2) and (1, 1, -1, -1), eps = 1e-12: mean squares
  // (16 + 4 + 16 + 4) / 4 = 10 and 1, so roots sqrt(10) and 1.
  const double r = std::sqrt(10.0);
  require_norm(Tensor({2, 4}, {4, -2, 4, -2, 1, 1, -1, -1}),
               Tensor({4}, {1, 1, 1, 1}), 1e-12,
               {4 / r, -2 / r, 4 / r, -2 / r, 1, 1, -1, -1});
}

TEST_CASE("a gain of the wrong width and eps <= 0 are rejected") {
  const Tensor x({2, 3});
  CHECK_THROWS_AS(exercise::rms_norm(x, Tensor({2}), 1e-5),
                  llm::ShapeError);
  CHECK_THROWS_AS(exercise::rms_norm(x, Tensor({3}), 0.0),
                  llm::ConfigError);
}
