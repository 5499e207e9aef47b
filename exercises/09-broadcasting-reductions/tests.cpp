// The exercise tests of the broadcasting-reductions chapter. They call
// exercise::broadcast_shape (starter.cpp, once fixed) on pairs of shapes
// whose result follows from the rule by hand: write the shapes one above
// the other, aligned on the right, and read each column. Each test names
// what it checks, and a failure prints both shapes.
#include <catch2/catch.hpp>

#include <optional>

#include "exercise.hpp"

namespace {

using llm::Shape;

// Requires broadcast_shape(a, b) to be `want` (std::nullopt: no shape).
void require_broadcast(const Shape& a, const Shape& b,
                       const std::optional<Shape>& want) {
  INFO("a = " << llm::to_string(a) << ", b = " << llm::to_string(b));
  const std::optional<Shape> got = exercise::broadcast_shape(a, b);
  if (!want) {
    INFO("expected no common shape, got "
         << (got ? llm::to_string(*got) : "none"));
    CHECK_FALSE(got.has_value());
    return;
  }
  REQUIRE(got.has_value());
  INFO("expected " << llm::to_string(*want) << ", got "
                   << llm::to_string(*got));
  CHECK(*got == *want);
}

}  // namespace

TEST_CASE("a vector lines up with the last axis") {
  // [2, 3] over [3]: the columns are (2, -) and (3, 3), so [2, 3]: the
  // vector is added to every row. In either order.
  require_broadcast({2, 3}, {3}, Shape{2, 3});
  require_broadcast({3}, {2, 3}, Shape{2, 3});
}

TEST_CASE("extents 1 stretch in both operands") {
  // [4, 1] over [1, 5]: columns (4, 1) and (1, 5), so [4, 5]. Aligned
  // on the right, [5, 1, 3] over [4, 1]: (5, -), (1, 4), (3, 1), so
  // [5, 4, 3].
  require_broadcast({4, 1}, {1, 5}, Shape{4, 5});
  require_broadcast({5, 1, 3}, {4, 1}, Shape{5, 4, 3});
}

TEST_CASE("extents that differ and are not 1 do not broadcast") {
  // [2, 3] over [2]: the last column is (3, 2). Lining the [2] up with
  // the first axis instead would wrongly accept it.
  require_broadcast({2, 3}, {2}, std::nullopt);
  require_broadcast({2, 3}, {4, 3}, std::nullopt);
}

TEST_CASE("an extent 1 stretches even to 0") {
  // [2, 1] over [0]: the last column is (1, 0), and 1 stretches to
  // whatever the other extent is, 0 included: [2, 0], a tensor with no
  // elements. The larger of the two extents would say 1.
  require_broadcast({2, 1}, {0}, Shape{2, 0});
}
