// The exercise tests of the stable-softmax chapter. They call
// exercise::softmax (starter.cpp, once fixed) on rows whose
// probabilities are worked out by hand: logits chosen as logarithms, so
// that the exponentials are small whole numbers. Each test names what it
// checks, and a failure prints which probability is wrong.
#include <catch2/catch.hpp>

#include <cmath>
#include <cstddef>
#include <vector>

#include "exercise.hpp"

namespace {

using llm::Tensor;

const double ln2 = std::log(2.0), ln3 = std::log(3.0), ln4 = std::log(4.0);

// Requires softmax(x) to be `want` (row-major) to 1e-12.
void require_probs(const Tensor& x, const std::vector<double>& want) {
  const Tensor p = exercise::softmax(x);
  REQUIRE(p.shape() == x.shape());
  const std::vector<double> got = p.to_vector();
  const std::size_t n = x.shape()[1];
  for (std::size_t k = 0; k < want.size(); ++k) {
    INFO("probability p[" << k / n << "][" << k % n << "]");
    CHECK(got[k] == Approx(want[k]).margin(1e-12));
  }
}

}  // namespace

TEST_CASE("equal logits give a uniform row") {
  // Four equal logits: each exponential is the same, so each
  // probability is 1/4, whatever the common value is.
  require_probs(Tensor({1, 4}, {0.5, 0.5, 0.5, 0.5}),
                {0.25, 0.25, 0.25, 0.25});
}

TEST_CASE("each row is its own distribution") {
  // Row 0 (0, ln 2, ln 3) exponentiates to 1, 2, 3: probabilities 1/6,
  // 2/6, 3/6. Row 1 (ln 4, ln 4, 0) gives 4, 4, 1: 4/9, 4/9, 1/9. Each
  // row adds up to 1; the columns do not.
  require_probs(Tensor({2, 3}, {0, ln2, ln3, ln4, ln4, 0}),
                {1.0 / 6, 2.0 / 6, 3.0 / 6, 4.0 / 9, 4.0 / 9, 1.0 / 9});
}

TEST_CASE("large logits do not overflow") {
  // exp(1000) is beyond the largest double (about 1.8e308): without the
  // shift it is inf and inf / inf is NaN. Shifted, the row is (0, ln 3):
  // 1 and 3, so 1/4 and 3/4.
  require_probs(Tensor({1, 2}, {1000.0, 1000.0 + ln3}), {0.25, 0.75});
}

TEST_CASE("very negative logits do not underflow") {
  // exp(-1000) rounds to 0, and 0 / 0 is NaN. The shift must be by the
  // row's own maximum -1000, even though every logit is below 0: the
  // row becomes (0, -ln 3), that is 1 and 1/3, so 3/4 and 1/4.
  require_probs(Tensor({1, 2}, {-1000.0, -1000.0 - ln3}), {0.75, 0.25});
}

TEST_CASE("a matrix that is not rank 2 is rejected") {
  CHECK_THROWS_AS(exercise::softmax(Tensor({4})), llm::ShapeError);
}
