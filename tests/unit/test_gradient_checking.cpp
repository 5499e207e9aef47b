// Tests for chapter gradient-checking: forward and central difference
// quotients, the numeric gradient of vector and tensor functions, and
// the comparison of an analytic gradient with a numeric one. Uses only
// what that chapter and the tensor chapters define.
#include <catch2/catch.hpp>

#include <cmath>
#include <cstddef>
#include <limits>
#include <vector>

#include "llm/error.hpp"
#include "llm/gradcheck.hpp"
#include "llm/tensor.hpp"

namespace {

double cube(double x) { return x * x * x; }

// f(a, b) = a^2 b + b^3, the chapter's two-variable example.
double f2(const std::vector<double>& p) {
  return p[0] * p[0] * p[1] + p[1] * p[1] * p[1];
}

}  // namespace

TEST_CASE("exercise: quotients by hand are exact at h = 0.5",
          "[gradient-checking]") {
  // D+(0.5) = (1.5^3 - 1) / 0.5 = 2.375 / 0.5 = 4.75 = 3 + 3h + h^2.
  REQUIRE(llm::forward_difference(cube, 1.0, 0.5) == 4.75);
  // D0(0.5) = (1.5^3 - 0.5^3) / 1 = 3.375 - 0.125 = 3.25 = 3 + h^2.
  REQUIRE(llm::central_difference(cube, 1.0, 0.5) == 3.25);
}

TEST_CASE("the central quotient is exact for a quadratic",
          "[gradient-checking]") {
  // f = x^2 has f''' = 0, so D0 has no truncation error:
  // (3.25^2 - 2.75^2) / 0.5 = (10.5625 - 7.5625) / 0.5 = 6 = f'(3).
  const auto square = [](double x) { return x * x; };
  REQUIRE(llm::central_difference(square, 3.0, 0.25) == 6.0);
  // The forward quotient is off by h: (3.25^2 - 9) / 0.25 = 6.25.
  REQUIRE(llm::forward_difference(square, 3.0, 0.25) == 6.25);
}

TEST_CASE("truncation error falls as h for forward and h^2 for central",
          "[gradient-checking]") {
  // For x^3 at 1: D+ - 3 = 3h + h^2 and D0 - 3 = h^2 exactly, up to
  // rounding of about eps / h, which is 2e-14 at h = 1e-2.
  for (double h : {1e-1, 1e-2, 1e-3}) {
    const double forward = llm::forward_difference(cube, 1.0, h);
    const double central = llm::central_difference(cube, 1.0, h);
    REQUIRE(forward - 3.0 == Approx(3.0 * h + h * h).epsilon(1e-6));
    REQUIRE(central - 3.0 == Approx(h * h).epsilon(1e-4));
  }
}

TEST_CASE("rounding makes a too small step worse than a moderate one",
          "[gradient-checking]") {
  // Model: the central error at 1e-6 is about 1e-12 + eps/2e-6 ~ 1e-10;
  // at 1e-13 rounding alone is about eps / 2e-13 ~ 1e-3.
  const double good = std::abs(llm::central_difference(cube, 1.0, 1e-6) - 3);
  const double tiny =
      std::abs(llm::central_difference(cube, 1.0, 1e-13) - 3);
  REQUIRE(good < 1e-9);
  REQUIRE(tiny > 1e-5);
}

TEST_CASE("exercise: Richardson extrapolation is exact for a cubic",
          "[gradient-checking]") {
  // D0(h) = 3 + h^2, so (4 D0(h/2) - D0(h)) / 3 = (4 * 3.0625 - 3.25) / 3
  // = 9 / 3 = 3; every number is exact in binary.
  const double d_h = llm::central_difference(cube, 1.0, 0.5);
  const double d_half = llm::central_difference(cube, 1.0, 0.25);
  REQUIRE(d_half == 3.0625);
  REQUIRE((4.0 * d_half - d_h) / 3.0 == 3.0);
}

TEST_CASE("numeric_gradient estimates every partial derivative",
          "[gradient-checking]") {
  // df/da = 2ab = 4 and df/db = a^2 + 3b^2 = 13 at (1, 2).
  const std::vector<double> g = llm::numeric_gradient(f2, {1.0, 2.0}, 1e-6);
  REQUIRE(g.size() == 2);
  REQUIRE(g[0] == Approx(4.0).margin(1e-8));
  REQUIRE(g[1] == Approx(13.0).margin(1e-8));
  // An empty input has an empty gradient and calls nothing.
  REQUIRE(llm::numeric_gradient(f2, {}, 1e-6).empty());
}

TEST_CASE("numeric_gradient moves one coordinate at a time and restores it",
          "[gradient-checking]") {
  const std::vector<double> x = {0.1, 0.7, 1.3};
  const double h = 0.5;
  std::vector<std::vector<double>> calls;
  const auto record = [&](const std::vector<double>& p) {
    calls.push_back(p);
    return p[0] + 2.0 * p[1] + 3.0 * p[2];
  };
  const std::vector<double> g = llm::numeric_gradient(record, x, h);
  // 2n calls: x + h e_i, then x - h e_i, for i = 0, 1, 2.
  REQUIRE(calls.size() == 6);
  for (std::size_t i = 0; i < 3; ++i) {
    for (std::size_t j = 0; j < 3; ++j) {
      const double up = i == j ? x[j] + h : x[j];
      const double down = i == j ? x[j] - h : x[j];
      REQUIRE(calls[2 * i][j] == up);
      REQUIRE(calls[2 * i + 1][j] == down);
    }
  }
  // A linear function's gradient is its coefficients.
  REQUIRE(g[0] == Approx(1.0));
  REQUIRE(g[1] == Approx(2.0));
  REQUIRE(g[2] == Approx(3.0));
}

TEST_CASE("numeric_gradient of a tensor function keeps the shape",
          "[gradient-checking]") {
  // f(X) = sum_ij X_ij^2 + X_01 * X_10 on a [2,2] tensor:
  // df/dX = 2X, plus X_10 at [0,1] and X_01 at [1,0].
  const auto f = [](const llm::Tensor& t) {
    double sum = 0.0;
    for (double v : t.to_vector()) sum += v * v;
    return sum + t.at({0, 1}) * t.at({1, 0});
  };
  const llm::Tensor x({2, 2}, {1.0, 2.0, 3.0, 4.0});
  const llm::Tensor g = llm::numeric_gradient(f, x, 1e-6);
  REQUIRE(g.shape() == llm::Shape{2, 2});
  // [2*1, 2*2 + 3, 2*3 + 2, 2*4] = [2, 7, 8, 8].
  const std::vector<double> expected = {2.0, 7.0, 8.0, 8.0};
  REQUIRE(llm::compare_gradients(g.to_vector(), expected).max_abs < 1e-8);
}

TEST_CASE("numeric_gradient of a view follows the view's own order",
          "[gradient-checking]") {
  // The transpose of [[1,2],[3,4]] reads 1 3 2 4. With f(T) = 10 T_00 +
  // T_01 the gradient, in T's shape, is [[10, 1], [0, 0]].
  const llm::Tensor x({2, 2}, {1.0, 2.0, 3.0, 4.0});
  const llm::Tensor t = x.transpose(0, 1);
  const auto f = [](const llm::Tensor& v) {
    return 10.0 * v.at({0, 0}) + v.at({0, 1});
  };
  const llm::Tensor g = llm::numeric_gradient(f, t, 1e-6);
  REQUIRE(g.shape() == llm::Shape{2, 2});
  const std::vector<double> expected = {10.0, 1.0, 0.0, 0.0};
  REQUIRE(llm::compare_gradients(g.to_vector(), expected).max_abs < 1e-8);
}

TEST_CASE("compare_gradients reports absolute and relative errors",
          "[gradient-checking]") {
  // |4 - 4.5| = 0.5, scaled by max(1, 4, 4.5) = 4.5: 1/9 at coordinate 0.
  const llm::GradientError e =
      llm::compare_gradients({4.0, 13.0}, {4.5, 13.0});
  REQUIRE(e.max_abs == 0.5);
  REQUIRE(e.max_rel == Approx(1.0 / 9.0));
  REQUIRE(e.worst == 0);
  // Identical gradients: no error anywhere, worst stays 0.
  const llm::GradientError none = llm::compare_gradients({1.0}, {1.0});
  REQUIRE(none.max_abs == 0.0);
  REQUIRE(none.max_rel == 0.0);
  REQUIRE(none.worst == 0);
}

TEST_CASE("exercise: the floor of 1 in the relative error",
          "[gradient-checking]") {
  // Coordinate 0: |0 - 1e-11| / max(1, 0, 1e-11) = 1e-11.
  // Coordinate 1: 0.001 / 1000.001, about 1e-6, is the worst.
  const llm::GradientError e =
      llm::compare_gradients({0.0, 1000.0}, {1e-11, 1000.001});
  REQUIRE(e.max_abs == Approx(0.001).epsilon(1e-6));
  REQUIRE(e.max_rel == Approx(0.001 / 1000.001).epsilon(1e-6));
  REQUIRE(e.worst == 1);
  // Alone, the near-zero coordinate is rounding noise, not 100% wrong.
  REQUIRE(llm::compare_gradients({0.0}, {1e-11}).max_rel == 1e-11);
}

TEST_CASE("compare_gradients never passes a NaN",
          "[gradient-checking]") {
  const double nan = std::numeric_limits<double>::quiet_NaN();
  const llm::GradientError e = llm::compare_gradients({1.0, nan}, {1.0, 2.0});
  REQUIRE(std::isinf(e.max_abs));
  REQUIRE(std::isinf(e.max_rel));
  REQUIRE(e.worst == 1);
}

TEST_CASE("compare_gradients on tensors compares shapes first",
          "[gradient-checking]") {
  const llm::Tensor a({2, 1}, {1.0, 2.0});
  const llm::Tensor b({2, 1}, {1.0, 2.5});
  // |2 - 2.5| / max(1, 2, 2.5) = 0.2 at coordinate 1.
  const llm::GradientError e = llm::compare_gradients(a, b);
  REQUIRE(e.max_abs == 0.5);
  REQUIRE(e.max_rel == Approx(0.2));
  REQUIRE(e.worst == 1);
  const llm::Tensor c({1, 2}, {1.0, 2.0});
  REQUIRE_THROWS_AS(llm::compare_gradients(a, c), llm::ShapeError);
  REQUIRE_THROWS_WITH(llm::compare_gradients(a, c),
                      "compare_gradients: analytic has shape [2,1], "
                      "numeric has shape [1,2]");
}

TEST_CASE("compare_gradients rejects gradients of different sizes",
          "[gradient-checking]") {
  REQUIRE_THROWS_AS(llm::compare_gradients({1.0, 2.0}, {1.0, 2.0, 3.0}),
                    llm::ShapeError);
  REQUIRE_THROWS_WITH(llm::compare_gradients({1.0, 2.0}, {1.0, 2.0, 3.0}),
                      "compare_gradients: analytic has 2 values, numeric "
                      "has 3");
}

TEST_CASE("a step must be positive and finite",
          "[gradient-checking]") {
  REQUIRE_THROWS_AS(llm::central_difference(cube, 1.0, 0.0),
                    llm::ConfigError);
  REQUIRE_THROWS_WITH(llm::central_difference(cube, 1.0, 0.0),
                      "central_difference: step h must be positive and "
                      "finite, got 0");
  REQUIRE_THROWS_WITH(llm::forward_difference(cube, 1.0, -0.5),
                      "forward_difference: step h must be positive and "
                      "finite, got -0.5");
  REQUIRE_THROWS_WITH(
      llm::central_difference(cube, 1.0,
                              std::numeric_limits<double>::infinity()),
      "central_difference: step h must be positive and finite, got inf");
  REQUIRE_THROWS_WITH(
      llm::numeric_gradient(f2, {1.0, 2.0},
                            std::numeric_limits<double>::quiet_NaN()),
      "numeric_gradient: step h must be positive and finite, got nan");
}

TEST_CASE("a step lost in rounding is rejected",
          "[gradient-checking]") {
  // Doubles next to 1 are 2^-52 ~ 2.2e-16 apart: 1 + 1e-17 == 1.
  REQUIRE_THROWS_AS(llm::central_difference(cube, 1.0, 1e-17),
                    llm::ConfigError);
  REQUIRE_THROWS_WITH(llm::central_difference(cube, 1.0, 1e-17),
                      "central_difference: step h = 1e-17 is lost in "
                      "rounding next to x = 1");
  // Next to 1e12 the gap is about 1.2e-4, so a step of 1e-6 vanishes.
  REQUIRE_THROWS_WITH(llm::numeric_gradient(f2, {1.0, 1e12}, 1e-6),
                      "numeric_gradient: step h = 1e-06 is lost in "
                      "rounding next to x = 1e+12");
}
