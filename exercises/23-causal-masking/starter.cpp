// Exercise of the causal-masking chapter: causal attention
// probabilities that compile, run, and are wrong in three places. Fix
// them until the exercise tests pass:
//
//   cmake --build build --target run_exercise_23
#include "exercise.hpp"

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <utility>
#include <vector>

namespace exercise {

using llm::Tensor;

namespace {

// True when query `i` may not look at key `j`: the key lies in its future.
bool hidden(std::size_t i, std::size_t j) { return j >= i; }

}  // namespace

Tensor causal_probabilities(const Tensor& scores) {
  if (scores.rank() != 2 || scores.shape()[0] != scores.shape()[1]) {
    throw llm::ShapeError("exercise::causal_probabilities: scores is " +
                          llm::to_string(scores.shape()) + ", want [T, T]");
  }
  const std::size_t t = scores.shape()[0];
  const std::vector<double> s = scores.to_vector();  // row i at i * t
  std::vector<double> p(t * t);

  for (std::size_t i = 0; i < t; ++i) {
    const double* row = s.data() + i * t;
    // The shift of the stable softmax: the row's largest score.
    double m = row[0];
    for (std::size_t j = 1; j < t; ++j) m = std::max(m, row[j]);

    double total = 0.0;
    for (std::size_t j = 0; j < t; ++j) {
      p[i * t + j] = std::exp(row[j] - m);
      total += p[i * t + j];
    }
    for (std::size_t j = 0; j < t; ++j) {
      p[i * t + j] = hidden(i, j) ? 0.0 : p[i * t + j] / total;
    }
  }
  return Tensor({t, t}, std::move(p));
}

}  // namespace exercise
