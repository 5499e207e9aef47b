// Tests for chapter tensor-storage: shapes, row-major strides, offsets and
// the flat shared buffer. Uses only what that chapter defines.
#include <catch2/catch.hpp>

#include <cstddef>
#include <stdexcept>
#include <vector>

#include "llm/error.hpp"
#include "llm/tensor.hpp"

namespace {

// The chapter's fixture: element [i,j,k] of a [2,3,4] tensor is
// 100i + 10j + k, stored in row-major order.
std::vector<double> spelled_values() {
  std::vector<double> values;
  for (std::size_t i = 0; i < 2; ++i) {
    for (std::size_t j = 0; j < 3; ++j) {
      for (std::size_t k = 0; k < 4; ++k) {
        values.push_back(100.0 * i + 10.0 * j + k);
      }
    }
  }
  return values;
}

}  // namespace

TEST_CASE("numel multiplies the extents", "[tensor-storage]") {
  // 2 * 3 * 4 = 24.
  REQUIRE(llm::numel({2, 3, 4}) == 24);
  // The empty product is 1: a scalar has one element.
  REQUIRE(llm::numel({}) == 1);
  // Any extent of 0 empties the tensor.
  REQUIRE(llm::numel({2, 0, 3}) == 0);
}

TEST_CASE("row-major strides are products of the extents to the right",
          "[tensor-storage]") {
  // [2,3,4]: s2 = 1, s1 = 4, s0 = 3 * 4 = 12.
  REQUIRE(llm::row_major_strides({2, 3, 4}) == llm::Strides{12, 4, 1});
  // The outermost extent appears in no stride: [5,3,4] gives the same.
  REQUIRE(llm::row_major_strides({5, 3, 4}) == llm::Strides{12, 4, 1});
  // [2,3,4,5]: s3 = 1, s2 = 5, s1 = 4 * 5 = 20, s0 = 3 * 4 * 5 = 60.
  REQUIRE(llm::row_major_strides({2, 3, 4, 5}) ==
          llm::Strides{60, 20, 5, 1});
  // A vector's only stride is 1; a scalar has none.
  REQUIRE(llm::row_major_strides({7}) == llm::Strides{1});
  REQUIRE(llm::row_major_strides({}).empty());
}

TEST_CASE("exercise: strides by hand for [3,1,5]", "[tensor-storage]") {
  // s2 = 1, s1 = 5, s0 = 1 * 5 = 5: an extent of 1 changes no product.
  llm::Tensor t({3, 1, 5});
  REQUIRE(t.strides() == llm::Strides{5, 5, 1});
  // pos([2,0,4]) = 2*5 + 0*5 + 4*1 = 14.
  REQUIRE(t.offset_of({2, 0, 4}) == 14);
}

TEST_CASE("to_string formats shapes, strides and indices",
          "[tensor-storage]") {
  REQUIRE(llm::to_string({2, 3, 4}) == "[2,3,4]");
  REQUIRE(llm::to_string({12, 4, 1}) == "[12,4,1]");
  REQUIRE(llm::to_string({}) == "[]");
}

TEST_CASE("next_index counts like an odometer", "[tensor-storage]") {
  // Row-major order of [2,3]: the last coordinate turns fastest.
  const llm::Shape shape = {2, 3};
  const std::vector<llm::Index> expected = {
      {0, 0}, {0, 1}, {0, 2}, {1, 0}, {1, 1}, {1, 2}};
  std::vector<llm::Index> seen;
  llm::Index index = {0, 0};
  do {
    seen.push_back(index);
  } while (llm::next_index(index, shape));
  REQUIRE(seen == expected);
  // After the last element every coordinate has wrapped back to 0.
  REQUIRE(index == llm::Index{0, 0});
}

TEST_CASE("next_index on the empty shape stops at once",
          "[tensor-storage]") {
  // A scalar has exactly one index, [], so there is no next one.
  llm::Index index;
  REQUIRE_FALSE(llm::next_index(index, {}));
}

TEST_CASE("a new tensor is zero, row-major and at offset 0",
          "[tensor-storage]") {
  const llm::Tensor t({2, 3});
  REQUIRE(t.shape() == llm::Shape{2, 3});
  REQUIRE(t.rank() == 2);
  REQUIRE(t.numel() == 6);
  // [2,3]: s1 = 1, s0 = 3.
  REQUIRE(t.strides() == llm::Strides{3, 1});
  REQUIRE(t.offset() == 0);
  REQUIRE(t.buffer() == std::vector<double>(6, 0.0));
  REQUIRE(t.to_vector() == std::vector<double>(6, 0.0));
}

TEST_CASE("offsets follow pos = sum of index times stride",
          "[tensor-storage]") {
  const llm::Tensor t({2, 3, 4}, spelled_values());
  // pos([1,2,0]) = 1*12 + 2*4 + 0*1 = 20, and the element spells 120.
  REQUIRE(t.offset_of({1, 2, 0}) == 20);
  REQUIRE(t.at({1, 2, 0}) == 120.0);
  // Position 9 = 0*12 + 2*4 + 1*1 holds the element [0,2,1] = 21.
  REQUIRE(t.buffer()[9] == 21.0);
  REQUIRE(t.at({0, 2, 1}) == 21.0);
  // The last element [1,2,3] is at 12 + 8 + 3 = 23, the buffer's end.
  REQUIRE(t.offset_of({1, 2, 3}) == 23);
}

TEST_CASE("every element of [2,3,4] is at 12i + 4j + k",
          "[tensor-storage]") {
  const llm::Tensor t({2, 3, 4}, spelled_values());
  for (std::size_t i = 0; i < 2; ++i) {
    for (std::size_t j = 0; j < 3; ++j) {
      for (std::size_t k = 0; k < 4; ++k) {
        REQUIRE(t.offset_of({i, j, k}) == 12 * i + 4 * j + k);
        REQUIRE(t.at({i, j, k}) == 100.0 * i + 10.0 * j + k);
      }
    }
  }
}

TEST_CASE("to_vector returns the elements in row-major order",
          "[tensor-storage]") {
  const llm::Tensor t({2, 3, 4}, spelled_values());
  // A freshly built tensor addresses its whole buffer in order.
  REQUIRE(t.to_vector() == spelled_values());
}

TEST_CASE("set writes the buffer at offset_of", "[tensor-storage]") {
  llm::Tensor t({2, 3});
  t.set({1, 2}, 7.5);
  // [1,2] of [2,3] is at 1*3 + 2*1 = 5.
  REQUIRE(t.buffer()[5] == 7.5);
  REQUIRE(t.at({1, 2}) == 7.5);
  REQUIRE(t.to_vector() == std::vector<double>{0, 0, 0, 0, 0, 7.5});
}

TEST_CASE("copying a Tensor shares its buffer", "[tensor-storage]") {
  llm::Tensor m({2, 3});
  llm::Tensor alias = m;
  alias.set({1, 2}, 7.5);
  REQUIRE(m.at({1, 2}) == 7.5);
  REQUIRE(&m.buffer() == &alias.buffer());
}

TEST_CASE("a tensor built from to_vector owns its numbers",
          "[tensor-storage]") {
  llm::Tensor m({2, 3});
  m.set({1, 2}, 7.5);
  llm::Tensor copy(m.shape(), m.to_vector());
  copy.set({1, 2}, 0.25);
  REQUIRE(m.at({1, 2}) == 7.5);
  REQUIRE(copy.at({1, 2}) == 0.25);
  REQUIRE(&m.buffer() != &copy.buffer());
}

TEST_CASE("a scalar has one element at position 0",
          "[tensor-storage]") {
  const llm::Tensor s({}, {3.5});
  REQUIRE(s.rank() == 0);
  REQUIRE(s.numel() == 1);
  REQUIRE(s.strides().empty());
  REQUIRE(s.offset_of({}) == 0);
  REQUIRE(s.at({}) == 3.5);
  REQUIRE(s.to_vector() == std::vector<double>{3.5});
}

TEST_CASE("exercise: growing axis 0 keeps every position",
          "[tensor-storage]") {
  // [2,3,4] and [5,3,4] share strides [12,4,1], so each index of the
  // smaller tensor has the same position in the larger one.
  const llm::Tensor small({2, 3, 4});
  const llm::Tensor large({5, 3, 4});
  for (std::size_t i = 0; i < 2; ++i) {
    for (std::size_t j = 0; j < 3; ++j) {
      for (std::size_t k = 0; k < 4; ++k) {
        REQUIRE(small.offset_of({i, j, k}) == large.offset_of({i, j, k}));
      }
    }
  }
}

TEST_CASE("a tensor with an extent of 0 holds nothing",
          "[tensor-storage]") {
  const llm::Tensor t({2, 0});
  REQUIRE(t.numel() == 0);
  REQUIRE(t.buffer().empty());
  REQUIRE(t.to_vector().empty());
  REQUIRE_THROWS_WITH(t.at({0, 0}),
                      "Tensor::at: index [0,0] is outside shape [2,0]");
}

TEST_CASE("too many or too few values are a ShapeError",
          "[tensor-storage]") {
  // [2,3] needs 2 * 3 = 6 values.
  REQUIRE_THROWS_AS(llm::Tensor({2, 3}, {1, 2, 3, 4, 5}), llm::ShapeError);
  REQUIRE_THROWS_WITH(llm::Tensor({2, 3}, {1, 2, 3, 4, 5}),
                      "Tensor: shape [2,3] needs 6 values, got 5");
  REQUIRE_THROWS_WITH(llm::Tensor({}, {1, 2}),
                      "Tensor: shape [] needs 1 values, got 2");
}

TEST_CASE("an index outside the shape is an IndexError",
          "[tensor-storage]") {
  llm::Tensor t({2, 3});
  // Axis 0 has extent 2, so its coordinates are 0 and 1.
  REQUIRE_THROWS_AS(t.at({2, 0}), llm::IndexError);
  REQUIRE_THROWS_WITH(t.at({2, 0}),
                      "Tensor::at: index [2,0] is outside shape [2,3]");
  // Axis 1 has extent 3, so 3 is one past its end.
  REQUIRE_THROWS_WITH(t.set({0, 3}, 1.0),
                      "Tensor::set: index [0,3] is outside shape [2,3]");
  REQUIRE_THROWS_WITH(t.offset_of({1, 9}),
                      "Tensor::offset_of: index [1,9] is outside shape [2,3]");
}

TEST_CASE("an index of the wrong rank is an IndexError",
          "[tensor-storage]") {
  llm::Tensor t({2, 3});
  REQUIRE_THROWS_AS(t.at({1}), llm::IndexError);
  REQUIRE_THROWS_WITH(t.at({1}),
                      "Tensor::at: index [1] has rank 1, shape [2,3] has "
                      "rank 2");
  REQUIRE_THROWS_WITH(t.offset_of({0, 0, 0}),
                      "Tensor::offset_of: index [0,0,0] has rank 3, shape "
                      "[2,3] has rank 2");
}

TEST_CASE("a rejected write leaves the buffer unchanged",
          "[tensor-storage]") {
  llm::Tensor t({2, 3});
  REQUIRE_THROWS(t.set({2, 0}, 1.0));
  REQUIRE(t.to_vector() == std::vector<double>(6, 0.0));
}

TEST_CASE("library errors share one base class", "[tensor-storage]") {
  // Callers may catch llm::Error, or std::runtime_error, for all of them.
  REQUIRE_THROWS_AS(throw llm::ShapeError("s"), llm::Error);
  REQUIRE_THROWS_AS(throw llm::ConfigError("c"), llm::Error);
  REQUIRE_THROWS_AS(throw llm::IndexError("i"), llm::Error);
  REQUIRE_THROWS_AS(throw llm::IndexError("i"), std::runtime_error);
  REQUIRE_THROWS_WITH(throw llm::ConfigError("width must be positive"),
                      "width must be positive");
}
