// Tests for chapter tensor-views: transpose, slice and reshape as views
// over a shared buffer, contiguity, and explicit copies.
#include <catch2/catch.hpp>

#include <cstddef>
#include <vector>

#include "llm/error.hpp"
#include "llm/tensor.hpp"
#include "fixtures.hpp"

namespace {

// The chapter's fixture: x is [2,3] with element [i,j] = 10i + j, so its
// buffer is 0 1 2 10 11 12 and its strides are [3,1].
llm::Tensor make_x() { return llm::Tensor({2, 3}, {0, 1, 2, 10, 11, 12}); }

// A [2,3,4] tensor whose element [i,j,k] is 100i + 10j + k.
llm::Tensor make_spelled() {
  std::vector<double> values;
  for (std::size_t i = 0; i < 2; ++i) {
    for (std::size_t j = 0; j < 3; ++j) {
      for (std::size_t k = 0; k < 4; ++k) {
        values.push_back(100.0 * i + 10.0 * j + k);
      }
    }
  }
  return llm::Tensor({2, 3, 4}, values);
}

}  // namespace

TEST_CASE("transpose exchanges extents and strides", "[tensor-views]") {
  const llm::Tensor x = make_x();
  const llm::Tensor t = x.transpose(0, 1);
  // [2,3] with strides [3,1] becomes [3,2] with strides [1,3].
  REQUIRE(t.shape() == llm::Shape{3, 2});
  REQUIRE(t.strides() == llm::Strides{1, 3});
  REQUIRE(t.offset() == 0);
  REQUIRE(t.shares_buffer_with(x));
  REQUIRE_FALSE(t.is_contiguous());
  // t[j,i] is x[i,j]: t[2,1] is at 2*1 + 1*3 = 5, where x keeps [1,2].
  REQUIRE(t.offset_of({2, 1}) == 5);
  REQUIRE(t.at({2, 1}) == x.at({1, 2}));
  // Row-major order of t visits x column by column.
  REQUIRE(positions(t) == std::vector<std::size_t>{0, 3, 1, 4, 2, 5});
  REQUIRE(t.to_vector() == std::vector<double>{0, 10, 1, 11, 2, 12});
  // The original is untouched.
  REQUIRE(x.shape() == llm::Shape{2, 3});
  REQUIRE(x.to_vector() == std::vector<double>{0, 1, 2, 10, 11, 12});
}

TEST_CASE("transposing an axis with itself changes nothing",
          "[tensor-views]") {
  const llm::Tensor x = make_x();
  const llm::Tensor same = x.transpose(1, 1);
  REQUIRE(same.shape() == x.shape());
  REQUIRE(same.strides() == x.strides());
  REQUIRE(same.is_contiguous());
}

TEST_CASE("exercise: a rank-3 transpose", "[tensor-views]") {
  const llm::Tensor a = make_spelled();
  const llm::Tensor v = a.transpose(0, 2);
  // Extents [2,3,4] -> [4,3,2]; strides [12,4,1] -> [1,4,12].
  REQUIRE(v.shape() == llm::Shape{4, 3, 2});
  REQUIRE(v.strides() == llm::Strides{1, 4, 12});
  REQUIRE(v.offset() == 0);
  // v[3,1,0] is at 3*1 + 1*4 + 0*12 = 7, where a keeps [0,1,3] = 13.
  REQUIRE(v.offset_of({3, 1, 0}) == 7);
  REQUIRE(a.offset_of({0, 1, 3}) == 7);
  REQUIRE(v.at({3, 1, 0}) == 13.0);
}

TEST_CASE("exercise: transpose twice restores the strides",
          "[tensor-views]") {
  const llm::Tensor x = make_x();
  const llm::Tensor back = x.transpose(0, 1).transpose(0, 1);
  REQUIRE(back.strides() == llm::Strides{3, 1});
  REQUIRE(back.is_contiguous());
  REQUIRE(back.shares_buffer_with(x));
  // Contiguous again, so reshape accepts it without a copy.
  const llm::Tensor flat = back.reshape({6});
  REQUIRE(flat.shares_buffer_with(x));
  REQUIRE(flat.to_vector() == std::vector<double>{0, 1, 2, 10, 11, 12});
}

TEST_CASE("a column slice keeps the strides and moves the offset",
          "[tensor-views]") {
  const llm::Tensor x = make_x();
  const llm::Tensor s = x.slice(1, 1, 3);
  // Columns 1 and 2: extent 3 - 1 = 2, offset 0 + 1 * 1 = 1.
  REQUIRE(s.shape() == llm::Shape{2, 2});
  REQUIRE(s.strides() == llm::Strides{3, 1});
  REQUIRE(s.offset() == 1);
  REQUIRE(s.shares_buffer_with(x));
  // Positions 1 2 (row 0) and 4 5 (row 1): a gap, so not contiguous.
  REQUIRE(positions(s) == std::vector<std::size_t>{1, 2, 4, 5});
  REQUIRE_FALSE(s.is_contiguous());
  REQUIRE(s.to_vector() == std::vector<double>{1, 2, 11, 12});
}

TEST_CASE("a row slice is contiguous at a non-zero offset",
          "[tensor-views]") {
  const llm::Tensor x = make_x();
  const llm::Tensor row = x.slice(0, 1, 2);
  // Row 1: extent 1, offset 1 * 3 = 3, positions 3 4 5.
  REQUIRE(row.shape() == llm::Shape{1, 3});
  REQUIRE(row.offset() == 3);
  REQUIRE(row.is_contiguous());
  REQUIRE(positions(row) == std::vector<std::size_t>{3, 4, 5});
  REQUIRE(row.to_vector() == std::vector<double>{10, 11, 12});
  // Its reshape keeps the offset and still reads 3 4 5.
  const llm::Tensor v = row.reshape({3});
  REQUIRE(v.offset() == 3);
  REQUIRE(v.strides() == llm::Strides{1});
  REQUIRE(v.to_vector() == std::vector<double>{10, 11, 12});
}

TEST_CASE("slices of slices add their offsets", "[tensor-views]") {
  const llm::Tensor a = make_spelled();
  // Block 1 of axis 0 starts at 1 * 12 = 12; row 2 of that at 12 + 2*4.
  const llm::Tensor v = a.slice(0, 1, 2).slice(1, 2, 3);
  REQUIRE(v.shape() == llm::Shape{1, 1, 4});
  REQUIRE(v.offset() == 20);
  REQUIRE(v.to_vector() == std::vector<double>{120, 121, 122, 123});
}

TEST_CASE("an empty slice holds no elements", "[tensor-views]") {
  const llm::Tensor x = make_x();
  const llm::Tensor e = x.slice(1, 2, 2);
  REQUIRE(e.shape() == llm::Shape{2, 0});
  REQUIRE(e.numel() == 0);
  REQUIRE(e.to_vector().empty());
  REQUIRE(e.is_contiguous());
}

TEST_CASE("exercise: contiguous or not", "[tensor-views]") {
  const llm::Tensor x = make_x();
  const llm::Tensor t = x.transpose(0, 1);
  // Column 0 of x: [2,1], strides [3,1]; fresh strides are [1,1] and
  // axis 0 has extent 2, so stride 3 breaks the rule. Reads 0 and 3.
  const llm::Tensor column = x.slice(1, 0, 1);
  REQUIRE(column.strides() == llm::Strides{3, 1});
  REQUIRE_FALSE(column.is_contiguous());
  REQUIRE(positions(column) == std::vector<std::size_t>{0, 3});
  // Column 0 of t: [3,1], strides [1,3]; axis 1 has extent 1, so only
  // axis 0 counts, and its stride is the fresh 1. Reads 0 1 2.
  const llm::Tensor t_column = t.slice(1, 0, 1);
  REQUIRE(t_column.strides() == llm::Strides{1, 3});
  REQUIRE(t_column.is_contiguous());
  REQUIRE(positions(t_column) == std::vector<std::size_t>{0, 1, 2});
  // Row 1 of x: contiguous at offset 3.
  REQUIRE(x.slice(0, 1, 2).is_contiguous());
}

TEST_CASE("reshape of a contiguous tensor is a row-major view",
          "[tensor-views]") {
  const llm::Tensor x = make_x();
  const llm::Tensor r = x.reshape({3, 2});
  // Fresh strides of [3,2] are [2,1]; the elements keep their order.
  REQUIRE(r.shape() == llm::Shape{3, 2});
  REQUIRE(r.strides() == llm::Strides{2, 1});
  REQUIRE(r.offset() == 0);
  REQUIRE(r.shares_buffer_with(x));
  REQUIRE(r.to_vector() == x.to_vector());
  // Row 1 of the reshape is 2 10; row 1 of the transpose is 1 11.
  REQUIRE(r.at({1, 0}) == 2.0);
  REQUIRE(r.at({1, 1}) == 10.0);
  const llm::Tensor t = x.transpose(0, 1);
  REQUIRE(t.at({1, 0}) == 1.0);
  REQUIRE(t.at({1, 1}) == 11.0);
}

TEST_CASE("reshape can add and remove axes of extent 1",
          "[tensor-views]") {
  const llm::Tensor x = make_x();
  const llm::Tensor v = x.reshape({1, 2, 1, 3});
  // Fresh strides of [1,2,1,3]: [6,3,3,1].
  REQUIRE(v.strides() == llm::Strides{6, 3, 3, 1});
  REQUIRE(v.is_contiguous());
  REQUIRE(v.reshape({6}).to_vector() == x.to_vector());
}

TEST_CASE("contiguous copies into a fresh row-major buffer",
          "[tensor-views]") {
  llm::Tensor x = make_x();
  const llm::Tensor t = x.transpose(0, 1);
  const llm::Tensor c = t.contiguous();
  REQUIRE(c.shape() == llm::Shape{3, 2});
  REQUIRE(c.strides() == llm::Strides{2, 1});
  REQUIRE(c.offset() == 0);
  REQUIRE(c.is_contiguous());
  REQUIRE_FALSE(c.shares_buffer_with(x));
  REQUIRE(c.buffer() == std::vector<double>{0, 10, 1, 11, 2, 12});
  // A contiguous tensor is copied too: the result never aliases.
  const llm::Tensor x_copy = x.contiguous();
  REQUIRE_FALSE(x_copy.shares_buffer_with(x));
  // A copy of a slice holds only the sliced elements.
  const llm::Tensor s_copy = x.slice(1, 1, 3).contiguous();
  REQUIRE(s_copy.buffer() == std::vector<double>{1, 2, 11, 12});
  REQUIRE(s_copy.offset() == 0);
}

TEST_CASE("writing through a view changes the original, not a copy",
          "[tensor-views]") {
  llm::Tensor x = make_x();
  llm::Tensor t = x.transpose(0, 1);
  const llm::Tensor c = t.contiguous();
  // t[2,1] and x[1,2] are both position 5.
  t.set({2, 1}, -1.0);
  REQUIRE(x.at({1, 2}) == -1.0);
  REQUIRE(x.to_vector() == std::vector<double>{0, 1, 2, 10, 11, -1});
  REQUIRE(c.to_vector() == std::vector<double>{0, 10, 1, 11, 2, 12});
  // A write through a slice lands in x as well: s[1,0] is x[1,1].
  llm::Tensor s = x.slice(1, 1, 3);
  s.set({1, 0}, 7.0);
  REQUIRE(x.at({1, 1}) == 7.0);
}

TEST_CASE("a view keeps the buffer alive", "[tensor-views]") {
  llm::Tensor view = make_x().transpose(0, 1);
  // The tensor that made the buffer is gone; the shared_ptr is not.
  REQUIRE(view.to_vector() == std::vector<double>{0, 10, 1, 11, 2, 12});
}

TEST_CASE("exercise: flatten anything", "[tensor-views]") {
  // The exercise's answer, written inline.
  auto flatten = [](const llm::Tensor& t) {
    if (t.is_contiguous()) return t.reshape({t.numel()});
    return t.contiguous().reshape({t.numel()});
  };
  const llm::Tensor x = make_x();
  const llm::Tensor fx = flatten(x);
  REQUIRE(fx.shape() == llm::Shape{6});
  REQUIRE(fx.shares_buffer_with(x));
  const llm::Tensor ft = flatten(x.transpose(0, 1));
  REQUIRE_FALSE(ft.shares_buffer_with(x));
  REQUIRE(ft.to_vector() == std::vector<double>{0, 10, 1, 11, 2, 12});
}

TEST_CASE("reshape of a non-contiguous view is a ShapeError",
          "[tensor-views]") {
  const llm::Tensor t = make_x().transpose(0, 1);
  REQUIRE_THROWS_AS(t.reshape({6}), llm::ShapeError);
  REQUIRE_THROWS_WITH(t.reshape({6}),
                      "Tensor::reshape: shape [3,2] with strides [1,3] is "
                      "not contiguous; call contiguous() before reshaping "
                      "to [6]");
  const llm::Tensor s = make_x().slice(1, 1, 3);
  REQUIRE_THROWS_WITH(s.reshape({4}),
                      "Tensor::reshape: shape [2,2] with strides [3,1] is "
                      "not contiguous; call contiguous() before reshaping "
                      "to [4]");
}

TEST_CASE("reshape to a different element count is a ShapeError",
          "[tensor-views]") {
  const llm::Tensor x = make_x();
  REQUIRE_THROWS_AS(x.reshape({4, 2}), llm::ShapeError);
  // The count is checked first, even for a non-contiguous view.
  REQUIRE_THROWS_WITH(x.reshape({4, 2}),
                      "Tensor::reshape: shape [2,3] has 6 elements, [4,2] "
                      "has 8");
  REQUIRE_THROWS_WITH(x.transpose(0, 1).reshape({5}),
                      "Tensor::reshape: shape [3,2] has 6 elements, [5] "
                      "has 5");
}

TEST_CASE("an axis outside the shape is an IndexError",
          "[tensor-views]") {
  const llm::Tensor x = make_x();
  REQUIRE_THROWS_AS(x.transpose(0, 2), llm::IndexError);
  REQUIRE_THROWS_WITH(x.transpose(0, 2),
                      "Tensor::transpose: axis 2 is outside shape [2,3]");
  REQUIRE_THROWS_WITH(x.slice(2, 0, 1),
                      "Tensor::slice: axis 2 is outside shape [2,3]");
}

TEST_CASE("a slice range outside its axis is an IndexError",
          "[tensor-views]") {
  const llm::Tensor x = make_x();
  // Axis 1 has extent 3, so end 4 runs past it.
  REQUIRE_THROWS_AS(x.slice(1, 1, 4), llm::IndexError);
  REQUIRE_THROWS_WITH(x.slice(1, 1, 4),
                      "Tensor::slice: range [1,4) does not fit axis 1 of "
                      "shape [2,3]");
  // A backwards range is rejected the same way.
  REQUIRE_THROWS_WITH(x.slice(0, 2, 1),
                      "Tensor::slice: range [2,1) does not fit axis 0 of "
                      "shape [2,3]");
}

TEST_CASE("an index is checked against the view's own shape",
          "[tensor-views]") {
  const llm::Tensor s = make_x().slice(1, 1, 3);
  // s is [2,2] although its buffer has 6 elements.
  REQUIRE_THROWS_WITH(s.at({0, 2}),
                      "Tensor::at: index [0,2] is outside shape [2,2]");
}
