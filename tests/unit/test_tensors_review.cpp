// Tests for the tensors review: the review's pipeline (views, broadcast
// bias, batched product, softmax) against plain loops over indices and
// against the offset formula written out by hand.
#include <catch2/catch.hpp>

#include <cmath>
#include <cstddef>
#include <vector>

#include "llm/matmul.hpp"
#include "llm/ops.hpp"
#include "llm/softmax.hpp"
#include "llm/tensor.hpp"
#include "fixtures.hpp"

namespace {

using llm::Tensor;

}  // namespace

TEST_CASE("views of the review's fixture follow the offset formula",
          "[tensors-review]") {
  // X holds 0..23 in [2,3,4], so an element's value is its position:
  // 12 i + 4 j + k. The transpose of axes 0 and 2 reads X[k, j, i].
  const Tensor x = ramp({2, 3, 4}, 0.0, 1.0);
  const Tensor xt = x.transpose(0, 2);
  CHECK(xt.strides() == llm::Strides{1, 4, 12});
  for (std::size_t i = 0; i < 4; ++i) {
    for (std::size_t j = 0; j < 3; ++j) {
      for (std::size_t k = 0; k < 2; ++k) {
        CHECK(xt.at({i, j, k}) == double(12 * k + 4 * j + i));
      }
    }
  }
  CHECK_FALSE(xt.is_contiguous());
  CHECK_THROWS(xt.reshape({24}));  // a reshape of it needs a copy
  const Tensor flat = xt.contiguous().reshape({24});
  CHECK(flat.at({1}) == 12.0);  // [0,0,1] of the transpose is X[1,0,0]
  const Tensor xs = x.slice(1, 1, 3);
  CHECK(xs.offset() == 4);
  CHECK(xs.at({1, 1, 3}) == 12 + 8 + 3);
}

TEST_CASE("the review's pipeline equals plain loops",
          "[tensors-review]") {
  const Tensor x = ramp({2, 3, 4}, 0.0, 1.0);
  const Tensor w = ramp({4, 3}, -0.5, 0.125);
  const Tensor b({3}, {0.25, -0.25, 0.0});
  const Tensor z = llm::add(llm::matmul(x, w), b);
  const Tensor p = llm::softmax(z);
  REQUIRE(p.shape() == llm::Shape{2, 3, 3});
  for (std::size_t i = 0; i < 2; ++i) {
    for (std::size_t j = 0; j < 3; ++j) {
      double zs[3], total = 0.0, top = -INFINITY;
      for (std::size_t v = 0; v < 3; ++v) {
        double s = 0.0;
        for (std::size_t k = 0; k < 4; ++k) {
          s += (12.0 * i + 4.0 * j + k) * (-0.5 + 0.125 * (3 * k + v));
        }
        zs[v] = s + b.at({v});
        top = std::fmax(top, zs[v]);
        CHECK(z.at({i, j, v}) == Approx(zs[v]).epsilon(1e-14).margin(1e-12));
      }
      for (double& s : zs) total += s = std::exp(s - top);
      double row = 0.0;
      for (std::size_t v = 0; v < 3; ++v) {
        CHECK(p.at({i, j, v}) == Approx(zs[v] / total).epsilon(1e-14));
        row += p.at({i, j, v});
      }
      CHECK(row == Approx(1.0).epsilon(1e-15));
    }
  }
}

TEST_CASE("a broadcast bias has stride 0 on the stretched axes",
          "[tensors-review]") {
  const Tensor b({3}, {0.25, -0.25, 0.0});
  const Tensor bb = b.broadcast_to({2, 3, 3});
  CHECK(bb.strides() == llm::Strides{0, 0, 1});
  CHECK(bb.shares_buffer_with(b));
  CHECK(bb.at({1, 2, 1}) == -0.25);
}
