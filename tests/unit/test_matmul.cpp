// Tests for chapter matrix-multiplication: the shape rule of a batched
// product, broadcasting batch axes, views as operands, and agreement with
// an independent triple loop.
#include <catch2/catch.hpp>

#include <array>
#include <cstddef>
#include <vector>

#include "llm/error.hpp"
#include "llm/matmul.hpp"
#include "llm/tensor.hpp"
#include "matmul_reference.hpp"

namespace {

// Deterministic values in [-1, 1) that are not binary fractions.
std::vector<double> values(std::size_t count, std::size_t seed) {
  std::vector<double> v(count);
  for (std::size_t t = 0; t < count; ++t) {
    v[t] = (static_cast<double>((13 * t + seed) % 23) - 11.5) / 11.7;
  }
  return v;
}

}  // namespace

TEST_CASE("a 2x3 times 3x2 product by hand", "[matrix-multiplication]") {
  const llm::Tensor a({2, 3}, {1, 2, 3, 4, 5, 6});
  const llm::Tensor b({3, 2}, {7, 8, 9, 10, 11, 12});
  const llm::Tensor c = llm::matmul(a, b);
  // [0,0] = 1*7 + 2*9 + 3*11 = 58;  [0,1] = 1*8 + 2*10 + 3*12 = 64;
  // [1,0] = 4*7 + 5*9 + 6*11 = 139; [1,1] = 4*8 + 5*10 + 6*12 = 154.
  REQUIRE(c.shape() == llm::Shape{2, 2});
  REQUIRE(c.to_vector() == std::vector<double>{58, 64, 139, 154});
  // b a is [3,3]: row 0 = 7*[1,2,3] + 8*[4,5,6] = [39,54,69].
  const llm::Tensor d = llm::matmul(b, a);
  REQUIRE(d.shape() == llm::Shape{3, 3});
  REQUIRE(d.to_vector() ==
          std::vector<double>{39, 54, 69, 49, 68, 87, 59, 82, 105});
}

TEST_CASE("matmul agrees bitwise with the i-j-p triple loop",
          "[matrix-multiplication]") {
  // Same products added in the same order p = 0..k-1 for each element.
  const std::vector<std::array<std::size_t, 3>> sizes = {
      {1, 1, 1}, {5, 7, 6}, {16, 9, 31}, {3, 40, 2}};
  for (const auto& [m, k, n] : sizes) {
    const std::vector<double> a = values(m * k, m), b = values(k * n, n);
    const llm::Tensor c =
        llm::matmul(llm::Tensor({m, k}, a), llm::Tensor({k, n}, b));
    REQUIRE(c.shape() == llm::Shape{m, n});
    REQUIRE(c.to_vector() == naive_matmul(a, b, m, k, n));
  }
  // The demo's [5,7] x [7,6] product, v_t = ((7t + seed) mod 17 - 8) / 8.3
  // with seeds 3 and 5, whose first element the prose quotes.
  std::vector<double> fa(5 * 7), fb(7 * 6);
  for (std::size_t t = 0; t < fa.size(); ++t) {
    fa[t] = (static_cast<double>((7 * t + 3) % 17) - 8.0) / 8.3;
  }
  for (std::size_t t = 0; t < fb.size(); ++t) {
    fb[t] = (static_cast<double>((7 * t + 5) % 17) - 8.0) / 8.3;
  }
  REQUIRE(llm::matmul(llm::Tensor({5, 7}, fa), llm::Tensor({7, 6}, fb))
              .to_vector() == naive_matmul(fa, fb, 5, 7, 6));
}

TEST_CASE("operands may be views", "[matrix-multiplication]") {
  const llm::Tensor a({2, 3}, {1, 2, 3, 4, 5, 6});
  // a a^T: [0,0] = 1+4+9 = 14, [0,1] = 4+10+18 = 32, [1,1] = 16+25+36.
  const llm::Tensor g = llm::matmul(a, a.transpose(0, 1));
  REQUIRE(g.to_vector() == std::vector<double>{14, 32, 32, 77});
  // a^T a is [3,3]; [0,0] = 1+16 = 17, [0,2] = 3+24 = 27.
  const llm::Tensor h = llm::matmul(a.transpose(0, 1), a);
  REQUIRE(h.shape() == llm::Shape{3, 3});
  REQUIRE(h.at({0, 0}) == 17);
  REQUIRE(h.at({0, 2}) == 27);
  // A column slice: a[:, 1:3] is [[2,3],[5,6]]; times identity.
  const llm::Tensor id({2, 2}, {1, 0, 0, 1});
  REQUIRE(llm::matmul(a.slice(1, 1, 3), id).to_vector() ==
          std::vector<double>{2, 3, 5, 6});
  // The inputs are not modified.
  REQUIRE(a.to_vector() == std::vector<double>{1, 2, 3, 4, 5, 6});
}

TEST_CASE("batch axes broadcast", "[matrix-multiplication]") {
  // Identity and row swap, times one shared s: s, then s's rows swapped.
  const llm::Tensor pair({2, 2, 2}, {1, 0, 0, 1, 0, 1, 1, 0});
  const llm::Tensor s({2, 2}, {1, 2, 3, 4});
  const llm::Tensor c = llm::matmul(pair, s);
  REQUIRE(c.shape() == llm::Shape{2, 2, 2});
  REQUIRE(c.to_vector() == std::vector<double>{1, 2, 3, 4, 3, 4, 1, 2});
  // The shared operand on the left: s times each: s, then s's columns
  // swapped.
  REQUIRE(llm::matmul(s, pair).to_vector() ==
          std::vector<double>{1, 2, 3, 4, 2, 1, 4, 3});
  // [2,1,m,k] x [3,k,n] -> [2,3,m,n]; each block against the naive loop.
  const std::size_t m = 2, k = 3, n = 4;
  const std::vector<double> av = values(2 * m * k, 1);
  const std::vector<double> bv = values(3 * k * n, 2);
  const llm::Tensor big = llm::matmul(llm::Tensor({2, 1, m, k}, av),
                                      llm::Tensor({3, k, n}, bv));
  REQUIRE(big.shape() == llm::Shape{2, 3, m, n});
  const std::vector<double> out = big.to_vector();
  for (std::size_t x = 0; x < 2; ++x) {
    for (std::size_t y = 0; y < 3; ++y) {
      const std::vector<double> a1(av.begin() + x * m * k,
                                   av.begin() + (x + 1) * m * k);
      const std::vector<double> b1(bv.begin() + y * k * n,
                                   bv.begin() + (y + 1) * k * n);
      const std::vector<double> want = naive_matmul(a1, b1, m, k, n);
      const std::size_t at = (x * 3 + y) * m * n;
      REQUIRE(std::vector<double>(out.begin() + at,
                                  out.begin() + at + m * n) == want);
    }
  }
}

TEST_CASE("empty products", "[matrix-multiplication]") {
  // k = 0: every element is an empty sum, so [2,0] x [0,3] is zeros.
  const llm::Tensor z = llm::matmul(llm::Tensor({2, 0}), llm::Tensor({0, 3}));
  REQUIRE(z.shape() == llm::Shape{2, 3});
  REQUIRE(z.to_vector() == std::vector<double>(6, 0.0));
  // m = 0 or an empty batch: an empty result of the right shape.
  REQUIRE(llm::matmul(llm::Tensor({0, 3}), llm::Tensor({3, 2})).shape() ==
          llm::Shape{0, 2});
  REQUIRE(llm::matmul(llm::Tensor({0, 2, 3}), llm::Tensor({3, 2})).shape() ==
          llm::Shape{0, 2, 2});
}

TEST_CASE("shape errors name both operands",
          "[matrix-multiplication]") {
  REQUIRE_THROWS_AS(llm::matmul(llm::Tensor({2, 3}), llm::Tensor({4, 5})),
                    llm::ShapeError);
  REQUIRE_THROWS_WITH(llm::matmul(llm::Tensor({2, 3}), llm::Tensor({4, 5})),
                      "matmul: a is [2,3], b is [4,5] (inner extents 3 and "
                      "4 differ)");
  REQUIRE_THROWS_WITH(llm::matmul(llm::Tensor({3}), llm::Tensor({3, 2})),
                      "matmul: a is [3], b is [3,2] (both need rank 2 or "
                      "more)");
  REQUIRE_THROWS_WITH(llm::matmul(llm::Tensor({2, 3}), llm::Tensor({3})),
                      "matmul: a is [2,3], b is [3] (both need rank 2 or "
                      "more)");
  REQUIRE_THROWS_WITH(
      llm::matmul(llm::Tensor({2, 2, 3}), llm::Tensor({3, 3, 4})),
      "matmul: a is [2,2,3], b is [3,3,4] (batch shapes [2] and [3] do not "
      "broadcast)");
}

TEST_CASE("exercise: shapes of batched products",
          "[matrix-multiplication]") {
  // [4,1,2,3] x [5,3,7]: batches [4,1] and [5] -> [4,5]; matrices 2x7.
  REQUIRE(llm::matmul(llm::Tensor({4, 1, 2, 3}), llm::Tensor({5, 3, 7}))
              .shape() == llm::Shape{4, 5, 2, 7});
  // A linear layer: [B,T,d] x [d,e] -> [B,T,e].
  REQUIRE(llm::matmul(llm::Tensor({2, 5, 4}), llm::Tensor({4, 3})).shape() ==
          llm::Shape{2, 5, 3});
  // Attention scores: [B,h,T,d] x [B,h,d,T] -> [B,h,T,T].
  REQUIRE(llm::matmul(llm::Tensor({2, 3, 5, 4}), llm::Tensor({2, 3, 4, 5}))
              .shape() == llm::Shape{2, 3, 5, 5});
}

TEST_CASE("exercise: a matrix times a vector",
          "[matrix-multiplication]") {
  // A vector [k] becomes a column [k,1]; the product is a column [m,1].
  const llm::Tensor a({2, 3}, {1, 2, 3, 4, 5, 6});
  const llm::Tensor x({3}, {1, 0, -1});
  const llm::Tensor y = llm::matmul(a, x.reshape({3, 1}));
  REQUIRE(y.shape() == llm::Shape{2, 1});
  // 1 - 3 = -2 and 4 - 6 = -2.
  REQUIRE(y.to_vector() == std::vector<double>{-2, -2});
  REQUIRE(y.reshape({2}).shape() == llm::Shape{2});
}
