// Exercise of the swiglu chapter: the gated feed-forward branch, which
// compiles, runs, and is wrong in two places. Fix it until the exercise
// tests pass:
//
//   cmake --build build --target run_exercise_18
#include "exercise.hpp"

#include <cmath>

#include "llm/matmul.hpp"
#include "llm/ops.hpp"

namespace exercise {

using llm::Tensor;

namespace {

// silu(z) = z * sigmoid(z): about z for large z, 0 at 0, a small dip
// below 0 for negative z.
double silu(double z) { return 1.0 / (1.0 + std::exp(-z)); }

}  // namespace

Tensor swiglu(const Tensor& x, const Tensor& w_gate, const Tensor& w_up,
              const Tensor& w_down) {
  const Tensor gate = llm::matmul(x, w_gate);  // [n, f]
  const Tensor up = llm::matmul(x, w_up);      // [n, f]
  // Unit by unit: the gate's silu scales the up projection.
  const Tensor hidden = llm::mul(gate, llm::map(up, silu));
  return llm::matmul(hidden, w_down);  // [n, d]
}

}  // namespace exercise
