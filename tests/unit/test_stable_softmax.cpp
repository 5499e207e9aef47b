// Tests for chapter stable-softmax: softmax, log-sum-exp and log-softmax
// along the last axis, computed with the max shift so that large logits
// neither overflow nor underflow into 0/0.
#include <catch2/catch.hpp>

#include <cmath>
#include <cstddef>
#include <limits>
#include <vector>

#include "llm/error.hpp"
#include "llm/ops.hpp"
#include "llm/softmax.hpp"
#include "llm/tensor.hpp"

namespace {

using Catch::Matchers::WithinAbs;
using Catch::Matchers::WithinRel;

// Elements of row i of a [rows, n] tensor.
std::vector<double> row(const llm::Tensor& t, std::size_t i) {
  return t.slice(0, i, i + 1).to_vector();
}

}  // namespace

TEST_CASE("softmax of small rows by hand", "[stable-softmax]") {
  // [0, log 3]: e^0 = 1 and e^log3 = 3, so 1/4 and 3/4.
  const llm::Tensor a({1, 2}, {0, std::log(3.0)});
  const std::vector<double> p = llm::softmax(a).to_vector();
  REQUIRE_THAT(p[0], WithinAbs(0.25, 1e-15));
  REQUIRE_THAT(p[1], WithinAbs(0.75, 1e-15));
  // Equal logits give the uniform distribution, exactly.
  const llm::Tensor b({1, 4}, {7, 7, 7, 7});
  REQUIRE(llm::softmax(b).to_vector() ==
          std::vector<double>{0.25, 0.25, 0.25, 0.25});
  // One logit: probability 1, log-probability 0, log-sum-exp the logit.
  const llm::Tensor c({1}, {-3.5});
  REQUIRE(llm::softmax(c).to_vector() == std::vector<double>{1});
  REQUIRE(llm::log_softmax(c).to_vector() == std::vector<double>{0});
  REQUIRE(llm::logsumexp(c).to_vector() == std::vector<double>{-3.5});
}

TEST_CASE("softmax matches an independent computation",
          "[stable-softmax]") {
  // [1,2,3]: e^j / (e + e^2 + e^3), computed here directly.
  const llm::Tensor x({1, 3}, {1, 2, 3});
  const double total = std::exp(1.0) + std::exp(2.0) + std::exp(3.0);
  const std::vector<double> p = llm::softmax(x).to_vector();
  const std::vector<double> lp = llm::log_softmax(x).to_vector();
  for (std::size_t j = 0; j < 3; ++j) {
    const double want = std::exp(1.0 + j) / total;
    REQUIRE_THAT(p[j], WithinRel(want, 1e-14));
    REQUIRE_THAT(lp[j], WithinAbs(std::log(want), 1e-14));
  }
  REQUIRE_THAT(llm::logsumexp(x).to_vector()[0],
               WithinAbs(std::log(total), 1e-14));
  // The shape of logsumexp keeps the last axis.
  REQUIRE(llm::logsumexp(x).shape() == llm::Shape{1, 1});
}

TEST_CASE("large logits stay finite", "[stable-softmax]") {
  const llm::Tensor x({4, 3}, {1, 2, 3, 1000, 1001, 1002, -1000, -999,
                               -998, 1000, 0, -1000});
  const llm::Tensor p = llm::softmax(x);
  REQUIRE(p.shape() == llm::Shape{4, 3});
  // Shifting by the maximum gives -2 -1 0 exactly in rows 0, 1 and 2, so
  // their probabilities agree to the bit.
  REQUIRE(row(p, 1) == row(p, 0));
  REQUIRE(row(p, 2) == row(p, 0));
  // Row 3 shifts to 0, -1000, -2000: probability 1, then two exact 0s.
  REQUIRE(row(p, 3) == std::vector<double>{1, 0, 0});
  for (double v : p.to_vector()) REQUIRE(std::isfinite(v));
  // Rows add up to 1 (to rounding).
  for (double s : llm::sum(p, 1).to_vector()) {
    REQUIRE_THAT(s, WithinAbs(1.0, 1e-15));
  }
  // log-sum-exp = m + log(1 + e^-1 + e^-2) for rows 0..2; 1000 for row 3.
  const double tail = std::log(1.0 + std::exp(-1.0) + std::exp(-2.0));
  const std::vector<double> lse = llm::logsumexp(x).to_vector();
  REQUIRE_THAT(lse[0], WithinAbs(3.0 + tail, 1e-13));
  REQUIRE_THAT(lse[1], WithinAbs(1002.0 + tail, 1e-12));
  REQUIRE_THAT(lse[2], WithinAbs(-998.0 + tail, 1e-12));
  REQUIRE(lse[3] == 1000.0);
  // log-softmax of row 3: 0, -1000, -2000, all finite.
  REQUIRE(row(llm::log_softmax(x), 3) ==
          std::vector<double>{0, -1000, -2000});
}

TEST_CASE("log_softmax keeps what log(softmax) loses",
          "[stable-softmax]") {
  const llm::Tensor far({1, 2}, {0, -800});
  // e^-800 is below the smallest double: softmax rounds it to 0.
  REQUIRE(llm::softmax(far).to_vector()[1] == 0.0);
  REQUIRE(std::log(llm::softmax(far).to_vector()[1]) ==
          -std::numeric_limits<double>::infinity());
  // log-softmax: (x - 0) - log(1 + e^-800) = -800 exactly.
  REQUIRE(llm::log_softmax(far).to_vector() == std::vector<double>{0, -800});
}

TEST_CASE("softmax works along the last axis of any rank",
          "[stable-softmax]") {
  // [2,1,2]: rows [0,0] and [0, log 3].
  const llm::Tensor x({2, 1, 2}, {0, 0, 0, std::log(3.0)});
  const llm::Tensor p = llm::softmax(x);
  REQUIRE(p.shape() == llm::Shape{2, 1, 2});
  const std::vector<double> v = p.to_vector();
  REQUIRE(v[0] == 0.5);
  REQUIRE(v[1] == 0.5);
  REQUIRE_THAT(v[3], WithinAbs(0.75, 1e-15));
  // A transposed view is a row-wise softmax of its own rows.
  const llm::Tensor m({2, 2}, {0, 5, 0, 5});  // columns 0 0 and 5 5
  const llm::Tensor q = llm::softmax(m.transpose(0, 1));
  REQUIRE(q.to_vector() == std::vector<double>{0.5, 0.5, 0.5, 0.5});
  // A rank-1 tensor is one row.
  REQUIRE(llm::softmax(llm::Tensor({2}, {3, 3})).shape() == llm::Shape{2});
}

TEST_CASE("softmax needs logits along a last axis",
          "[stable-softmax]") {
  REQUIRE_THROWS_AS(llm::softmax(llm::Tensor({}, {1})), llm::ShapeError);
  REQUIRE_THROWS_WITH(llm::softmax(llm::Tensor({}, {1})),
                      "softmax: x is [], which has no logits along a last "
                      "axis");
  REQUIRE_THROWS_WITH(llm::log_softmax(llm::Tensor({2, 0})),
                      "log_softmax: x is [2,0], which has no logits along "
                      "a last axis");
  REQUIRE_THROWS_WITH(llm::logsumexp(llm::Tensor({0})),
                      "logsumexp: x is [0], which has no logits along a "
                      "last axis");
  // An empty leading axis is fine: no rows, no work.
  REQUIRE(llm::softmax(llm::Tensor({0, 3})).shape() == llm::Shape{0, 3});
}

TEST_CASE("exercise: a fully masked row is NaN", "[stable-softmax]") {
  const double inf = std::numeric_limits<double>::infinity();
  // max = -inf and -inf - (-inf) is NaN.
  const llm::Tensor masked({1, 3}, {-inf, -inf, -inf});
  for (double v : llm::softmax(masked).to_vector()) REQUIRE(std::isnan(v));
  // One visible key is enough: the masked ones get exactly 0.
  const llm::Tensor causal({1, 3}, {2.5, -inf, -inf});
  REQUIRE(llm::softmax(causal).to_vector() == std::vector<double>{1, 0, 0});
}

TEST_CASE("exercise: shifting by the mean is not enough",
          "[stable-softmax]") {
  // [1000, 0, -1000] has mean 0: shifting by it changes nothing and
  // e^1000 still overflows. Shifting by the max keeps it finite.
  const llm::Tensor x({1, 3}, {1000, 0, -1000});
  const llm::Tensor by_mean = llm::sub(x, llm::mean(x, 1));
  REQUIRE(std::isinf(std::exp(by_mean.to_vector()[0])));
  REQUIRE(llm::softmax(x).to_vector() == std::vector<double>{1, 0, 0});
}

TEST_CASE("exercise: temperature", "[stable-softmax]") {
  const llm::Tensor x({1, 3}, {1, 2, 3});
  // T = 0.01: logits 100, 200, 300; shifted -200, -100, 0. The largest
  // gets 1 / (1 + e^-100 + e^-200), which rounds to exactly 1.
  const llm::Tensor cold = llm::softmax(llm::div(x, llm::Tensor({}, {0.01})));
  REQUIRE(cold.to_vector()[2] == 1.0);
  REQUIRE(cold.to_vector()[0] > 0.0);  // e^-200 is still a double
  // T = 1e6: the logits differ by 1e-6; nearly uniform.
  const llm::Tensor hot = llm::softmax(llm::div(x, llm::Tensor({}, {1e6})));
  for (double v : hot.to_vector()) REQUIRE_THAT(v, WithinAbs(1.0 / 3, 1e-6));
}
