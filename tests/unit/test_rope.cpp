// Tests for chapter rope: the rotation against hand derivations and an
// independent plain-loop rotation, the relative-position property of dot
// products, lengths, position offsets, the backward pass (the inverse
// rotation, and central differences), and every rejected input. Uses
// only what chapters up to it define.
#include <catch2/catch.hpp>

#include <cmath>
#include <cstddef>
#include <limits>
#include <string>
#include <utility>
#include <vector>

#include "llm/autograd.hpp"
#include "llm/error.hpp"
#include "llm/rope.hpp"
#include "llm/tensor.hpp"
#include "fixtures.hpp"
#include "message_of.hpp"
#include "tape_check.hpp"

namespace {

using llm::Rope;
using llm::Shape;
using llm::Tape;
using llm::Tensor;
using llm::Var;

// The rotation written independently of the library: x is [rows, d]
// flattened, row r is token r % T at position offset + r % T, and pair k
// turns by sign * position * base^(-2k/d), with cos and sin computed here.
std::vector<double> plain_rope(const std::vector<double>& x, std::size_t d,
                               std::size_t t_len, std::size_t offset,
                               double base, double sign) {
  std::vector<double> y(x.size());
  for (std::size_t r = 0; r < x.size() / d; ++r) {
    const double pos = static_cast<double>(offset + r % t_len);
    for (std::size_t k = 0; k < d / 2; ++k) {
      const double theta = std::pow(base, -2.0 * double(k) / double(d));
      const double c = std::cos(pos * theta);
      const double s = sign * std::sin(pos * theta);
      const double a = x[r * d + 2 * k], b = x[r * d + 2 * k + 1];
      y[r * d + 2 * k] = a * c - b * s;
      y[r * d + 2 * k + 1] = a * s + b * c;
    }
  }
  return y;
}

double dot(const std::vector<double>& a, const std::vector<double>& b) {
  double s = 0.0;
  for (std::size_t i = 0; i < a.size(); ++i) s += a[i] * b[i];
  return s;
}

// Rotates one vector of rope.head_dim() features for `position`.
std::vector<double> rotated(const Rope& rope, std::vector<double> v,
                            std::size_t position) {
  Tape tape;
  const std::size_t d = v.size();  // read before v is moved from
  const Var x = tape.leaf(Tensor({1, d}, std::move(v)));
  return rope.apply(x, position).value().to_vector();
}

}  // namespace

TEST_CASE("d = 2, base 100: position 1 turns the pair by 1 radian",
          "[rope]") {
  const Rope rope(2, 4, 100.0);
  // theta_0 = 100^0 = 1, so the angle at position 1 is 1 * 1 = 1.
  REQUIRE(rope.angle(1, 0) == 1.0);
  // (cos 1, -sin 1) is the unit vector at angle -1; adding 1 radian
  // brings it to angle 0: (cos^2 + sin^2, cos sin - sin cos) = (1, 0).
  const std::vector<double> y =
      rotated(rope, {std::cos(1.0), -std::sin(1.0)}, 1);
  REQUIRE(y[0] == Approx(1.0).margin(1e-15));
  REQUIRE(y[1] == 0.0);  // the same two products cancel exactly
  // (1, 0) at position 2 lands at angle 2: (cos 2, sin 2).
  const std::vector<double> z = rotated(rope, {1.0, 0.0}, 2);
  REQUIRE(z[0] == std::cos(2.0));
  REQUIRE(z[1] == std::sin(2.0));
}

TEST_CASE("the frequencies are base^(-2k/d)", "[rope]") {
  const Rope rope(8, 3, 10000.0);
  REQUIRE(rope.head_dim() == 8);
  REQUIRE(rope.capacity() == 3);
  REQUIRE(rope.base() == 10000.0);
  // 10000^(-2k/8) = 10^(-k): 1, 0.1, 0.01, 0.001 per position.
  REQUIRE(rope.angle(1, 0) == 1.0);
  REQUIRE(rope.angle(1, 1) == Approx(0.1).epsilon(1e-15));
  REQUIRE(rope.angle(1, 2) == Approx(0.01).epsilon(1e-15));
  REQUIRE(rope.angle(1, 3) == Approx(0.001).epsilon(1e-15));
  // The angle grows linearly with the position, beyond the capacity too.
  REQUIRE(rope.angle(5, 1) == 5.0 * rope.angle(1, 1));
  REQUIRE(rope.angle(0, 3) == 0.0);
  REQUIRE(rope.angle(1000, 0) == 1000.0);
}

TEST_CASE("position 0 leaves a vector unchanged", "[rope]") {
  const Rope rope(6, 2);
  const std::vector<double> x = {0.3, -1.2, 2.5, 0.7, -0.4, 1.1};
  // cos 0 = 1 and sin 0 = 0: a * 1 - b * 0 = a, bit for bit.
  REQUIRE(rotated(rope, x, 0) == x);
}

TEST_CASE("apply equals an independent plain-loop rotation",
          "[rope]") {
  // [B=2, T=3, d=4], offset 2, so positions 2, 3, 4 in both batches.
  const Rope rope(4, 8, 10.0);
  const Tensor x = ramp({2, 3, 4}, -1.1, 0.13);
  Tape tape;
  const Var y = rope.apply(tape.leaf(x), 2);
  REQUIRE(y.shape() == Shape{2, 3, 4});
  REQUIRE(max_diff(y.value().to_vector(),
                   plain_rope(x.to_vector(), 4, 3, 2, 10.0, 1.0)) < 1e-15);
  REQUIRE(tape.op(y.id()) == "rope");
}

TEST_CASE("a rotated dot product depends only on the distance m - n",
          "[rope]") {
  const Rope rope(8, 64, 10000.0);
  const std::vector<double> q = {0.5, -1.0, 0.25, 2.0, -0.75, 1.5, 1.0, -0.5};
  const std::vector<double> k = {1.0, 0.5, -1.5, 0.25, 2.0, -1.0, 0.5, 0.75};
  for (std::size_t distance : {0, 1, 5}) {
    const double first = dot(rotated(rope, q, distance), rotated(rope, k, 0));
    for (std::size_t n : {3, 17, 40}) {
      const double d = dot(rotated(rope, q, n + distance),
                           rotated(rope, k, n));
      REQUIRE(std::fabs(d - first) < 1e-13);
    }
  }
  // At distance 0 both vectors turn alike and q . k is unchanged.
  REQUIRE(dot(rotated(rope, q, 9), rotated(rope, k, 9)) ==
          Approx(dot(q, k)).margin(1e-13));
}

TEST_CASE("rotation preserves every vector's length", "[rope]") {
  const Rope rope(4, 16, 100.0);
  const std::vector<double> x = {3.0, -4.0, 1.0, 2.0};  // |x|^2 = 30
  for (std::size_t p = 0; p < 16; ++p) {
    const std::vector<double> y = rotated(rope, x, p);
    REQUIRE(dot(y, y) == Approx(30.0).epsilon(1e-15));
  }
}

TEST_CASE("rotation keeps a length to rounding at every position of a "
          "long table",
          "[rope]") {
  // The chapter's relative-position example: head_dim 8, base 10000,
  // 1024 positions. R_p is orthogonal, so |R_p q| = |q| exactly in real
  // arithmetic (by hand: each pair's cos^2 + sin^2 = 1); in doubles the
  // rounded cosines, sines, products and the square root leave a few
  // units in the last place of |q| (about 3.06, an ulp 4.4e-16).
  const Rope rope(8, 1024, 10000.0);
  const std::vector<double> q = {0.5, -1.0, 0.25, 2.0, -0.75, 1.5, 1.0, -0.5};
  const double length = std::sqrt(dot(q, q));
  REQUIRE(length == Approx(std::sqrt(9.375)).epsilon(1e-15));
  double worst = 0.0;
  for (std::size_t p = 0; p < rope.capacity(); ++p) {
    const std::vector<double> y = rotated(rope, q, p);
    worst = std::fmax(worst, std::fabs(std::sqrt(dot(y, y)) - length));
  }
  REQUIRE(worst < 4e-15);
}

TEST_CASE("an offset continues the positions of a longer sequence",
          "[rope]") {
  const Rope rope(4, 6, 10.0);
  const Tensor x = ramp({5, 4}, 0.2, 0.31);
  Tape tape;
  const Tensor whole = rope.apply(tape.leaf(x), 0).value();
  // Tokens 2..4 rotated alone with offset 2 read the same table rows.
  const Tensor tail = rope.apply(tape.leaf(x.slice(0, 2, 5)), 2).value();
  REQUIRE(tail.to_vector() == whole.slice(0, 2, 5).to_vector());
  // The last allowed interval ends exactly at the capacity.
  REQUIRE(rope.apply(tape.leaf(x.slice(0, 0, 1)), 5).shape() ==
          Shape{1, 4});
}

TEST_CASE("rope's backward is the rotation by the negative angle",
          "[rope]") {
  const Rope rope(4, 5, 10.0);
  Tape tape;
  const Var x = tape.leaf(ramp({3, 4}, 0.5, -0.2));
  const Tensor g = ramp({3, 4}, 1.0, 0.25);
  tape.backward(rope.apply(x, 1), g);
  // dx = R^T g, and R^T turns every pair by minus its angle.
  REQUIRE(max_diff(x.grad().to_vector(),
                   plain_rope(g.to_vector(), 4, 3, 1, 10.0, -1.0)) < 1e-15);
  // Rotating back undoes the forward rotation.
  Tape again;
  const Tensor y = rope.apply(again.leaf(g), 1).value();
  REQUIRE(max_diff(plain_rope(y.to_vector(), 4, 3, 1, 10.0, -1.0),
                   g.to_vector()) < 1e-15);
}

TEST_CASE("rope's gradient passes a central-difference check",
          "[rope]") {
  const Rope rope(6, 10, 50.0);
  const llm::TapeFunction f = [&rope](Tape&, const Vars& v) {
    return rope.apply(v[0], 3);
  };
  REQUIRE(worst_tape_error(f, {ramp({2, 4, 6}, -0.9, 0.07)}) < 1e-8);
  // A rotated input used twice: the gradient of a product of two
  // rotations sums both paths.
  const llm::TapeFunction g = [&rope](Tape&, const Vars& v) {
    return llm::mul(rope.apply(v[0], 0), rope.apply(v[0], 4));
  };
  REQUIRE(worst_tape_error(g, {ramp({3, 6}, 0.4, -0.05)}) < 1e-8);
}

TEST_CASE("Rope rejects a zero or odd head_dim", "[rope]") {
  REQUIRE_THROWS_AS(Rope(0, 4), llm::ConfigError);
  REQUIRE_THROWS_WITH(Rope(0, 4),
                      "Rope: head_dim is 0, expected an even number > 0");
  REQUIRE_THROWS_AS(Rope(5, 4), llm::ConfigError);
  REQUIRE_THROWS_WITH(Rope(5, 4),
                      "Rope: head_dim is 5, expected an even number > 0");
}

TEST_CASE("Rope rejects a zero capacity", "[rope]") {
  REQUIRE_THROWS_AS(Rope(4, 0), llm::ConfigError);
  REQUIRE_THROWS_WITH(Rope(4, 0),
                      "Rope: capacity is 0, expected at least 1 position");
}

TEST_CASE("Rope rejects a base that is not a finite number above 1",
          "[rope]") {
  REQUIRE_THROWS_AS(Rope(4, 2, 1.0), llm::ConfigError);
  REQUIRE_THROWS_WITH(Rope(4, 2, 1.0),
                      "Rope: base is 1, expected a finite number > 1");
  REQUIRE_THROWS_WITH(Rope(4, 2, 0.5),
                      "Rope: base is 0.5, expected a finite number > 1");
  const double inf = std::numeric_limits<double>::infinity();
  REQUIRE_THROWS_AS(Rope(4, 2, inf), llm::ConfigError);
  REQUIRE_THROWS_WITH(Rope(4, 2, inf),
                      "Rope: base is inf, expected a finite number > 1");
  const double nan = std::numeric_limits<double>::quiet_NaN();
  REQUIRE_THROWS_AS(Rope(4, 2, nan), llm::ConfigError);
  REQUIRE_THROWS_WITH(Rope(4, 2, nan),
                      "Rope: base is nan, expected a finite number > 1");
}

TEST_CASE("rope rejects each bad shape of x, recording nothing",
          "[rope]") {
  struct Bad {
    Shape x;
    std::string message;
  };
  const std::vector<Bad> cases = {
      {{4}, "rope: x is [4], expected [..., T, 4]"},  // a rank below 2
      // A last axis other than head_dim.
      {{2, 3, 6}, "rope: x is [2,3,6], expected [..., T, 4]"},
      // An empty token axis.
      {{2, 0, 4}, "rope: x is [2,0,4], expected at least one token (T > 0)"},
  };
  const Rope rope(4, 4);
  for (const Bad& bad : cases) {
    Tape tape;
    const Var x = tape.leaf(Tensor(bad.x));
    CHECK(message_of<llm::ShapeError>([&] { rope.apply(x, 0); }) ==
          bad.message);
    CHECK(tape.size() == 1);  // nothing was recorded
  }
}

TEST_CASE("rope rejects a position interval that overflows",
          "[rope]") {
  const Rope rope(2, 4);
  Tape tape;
  const Var x = tape.leaf(Tensor({3, 2}));
  const std::size_t top = std::numeric_limits<std::size_t>::max();
  REQUIRE_THROWS_AS(rope.apply(x, top - 1), llm::IndexError);
  REQUIRE_THROWS_WITH(rope.apply(x, top - 1),
                      "rope: position interval overflow: offset " +
                          std::to_string(top - 1) +
                          " + T 3 does not fit in std::size_t");
  REQUIRE(tape.size() == 1);
}

TEST_CASE("rope rejects positions beyond the capacity", "[rope]") {
  const Rope rope(2, 6);
  Tape tape;
  const Var x = tape.leaf(Tensor({3, 2}));
  // Positions 4, 5, 6: the last one is past the table of 0 .. 5.
  REQUIRE_THROWS_AS(rope.apply(x, 4), llm::IndexError);
  REQUIRE_THROWS_WITH(rope.apply(x, 4),
                      "rope: positions offset 4 + T 3 = 7 exceed "
                      "capacity 6");
  REQUIRE(tape.size() == 1);
}

TEST_CASE("Rope::angle rejects a pair outside head_dim", "[rope]") {
  const Rope rope(4, 2);
  REQUIRE_THROWS_AS(rope.angle(0, 2), llm::IndexError);
  REQUIRE_THROWS_WITH(rope.angle(0, 2),
                      "Rope::angle: pair 2 is outside the 2 pairs of "
                      "head_dim 4");
}
