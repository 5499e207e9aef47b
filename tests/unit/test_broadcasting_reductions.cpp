// Tests for chapter broadcasting-reductions: the common shape of two
// operands, broadcasting as a stride-0 view, elementwise operations, and
// sum/mean/max along one axis with the axis kept.
#include <catch2/catch.hpp>

#include <cmath>
#include <cstddef>
#include <limits>
#include <optional>
#include <vector>

#include "llm/error.hpp"
#include "llm/ops.hpp"
#include "llm/tensor.hpp"
#include "fixtures.hpp"

namespace {

// The chapter's fixture: x = [[1,2,3],[4,5,6]].
llm::Tensor make_x() { return llm::Tensor({2, 3}, {1, 2, 3, 4, 5, 6}); }

}  // namespace

TEST_CASE("broadcast_shape aligns shapes from the right",
          "[broadcasting-reductions]") {
  using S = llm::Shape;
  // Equal extents stay; an extent of 1 or a missing axis stretches.
  REQUIRE(llm::broadcast_shape({2, 3}, {2, 3}) == S{2, 3});
  REQUIRE(llm::broadcast_shape({2, 3}, {3}) == S{2, 3});
  REQUIRE(llm::broadcast_shape({3}, {2, 3}) == S{2, 3});
  REQUIRE(llm::broadcast_shape({2, 1}, {3}) == S{2, 3});
  REQUIRE(llm::broadcast_shape({2, 3}, {}) == S{2, 3});
  REQUIRE(llm::broadcast_shape({}, {}) == S{});
  // [4,1,3] and [2,1] pad to [1,2,1]: 4|1 -> 4, 1|2 -> 2, 3|1 -> 3.
  REQUIRE(llm::broadcast_shape({4, 1, 3}, {2, 1}) == S{4, 2, 3});
  // An extent of 1 stretches to 0 as well; 0 against 3 does not.
  REQUIRE(llm::broadcast_shape({0, 3}, {1, 3}) == S{0, 3});
  REQUIRE(llm::broadcast_shape({1}, {0}) == S{0});
  REQUIRE_FALSE(llm::broadcast_shape({0}, {3}).has_value());
  // Two different extents, neither 1.
  REQUIRE_FALSE(llm::broadcast_shape({2, 3}, {2}).has_value());
  REQUIRE_FALSE(llm::broadcast_shape({2, 3}, {3, 2}).has_value());
}

TEST_CASE("broadcast_to is a view with stride 0 on stretched axes",
          "[broadcasting-reductions]") {
  const llm::Tensor r({3}, {10, 20, 30});
  const llm::Tensor wide_r = r.broadcast_to({2, 3});
  // A new leading axis gets stride 0; the old axis keeps stride 1.
  REQUIRE(wide_r.shape() == llm::Shape{2, 3});
  REQUIRE(wide_r.strides() == llm::Strides{0, 1});
  REQUIRE(wide_r.shares_buffer_with(r));
  REQUIRE_FALSE(wide_r.is_contiguous());
  REQUIRE(positions(wide_r) == std::vector<std::size_t>{0, 1, 2, 0, 1, 2});
  REQUIRE(wide_r.to_vector() ==
          std::vector<double>{10, 20, 30, 10, 20, 30});

  // A [2,1] column has strides [1,1]; its extent-1 axis gets stride 0.
  const llm::Tensor c({2, 1}, {100, 200});
  const llm::Tensor wide_c = c.broadcast_to({2, 3});
  REQUIRE(wide_c.strides() == llm::Strides{1, 0});
  REQUIRE(positions(wide_c) == std::vector<std::size_t>{0, 0, 0, 1, 1, 1});

  // A view of a view keeps its offset: row 1 of x, stretched to 2 rows.
  const llm::Tensor row = make_x().slice(0, 1, 2);  // [1,3], offset 3
  const llm::Tensor rows = row.broadcast_to({2, 3});
  REQUIRE(rows.offset() == 3);
  REQUIRE(rows.to_vector() == std::vector<double>{4, 5, 6, 4, 5, 6});
}

TEST_CASE("broadcast_to rejects shapes it cannot stretch to",
          "[broadcasting-reductions]") {
  const llm::Tensor x = make_x();
  REQUIRE_THROWS_AS(x.broadcast_to({4, 3}), llm::ShapeError);
  REQUIRE_THROWS_WITH(x.broadcast_to({4, 3}),
                      "Tensor::broadcast_to: cannot broadcast [2,3] to "
                      "[4,3]");
  // Broadcasting never removes axes.
  REQUIRE_THROWS_WITH(x.broadcast_to({3}),
                      "Tensor::broadcast_to: cannot broadcast [2,3] to [3]");
}

TEST_CASE("add, sub, mul and div broadcast their operands",
          "[broadcasting-reductions]") {
  const llm::Tensor x = make_x();
  const llm::Tensor r({3}, {10, 20, 30});
  const llm::Tensor c({2, 1}, {100, 200});
  // Row r is added to each row of x; column c to each column.
  REQUIRE(llm::add(x, r).to_vector() ==
          std::vector<double>{11, 22, 33, 14, 25, 36});
  REQUIRE(llm::add(x, c).to_vector() ==
          std::vector<double>{101, 102, 103, 204, 205, 206});
  // c + r: both stretch, to the outer sum c_i + r_j.
  const llm::Tensor outer = llm::add(c, r);
  REQUIRE(outer.shape() == llm::Shape{2, 3});
  REQUIRE(outer.to_vector() ==
          std::vector<double>{110, 120, 130, 210, 220, 230});
  // 10 - x_ij, x_ij * 2 and x_ij / 2 elementwise (all exact in binary).
  REQUIRE(llm::sub(llm::Tensor({}, {10}), x).to_vector() ==
          std::vector<double>{9, 8, 7, 6, 5, 4});
  REQUIRE(llm::mul(x, llm::Tensor({}, {2})).to_vector() ==
          std::vector<double>{2, 4, 6, 8, 10, 12});
  REQUIRE(llm::div(x, llm::Tensor({1}, {2})).to_vector() ==
          std::vector<double>{0.5, 1, 1.5, 2, 2.5, 3});
}

TEST_CASE("elementwise operations read views and leave inputs alone",
          "[broadcasting-reductions]") {
  const llm::Tensor x = make_x();
  const llm::Tensor t = x.transpose(0, 1);  // [3,2]: 1 4 / 2 5 / 3 6
  const llm::Tensor sum = llm::add(t, llm::Tensor({2}, {0, 100}));
  REQUIRE(sum.shape() == llm::Shape{3, 2});
  REQUIRE(sum.to_vector() ==
          std::vector<double>{1, 104, 2, 105, 3, 106});
  REQUIRE(sum.is_contiguous());
  REQUIRE_FALSE(sum.shares_buffer_with(x));
  REQUIRE(x.to_vector() == std::vector<double>{1, 2, 3, 4, 5, 6});
  // map applies a function to every element.
  const llm::Tensor sq = llm::map(t, [](double v) { return v * v; });
  REQUIRE(sq.shape() == llm::Shape{3, 2});
  REQUIRE(sq.to_vector() == std::vector<double>{1, 16, 4, 25, 9, 36});
}

TEST_CASE("elementwise operations on empty tensors",
          "[broadcasting-reductions]") {
  const llm::Tensor e = llm::add(llm::Tensor({0, 3}), llm::Tensor({3}));
  REQUIRE(e.shape() == llm::Shape{0, 3});
  REQUIRE(e.numel() == 0);
}

TEST_CASE("shapes that do not broadcast name both operands",
          "[broadcasting-reductions]") {
  const llm::Tensor x = make_x();
  REQUIRE_THROWS_AS(llm::add(x, llm::Tensor({2})), llm::ShapeError);
  REQUIRE_THROWS_WITH(llm::add(x, llm::Tensor({2})),
                      "add: shapes [2,3] and [2] do not broadcast");
  REQUIRE_THROWS_WITH(llm::sub(x, llm::Tensor({3, 2})),
                      "sub: shapes [2,3] and [3,2] do not broadcast");
  REQUIRE_THROWS_WITH(llm::mul(llm::Tensor({0}), llm::Tensor({3})),
                      "mul: shapes [0] and [3] do not broadcast");
  REQUIRE_THROWS_WITH(llm::div(x, x.transpose(0, 1)),
                      "div: shapes [2,3] and [3,2] do not broadcast");
}

TEST_CASE("sum, mean and max keep the reduced axis",
          "[broadcasting-reductions]") {
  const llm::Tensor x = make_x();
  // Axis 0 adds the two rows: 1+4, 2+5, 3+6.
  const llm::Tensor s0 = llm::sum(x, 0);
  REQUIRE(s0.shape() == llm::Shape{1, 3});
  REQUIRE(s0.to_vector() == std::vector<double>{5, 7, 9});
  // Axis 1 adds along each row: 1+2+3, 4+5+6.
  const llm::Tensor s1 = llm::sum(x, 1);
  REQUIRE(s1.shape() == llm::Shape{2, 1});
  REQUIRE(s1.to_vector() == std::vector<double>{6, 15});
  // Means: the sums over the extent, 5/2, 7/2, 9/2 and 6/3, 15/3.
  REQUIRE(llm::mean(x, 0).to_vector() == std::vector<double>{2.5, 3.5, 4.5});
  REQUIRE(llm::mean(x, 1).to_vector() == std::vector<double>{2, 5});
  REQUIRE(llm::max(x, 0).to_vector() == std::vector<double>{4, 5, 6});
  REQUIRE(llm::max(x, 1).shape() == llm::Shape{2, 1});
  REQUIRE(llm::max(x, 1).to_vector() == std::vector<double>{3, 6});
}

TEST_CASE("reductions of rank-3 tensors and views",
          "[broadcasting-reductions]") {
  // [2,2,2] holding 0..7: element [i,j,k] = 4i + 2j + k.
  const llm::Tensor t({2, 2, 2}, {0, 1, 2, 3, 4, 5, 6, 7});
  // Over axis 1: [i,0,k] + [i,1,k] = (4i + k) + (4i + 2 + k).
  const llm::Tensor s = llm::sum(t, 1);
  REQUIRE(s.shape() == llm::Shape{2, 1, 2});
  REQUIRE(s.to_vector() == std::vector<double>{2, 4, 10, 12});
  // A transposed view reduces by its own indices: max over rows of x^T
  // is the max over columns of x.
  const llm::Tensor xt = make_x().transpose(0, 1);  // [3,2]
  REQUIRE(llm::max(xt, 1).to_vector() == std::vector<double>{4, 5, 6});
  // Negative values: the maximum starts from -inf, not 0.
  const llm::Tensor neg({1, 3}, {-3, -1, -2});
  REQUIRE(llm::max(neg, 1).to_vector() == std::vector<double>{-1});
}

TEST_CASE("a kept axis broadcasts back against the input",
          "[broadcasting-reductions]") {
  // y = [[1,2,3],[4,5,6],[7,8,9]]; row means 2, 5, 8.
  const llm::Tensor y({3, 3}, {1, 2, 3, 4, 5, 6, 7, 8, 9});
  const llm::Tensor means = llm::mean(y, 1);
  REQUIRE(means.shape() == llm::Shape{3, 1});
  const llm::Tensor kept = llm::sub(y, means);
  REQUIRE(kept.to_vector() ==
          std::vector<double>{-1, 0, 1, -1, 0, 1, -1, 0, 1});
  // With the axis dropped, the means line up with the columns instead:
  // y_ij - mean_j.
  const llm::Tensor dropped = llm::sub(y, means.reshape({3}));
  REQUIRE(dropped.to_vector() ==
          std::vector<double>{-1, -3, -5, 2, 0, -2, 5, 3, 1});
}

TEST_CASE("max lets a NaN through", "[broadcasting-reductions]") {
  const double nan = std::numeric_limits<double>::quiet_NaN();
  const double inf = std::numeric_limits<double>::infinity();
  const llm::Tensor a({1, 3}, {1, nan, 3});
  REQUIRE(std::isnan(llm::max(a, 1).to_vector()[0]));
  const llm::Tensor b({1, 3}, {nan, 1, 3});
  REQUIRE(std::isnan(llm::max(b, 1).to_vector()[0]));
  const llm::Tensor c({1, 2}, {-inf, -inf});
  REQUIRE(llm::max(c, 1).to_vector()[0] == -inf);
}

TEST_CASE("reductions check their axis", "[broadcasting-reductions]") {
  const llm::Tensor x = make_x();
  REQUIRE_THROWS_AS(llm::sum(x, 2), llm::IndexError);
  REQUIRE_THROWS_WITH(llm::sum(x, 2), "sum: axis 2 is outside shape [2,3]");
  REQUIRE_THROWS_WITH(llm::mean(x, 5),
                      "mean: axis 5 is outside shape [2,3]");
  REQUIRE_THROWS_WITH(llm::max(llm::Tensor({}, {1}), 0),
                      "max: axis 0 is outside shape []");
  // An empty axis: the sum is 0, the mean and max have no value.
  const llm::Tensor e({2, 0});
  REQUIRE(llm::sum(e, 1).to_vector() == std::vector<double>{0, 0});
  REQUIRE_THROWS_AS(llm::mean(e, 1), llm::ShapeError);
  REQUIRE_THROWS_WITH(llm::mean(e, 1), "mean: axis 1 of shape [2,0] is empty");
  REQUIRE_THROWS_WITH(llm::max(e, 1), "max: axis 1 of shape [2,0] is empty");
  // Reducing the non-empty axis of an empty tensor gives an empty result.
  REQUIRE(llm::max(e, 0).shape() == llm::Shape{1, 0});
}

TEST_CASE("exercise: common shapes by hand",
          "[broadcasting-reductions]") {
  using S = llm::Shape;
  // [5,1,4] with [1,3,1] -> [5,3,4].
  REQUIRE(llm::broadcast_shape({5, 1, 4}, {3, 1}) == S{5, 3, 4});
  // [1,1] with [2,0] -> [2,0].
  REQUIRE(llm::broadcast_shape({1}, {2, 0}) == S{2, 0});
  // Last axes 2 and 3: no common shape.
  REQUIRE_FALSE(llm::broadcast_shape({3, 2}, {2, 3}).has_value());
  // [8,1,6,1] with [1,7,1,5] -> [8,7,6,5].
  REQUIRE(llm::broadcast_shape({8, 1, 6, 1}, {7, 1, 5}) == S{8, 7, 6, 5});
}

TEST_CASE("exercise: strides of a stretched column",
          "[broadcasting-reductions]") {
  const llm::Tensor c({2, 1}, {100, 200});
  const llm::Tensor v = c.broadcast_to({4, 2, 3});
  // New axis and stretched axis get stride 0; the middle keeps 1.
  REQUIRE(v.strides() == llm::Strides{0, 1, 0});
  REQUIRE(v.offset_of({3, 1, 2}) == 1);
  REQUIRE(v.at({3, 1, 2}) == 200);
  REQUIRE(v.offset_of({0, 0, 2}) == 0);
  REQUIRE(v.at({0, 0, 2}) == 100);
}

TEST_CASE("exercise: the first step of a softmax",
          "[broadcasting-reductions]") {
  const llm::Tensor x = make_x();
  // Row maxima [3,6] as a column; each row becomes -2 -1 0.
  const llm::Tensor shifted = llm::sub(x, llm::max(x, 1));
  REQUIRE(shifted.to_vector() == std::vector<double>{-2, -1, 0, -2, -1, 0});
}

TEST_CASE("exercise: the sum of everything",
          "[broadcasting-reductions]") {
  const auto sum_all = [](const llm::Tensor& x) {
    const llm::Tensor flat = x.is_contiguous()
                                 ? x.reshape({x.numel()})
                                 : x.contiguous().reshape({x.numel()});
    return llm::sum(flat, 0);
  };
  const llm::Tensor x = make_x();
  // 1 + 2 + ... + 6 = 21, for x and for its (non-contiguous) transpose.
  REQUIRE(sum_all(x).shape() == llm::Shape{1});
  REQUIRE(sum_all(x).to_vector() == std::vector<double>{21});
  REQUIRE(sum_all(x.transpose(0, 1)).to_vector() == std::vector<double>{21});
  // Axis by axis, last to first: [2,3] -> [2,1] -> [1,1].
  REQUIRE(llm::sum(llm::sum(x, 1), 0).to_vector() ==
          std::vector<double>{21});
}
