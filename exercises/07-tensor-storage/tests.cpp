// The exercise tests of the tensor-storage chapter. They call
// exercise::buffer_position (starter.cpp, once fixed) on small shapes
// whose positions are counted by hand in the comments. Each test names
// what it checks, and a failure prints the shape, offset and index.
#include <catch2/catch.hpp>

#include <cstddef>

#include "exercise.hpp"

namespace {

using llm::Index;
using llm::Shape;

// Requires the position of `index` in `shape` from `offset` to be `want`.
void require_position(const Shape& shape, std::size_t offset,
                      const Index& index, std::size_t want) {
  INFO("shape " << llm::to_string(shape) << ", offset " << offset
                << ", index " << llm::to_string(index));
  CHECK(exercise::buffer_position({shape, offset}, index) == want);
}

}  // namespace

TEST_CASE("one step along each axis of a [2, 3, 4] tensor") {
  // Row-major strides are (3 * 4, 4, 1) = (12, 4, 1): one step along
  // the last axis moves to the next number, one along axis 1 skips a row
  // of 4, one along axis 0 skips a block of 3 rows.
  const Shape shape{2, 3, 4};
  require_position(shape, 0, {0, 0, 1}, 1);
  require_position(shape, 0, {0, 1, 0}, 4);
  require_position(shape, 0, {1, 0, 0}, 12);
  require_position(shape, 0, {1, 2, 3}, 12 + 8 + 3);
}

TEST_CASE("row-major order visits the positions 0, 1, 2, ... in turn") {
  // Counting through the indices of [2, 3, 4] with the last coordinate
  // fastest must meet every position once, in order: 0 up to 23.
  const Shape shape{2, 3, 4};
  Index index(3, 0);
  std::size_t expected = 0;
  do {
    INFO("index " << llm::to_string(index) << " is element number "
                  << expected << " in row-major order");
    REQUIRE(exercise::buffer_position({shape, 0}, index) == expected);
    ++expected;
  } while (llm::next_index(index, shape));
  CHECK(expected == 24);
}

TEST_CASE("the offset is where element [0, 0] sits") {
  // A [2, 3] tensor whose numbers start at position 5 of the buffer:
  // [0, 0] is at 5, [1, 2] at 5 + 1 * 3 + 2 = 10.
  require_position({2, 3}, 5, {0, 0}, 5);
  require_position({2, 3}, 5, {1, 2}, 10);
}

TEST_CASE("a coordinate equal to its extent is outside the tensor") {
  // Axis 1 of [2, 3] has coordinates 0, 1, 2: 3 is one past the end,
  // and [1, 3] would silently read [2, 0], an element of no row.
  CHECK(exercise::buffer_position({{2, 3}, 0}, {1, 2}) == 5);
  CHECK_THROWS_AS(exercise::buffer_position({{2, 3}, 0}, {1, 3}),
                  llm::IndexError);
  CHECK_THROWS_AS(exercise::buffer_position({{2, 3}, 0}, {2, 0}),
                  llm::IndexError);
}

TEST_CASE("an index of the wrong rank is rejected") {
  CHECK_THROWS_AS(exercise::buffer_position({{2, 3}, 0}, {1}),
                  llm::IndexError);
}
