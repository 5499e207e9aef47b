// The exercise tests of the tensor-views chapter. They call the layout
// functions of starter.cpp (once fixed) on a [2, 3] tensor worked out by
// hand, then follow chains of views of a [2, 3, 4] tensor and compare
// every element's buffer position with the chapter's llm::Tensor views.
#include <catch2/catch.hpp>

#include <vector>

#include "exercise.hpp"

namespace {

exercise::Layout layout_of(const llm::Tensor& t) {
  return {t.shape(), t.strides(), t.offset()};
}

// Every index of `shape`, in row-major order.
std::vector<llm::Index> indices(const llm::Shape& shape) {
  std::vector<llm::Index> out = {llm::Index(shape.size(), 0)};
  for (std::size_t axis = shape.size(); axis-- > 0;) {
    std::vector<llm::Index> next;
    for (const auto& idx : out) {
      for (std::size_t k = 0; k < shape[axis]; ++k) {
        llm::Index i = idx;
        i[axis] = k;
        next.push_back(i);
      }
    }
    out = next;
  }
  return out;
}

// Requires `got` to address every element where the tensor `want` does.
void require_same(const exercise::Layout& got, const llm::Tensor& want) {
  REQUIRE(got.shape == want.shape());
  for (const llm::Index& i : indices(want.shape())) {
    INFO("element " << llm::to_string(i));
    CHECK(exercise::offset_of(got, i) == want.offset_of(i));
  }
}

}  // namespace

TEST_CASE("a [2, 3] tensor by hand") {
  // Row-major [2, 3]: strides [3, 1]; element [1, 2] is at 1*3 + 2*1 = 5.
  const exercise::Layout a{{2, 3}, {3, 1}, 0};
  CHECK(exercise::offset_of(a, {1, 2}) == 5);
  CHECK(exercise::offset_of(a, {1, 0}) == 3);
  // Its transpose: shape [3, 2], strides [1, 3]; element [2, 1] of the
  // transpose is element [1, 2] of a, still at 5.
  const exercise::Layout t = exercise::transpose(a, 0, 1);
  CHECK(t.shape == llm::Shape{3, 2});
  CHECK(t.strides == llm::Strides{1, 3});
  CHECK(exercise::offset_of(t, {2, 1}) == 5);
  // Columns 1 and 2 of a: shape [2, 2], offset 1; element [1, 1] is
  // element [1, 2] of a: 1 + 1*3 + 1*1 = 5.
  const exercise::Layout s = exercise::slice(a, 1, 1, 3);
  CHECK(s.shape == llm::Shape{2, 2});
  CHECK(s.offset == 1);
  CHECK(exercise::offset_of(s, {1, 1}) == 5);
}

TEST_CASE("transposes of a [2, 3, 4] tensor address what the book's do") {
  const llm::Tensor x({2, 3, 4});
  require_same(exercise::transpose(layout_of(x), 0, 2), x.transpose(0, 2));
  require_same(exercise::transpose(layout_of(x), 1, 2), x.transpose(1, 2));
}

TEST_CASE("slices, and slices of transposes, address what the book's do") {
  const llm::Tensor x({2, 3, 4});
  require_same(exercise::slice(layout_of(x), 2, 1, 3), x.slice(2, 1, 3));
  require_same(exercise::slice(layout_of(x), 0, 1, 2), x.slice(0, 1, 2));
  // A slice of a transpose moves the offset by the transposed stride.
  const llm::Tensor t = x.transpose(0, 2);  // [4, 3, 2]
  require_same(exercise::slice(exercise::transpose(layout_of(x), 0, 2), 0, 2, 4),
               t.slice(0, 2, 4));
  // Two slices in a row add their offsets.
  require_same(exercise::slice(exercise::slice(layout_of(x), 1, 1, 3), 2, 2, 4),
               x.slice(1, 1, 3).slice(2, 2, 4));
}
