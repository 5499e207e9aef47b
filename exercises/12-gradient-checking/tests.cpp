// The exercise tests of the gradient-checking chapter. They call
// exercise::numeric_gradient (starter.cpp, once fixed) on polynomials
// whose central differences are worked out by hand, with the step
// h = 0.25 or 0.5, so that every probe and quotient is exact in binary.
// Each test names what it checks, and a failure prints which
// coordinate is wrong.
#include <catch2/catch.hpp>

#include <cstddef>
#include <vector>

#include "exercise.hpp"

namespace {

// Requires the numeric gradient of f at x with step h to be `want`.
void require_gradient(const llm::MultiFunction& f,
                      const std::vector<double>& x, double h,
                      const std::vector<double>& want) {
  const std::vector<double> g = exercise::numeric_gradient(f, x, h);
  REQUIRE(g.size() == want.size());
  for (std::size_t i = 0; i < want.size(); ++i) {
    INFO("coordinate " << i << " of the gradient");
    CHECK(g[i] == Approx(want[i]).margin(1e-12));
  }
}

}  // namespace

TEST_CASE("a linear function: the slope of each coordinate") {
  // f = 3 x0 - 2 x1 changes by 3 * 2h and -2 * 2h between the two
  // probes, a distance 2h apart: the gradient is (3, -2) for any h.
  const llm::MultiFunction f = [](const std::vector<double>& v) {
    return 3 * v[0] - 2 * v[1];
  };
  require_gradient(f, {1.0, 4.0}, 0.25, {3, -2});
}

TEST_CASE("a product: each coordinate measured at x itself") {
  // f = x0 x1 at (2, 5): the exact gradient is (x1, x0) = (5, 2), and
  // the central difference of a product is exact. Coordinate 1 must be
  // probed at x0 = 2; a probe left at x0 - h = 1.75 measures 1.75.
  const llm::MultiFunction f = [](const std::vector<double>& v) {
    return v[0] * v[1];
  };
  require_gradient(f, {2.0, 5.0}, 0.25, {5, 2});
}

TEST_CASE("a cube: the central difference is off by h squared") {
  // ((1 + h)^3 - (1 - h)^3) / (2h) = (6h + 2h^3) / (2h) = 3 + h^2, so
  // 3.25 at h = 0.5 (the true slope is 3; a one-sided quotient would
  // give 3 + 3h + h^2 = 4.75).
  const llm::MultiFunction f = [](const std::vector<double>& v) {
    return v[0] * v[0] * v[0];
  };
  require_gradient(f, {1.0}, 0.5, {3.25});
}

TEST_CASE("a step that is not positive is rejected") {
  const llm::MultiFunction f = [](const std::vector<double>& v) {
    return v[0];
  };
  CHECK_THROWS_AS(exercise::numeric_gradient(f, {1.0}, 0.0),
                  llm::ConfigError);
}
