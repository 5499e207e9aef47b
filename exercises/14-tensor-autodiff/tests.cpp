// The exercise tests of the tensor-autodiff chapter. They call
// exercise::sum_to (starter.cpp, once fixed) on gradients whose sums are
// worked out by hand. The rule behind every expectation: an element
// that broadcasting copied to several places receives the sum of the
// gradients of all its copies. Each test names what it checks, and a
// failure prints which element is wrong.
#include <catch2/catch.hpp>

#include <cstddef>
#include <vector>

#include "exercise.hpp"

namespace {

using llm::Shape;
using llm::Tensor;

// Requires sum_to(g, shape) to have `shape` and hold `want` exactly
// (sums of small whole numbers).
void require_sum(const Tensor& g, const Shape& shape,
                 const std::vector<double>& want) {
  INFO("g is " << llm::to_string(g.shape()) << ", down to "
               << llm::to_string(shape));
  const Tensor out = exercise::sum_to(g, shape);
  INFO("result shape " << llm::to_string(out.shape()));
  REQUIRE(out.shape() == shape);
  const std::vector<double> got = out.to_vector();
  for (std::size_t k = 0; k < want.size(); ++k) {
    INFO("element " << k << " in row-major order");
    CHECK(got[k] == want[k]);
  }
}

}  // namespace

TEST_CASE("a bias [3] added to every row of [2, 3] gets the column sums") {
  // The bias element j was copied into both rows, so its gradient is
  // g[0][j] + g[1][j]: 1 + 10, 2 + 20, 3 + 30. Not their mean.
  require_sum(Tensor({2, 3}, {1, 2, 3, 10, 20, 30}), {3}, {11, 22, 33});
}

TEST_CASE("an extent-1 axis in front is summed and kept") {
  // [1, 3] broadcast to [2, 3]: again each element served both rows,
  // and the result keeps its extent-1 axis: [[11, 22, 33]].
  require_sum(Tensor({2, 3}, {1, 2, 3, 10, 20, 30}), {1, 3}, {11, 22, 33});
}

TEST_CASE("a leading axis and an extent-1 axis together") {
  // g [2, 3, 2] with g[a][b][c] = 6a + 2b + c (the numbers 0 .. 11),
  // down to [3, 1]. Summing axis a gives 6 + 4b + 2c; summing c over
  // 0 and 1 gives 14 + 8b: 14, 22, 30.
  std::vector<double> g(12);
  for (std::size_t k = 0; k < 12; ++k) g[k] = static_cast<double>(k);
  require_sum(Tensor({2, 3, 2}, g), {3, 1}, {14, 22, 30});
}

TEST_CASE("a shape that g is not a broadcast of is rejected") {
  CHECK_THROWS_AS(exercise::sum_to(Tensor({2, 3}), {2}), llm::ShapeError);
}
