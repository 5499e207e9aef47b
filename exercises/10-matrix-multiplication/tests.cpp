// The exercise tests of the matrix-multiplication chapter. They call
// exercise::matmul (starter.cpp, once fixed) on small matrices whose
// products are worked out by hand in the comments, chosen so that each
// shape exposes a different kind of mistake. Each test names what it
// checks, and a failure prints which element of c is wrong.
#include <catch2/catch.hpp>

#include <cstddef>
#include <vector>

#include "exercise.hpp"

namespace {

using llm::Tensor;
using Rows = std::vector<std::vector<double>>;

// The row-major tensor holding `rows`.
Tensor matrix(const Rows& rows) {
  std::vector<double> values;
  for (const auto& row : rows) {
    values.insert(values.end(), row.begin(), row.end());
  }
  return Tensor({rows.size(), rows[0].size()}, values);
}

// Requires exercise::matmul(a, b) to hold exactly `want`: small
// integers, so every product and sum is exact in double.
void require_product(const Rows& a, const Rows& b, const Rows& want) {
  const Tensor c = exercise::matmul(matrix(a), matrix(b));
  REQUIRE(c.shape() == llm::Shape{want.size(), want[0].size()});
  for (std::size_t i = 0; i < want.size(); ++i) {
    for (std::size_t j = 0; j < want[0].size(); ++j) {
      INFO("element c[" << i << "][" << j << "], which is row " << i
                        << " of a times column " << j << " of b");
      CHECK(c.at({i, j}) == want[i][j]);
    }
  }
}

}  // namespace

TEST_CASE("a column times a row: every element is one product") {
  // k = 1, so c[i][j] = a[i][0] b[0][j] and no element is a sum: a
  // value that is too large comes from adding the previous element's
  // sum into this one.
  require_product({{1}, {2}, {3}}, {{4, 5}},
                  {{4, 5}, {8, 10}, {12, 15}});
}

TEST_CASE("a row times a wide matrix: b read row by row") {
  // [1, 2] x [2, 3]: c[0][j] = 1 b[0][j] + 2 b[1][j], so
  // (1 + 8, 2 + 10, 3 + 12). Row 1 of b starts at position n = 3 of
  // its buffer, not at k = 2.
  require_product({{1, 2}}, {{1, 2, 3}, {4, 5, 6}}, {{9, 12, 15}});
}

TEST_CASE("a tall matrix times a square one: a read row by row") {
  // [3, 2] x [2, 2] with b = [[1, 0], [1, 1]]: column 0 of c adds both
  // entries of a row of a, column 1 copies the second. Row i of a
  // starts at position i k of its buffer: (3, 2), (7, 4), (11, 6).
  require_product({{1, 2}, {3, 4}, {5, 6}}, {{1, 0}, {1, 1}},
                  {{3, 2}, {7, 4}, {11, 6}});
}

TEST_CASE("a [2, 3] times a [3, 4]: the formula, element by element") {
  // c[0][0] = 1*1 + 2*0 + 3*2 = 7, c[1][3] = 4*0 + 5*1 + 6*1 = 11, and
  // the rest the same way: row i of a against column j of b.
  require_product({{1, 2, 3}, {4, 5, 6}},
                  {{1, 0, 2, 0}, {0, 1, -1, 1}, {2, 0, 1, 1}},
                  {{7, 2, 3, 5}, {16, 5, 9, 11}});
}

TEST_CASE("inner extents that differ are rejected") {
  // [2, 3] x [2, 3]: row 0 of a has 3 numbers, column 0 of b has 2.
  const Tensor a({2, 3});
  CHECK_THROWS_AS(exercise::matmul(a, a), llm::ShapeError);
}
