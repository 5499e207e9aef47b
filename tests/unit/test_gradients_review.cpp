// Tests for the gradients review: the small model's backward pass
// against the closed forms written on the page (softmax minus one-hot,
// scatter-add of repeated ids) and against central differences.
#include <catch2/catch.hpp>

#include <cmath>
#include <cstddef>
#include <vector>

#include "llm/autograd.hpp"
#include "llm/gradcheck.hpp"
#include "llm/model_ops.hpp"
#include "llm/tensor.hpp"

namespace {

using llm::Tape;
using llm::Tensor;
using llm::Var;

const std::vector<std::size_t> ids = {0, 2, 2, 4}, targets = {1, 0, 3, 2};

Tensor ramp(const llm::Shape& shape, double start, double step) {
  std::vector<double> v(llm::numel(shape));
  for (std::size_t k = 0; k < v.size(); ++k) {
    v[k] = start + step * static_cast<double>((k * 7) % v.size());
  }
  return Tensor(shape, v);
}

Var forward(const std::vector<Var>& w) {
  return llm::nll(llm::log_softmax(llm::matmul(
                      llm::silu(llm::gather(w[0], ids)), w[1])),
                  targets);
}

}  // namespace

TEST_CASE("dL/dZ is (softmax - one-hot) / N", "[gradients-review]") {
  Tape tape;
  const Var z = tape.leaf(ramp({4, 5}, -1.0, 0.3));
  tape.backward(llm::nll(llm::log_softmax(z), targets));
  for (std::size_t i = 0; i < 4; ++i) {
    double top = -INFINITY, total = 0.0;
    for (std::size_t v = 0; v < 5; ++v) top = std::fmax(top, z.value().at({i, v}));
    for (std::size_t v = 0; v < 5; ++v) total += std::exp(z.value().at({i, v}) - top);
    for (std::size_t v = 0; v < 5; ++v) {
      const double p = std::exp(z.value().at({i, v}) - top) / total;
      const double want = (p - (v == targets[i] ? 1.0 : 0.0)) / 4.0;
      CHECK(z.grad().at({i, v}) == Approx(want).margin(1e-15));
    }
  }
}

TEST_CASE("gather's backward adds repeated rows and leaves unused rows zero",
          "[gradients-review]") {
  Tape tape;
  const Var e = tape.leaf(ramp({5, 3}, -0.7, 0.1));
  const Var w = tape.leaf(ramp({3, 5}, -0.6, 0.09));
  const Var h = llm::gather(e, ids);
  const Var l = llm::nll(llm::log_softmax(llm::matmul(llm::silu(h), w)),
                         targets);
  tape.backward(l);
  for (std::size_t c = 0; c < 3; ++c) {
    CHECK(e.grad().at({1, c}) == 0.0);
    CHECK(e.grad().at({3, c}) == 0.0);
    CHECK(e.grad().at({0, c}) == h.grad().at({0, c}));
    CHECK(e.grad().at({2, c}) == h.grad().at({1, c}) + h.grad().at({2, c}));
    CHECK(e.grad().at({4, c}) == h.grad().at({3, c}));
  }
}

TEST_CASE("the review's model passes the central-difference check",
          "[gradients-review]") {
  const std::vector<llm::GradientError> errors = llm::check_tape_gradients(
      [](Tape&, const std::vector<Var>& w) { return forward(w); },
      {ramp({5, 3}, -0.7, 0.1), ramp({3, 5}, -0.6, 0.09)});
  REQUIRE(errors.size() == 2);
  // Truncation (h^2 times a third derivative of order 1) and rounding
  // (1e-16 / 1e-6) are both near 1e-10 for this loss of order 1.
  CHECK(errors[0].max_abs < 1e-8);
  CHECK(errors[1].max_abs < 1e-8);
}
