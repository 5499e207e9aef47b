// The exercise tests of the swiglu chapter. They call exercise::swiglu
// (starter.cpp, once fixed) on one- and two-unit branches whose values
// are worked out by hand in terms of sigmoid(z) = 1 / (1 + exp(-z)).
// Each test names what it checks, and a failure prints which output is
// wrong.
#include <catch2/catch.hpp>

#include <cmath>
#include <cstddef>
#include <vector>

#include "exercise.hpp"

namespace {

using llm::Tensor;

double sigmoid(double z) { return 1.0 / (1.0 + std::exp(-z)); }

// Requires swiglu(x, w_gate, w_up, w_down) to be `want` to 1e-12.
void require_out(const Tensor& x, const Tensor& w_gate, const Tensor& w_up,
                 const Tensor& w_down, const std::vector<double>& want) {
  const Tensor y = exercise::swiglu(x, w_gate, w_up, w_down);
  REQUIRE(y.shape() == x.shape());
  const std::vector<double> got = y.to_vector();
  for (std::size_t k = 0; k < want.size(); ++k) {
    INFO("output " << k << " in row-major order");
    CHECK(got[k] == Approx(want[k]).margin(1e-12));
  }
}

}  // namespace

TEST_CASE("a gate of 0 shuts the unit: silu(0) = 0") {
  // x = 1, W_gate = 0, W_up = 5: the gate is 0 and silu(0) = 0 * 1/2 = 0,
  // so the unit outputs 0 whatever the up projection says. The bare
  // sigmoid would let half of it through: 2.5.
  require_out(Tensor({1, 1}, {1}), Tensor({1, 1}, {0}), Tensor({1, 1}, {5}),
              Tensor({1, 1}, {1}), {0});
}

TEST_CASE("the gate's silu scales the up projection, not the reverse") {
  // x = 2, W_gate = 1, W_up = 3: gate 2, up 6, so the unit is
  // silu(2) * 6 = 2 sigmoid(2) * 6 = 12 sigmoid(2), about 10.57. With
  // the roles swapped it would be 2 * silu(6) = 12 sigmoid(6).
  require_out(Tensor({1, 1}, {2}), Tensor({1, 1}, {1}), Tensor({1, 1}, {3}),
              Tensor({1, 1}, {1}), {12 * sigmoid(2)});
}

TEST_CASE("two units, mixed by the down projection") {
  // x = (1, 2), W_gate = I, W_up = 2 I: gates (1, 2), ups (2, 4), so the
  // units are silu(1) * 2 = 2 sigmoid(1) and silu(2) * 4 = 8 sigmoid(2).
  // W_down = [[1, 0], [1, 1]] gives (unit 0 + unit 1, unit 1).
  const double h0 = 2 * sigmoid(1), h1 = 8 * sigmoid(2);
  require_out(Tensor({1, 2}, {1, 2}), Tensor({2, 2}, {1, 0, 0, 1}),
              Tensor({2, 2}, {2, 0, 0, 2}), Tensor({2, 2}, {1, 0, 1, 1}),
              {h0 + h1, h1});
}
