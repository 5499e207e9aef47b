// The exercise tests of the rope chapter. They call exercise::rope
// (starter.cpp, once fixed) with d = 4 and base 100, so that the two
// pairs turn by theta_0 = 1 and theta_1 = 100^(-1/2) = 0.1 radians per
// position, and check rotations worked out in the comments. Each test
// names what it checks, and a failure prints which feature is wrong.
#include <catch2/catch.hpp>

#include <cmath>
#include <cstddef>
#include <vector>

#include "exercise.hpp"

namespace {

using llm::Tensor;

// Requires rope(x, offset, 100) to be `want` (row-major) to 1e-12.
void require_rotated(const Tensor& x, std::size_t offset,
                     const std::vector<double>& want) {
  const Tensor y = exercise::rope(x, offset, 100.0);
  REQUIRE(y.shape() == x.shape());
  const std::vector<double> got = y.to_vector();
  const std::size_t d = x.shape()[1];
  for (std::size_t i = 0; i < want.size(); ++i) {
    INFO("token " << i / d << " (position " << offset + i / d
                  << "), feature " << i % d << " (pair " << i % d / 2
                  << ")");
    CHECK(got[i] == Approx(want[i]).margin(1e-12));
  }
}

}  // namespace

TEST_CASE("pair 0 at position 1 turns (1, 0) by +1 radian") {
  // Token 1 holds (1, 0, 0, 0): features 0 and 1 are pair 0, which
  // turns by 1 * theta_0 = 1 radian counterclockwise, to (cos 1, sin 1).
  // Pair 1, features 2 and 3, holds (0, 0) and stays there.
  require_rotated(Tensor({2, 4}, {0, 0, 0, 0, 1, 0, 0, 0}), 0,
                  {0, 0, 0, 0, std::cos(1.0), std::sin(1.0), 0, 0});
}

TEST_CASE("pair 1 turns ten times slower than pair 0") {
  // Token 1 holds (0, 0, 0, 1): pair 1 is (0, 1), turned by 0.1 radian
  // counterclockwise to (-sin 0.1, cos 0.1).
  require_rotated(Tensor({2, 4}, {0, 0, 0, 0, 0, 0, 0, 1}), 0,
                  {0, 0, 0, 0, 0, 0, -std::sin(0.1), std::cos(0.1)});
}

TEST_CASE("the offset is the position of the first token") {
  // One token (1, 0, 1, 0) at offset 2, as when a cache already holds
  // positions 0 and 1: pair 0 turns by 2 radians, pair 1 by 0.2.
  require_rotated(Tensor({1, 4}, {1, 0, 1, 0}), 2,
                  {std::cos(2.0), std::sin(2.0), std::cos(0.2),
                   std::sin(0.2)});
}

TEST_CASE("an odd number of features is rejected") {
  CHECK_THROWS_AS(exercise::rope(Tensor({2, 3}), 0, 100.0),
                  llm::ConfigError);
}
