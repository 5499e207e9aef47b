// The exercise tests of the fast-kernels chapter. They call
// exercise::matmul_tiled (starter.cpp, once fixed) and require the
// plain loop's bits (naive_matmul, tests/unit/matmul_reference.hpp) on
// small products worked out by hand and on random matrices whose sizes
// are no multiple of the tile.
#include <catch2/catch.hpp>

#include <cstring>
#include <vector>

#include "exercise.hpp"
#include "matmul_reference.hpp"  // tests/unit/
#include "splitmix.hpp"          // tests/unit/

namespace {

// Random [m, k] and [k, n] matrices (SplitMix64, tests/unit/splitmix.hpp):
// every element of the product must have the bits of the plain loop's,
// summed from zero in increasing p.
void require_bitwise(std::size_t m, std::size_t k, std::size_t n) {
  const auto a = splitmix_values(m * k, 100 * m + k);
  const auto b = splitmix_values(k * n, 100 * k + n);
  const auto want = naive_matmul(a, b, m, k, n);
  const auto got = exercise::matmul_tiled(a, b, m, k, n);
  REQUIRE(got.size() == want.size());
  for (std::size_t e = 0; e < want.size(); ++e) {
    INFO("[" << m << ", " << k << "] x [" << k << ", " << n << "]: element ["
             << e / n << ", " << e % n << "], " << got[e] << " vs the plain loop's "
             << want[e] << " (equal bits required)");
    CHECK(std::memcmp(&got[e], &want[e], sizeof(double)) == 0);
  }
}

}  // namespace

TEST_CASE("products by hand, with rows and columns left over") {
  // A [5, 2] of ones times B [2, 9] with b[p, j] = j + 10 p: every row of
  // C is j + (j + 10) = 2 j + 10. Five rows: one whole tile of 4 and one
  // row left over; nine columns: one tile of 8 and one column left over.
  const std::vector<double> a(5 * 2, 1.0);
  std::vector<double> b(2 * 9);
  for (std::size_t p = 0; p < 2; ++p) {
    for (std::size_t j = 0; j < 9; ++j) b[p * 9 + j] = double(j + 10 * p);
  }
  const auto c = exercise::matmul_tiled(a, b, 5, 2, 9);
  REQUIRE(c.size() == 45);
  for (std::size_t i = 0; i < 5; ++i) {
    for (std::size_t j = 0; j < 9; ++j) {
      INFO("element [" << i << ", " << j << "]");
      CHECK(c[i * 9 + j] == double(2 * j + 10));
    }
  }
}

TEST_CASE("bitwise equal to the plain loop on odd shapes") {
  require_bitwise(7, 13, 19);
  require_bitwise(4, 64, 8);
  require_bitwise(9, 1, 17);
}
